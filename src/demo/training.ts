/** The demo tenant's training: courses (most global, a few for one company) and contacts' enrollments. */
import type { TrainingCourseRecord } from '../model/seed.js'
import type { TrainingEnrollment } from '../model/training.js'
import type { Sfc32 } from './prng.js'
import type { DemoCompany } from './people.js'
import { between, DAY, daysAgo, DEMO_NOW, iso } from './time.js'
import { DEMO_MSP } from './company-profiles.js'

const COURSES: ReadonlyArray<
  [title: string, courseType: string, category: string, mandatory: boolean, minutes: number]
> = [
  ['Security Awareness Essentials', 'video', 'Security', true, 45],
  ['Spotting Phishing Emails', 'video', 'Security', true, 20],
  ['Password Managers 101', 'video', 'Security', false, 15],
  ['HIPAA Privacy and Security Basics', 'scorm', 'Compliance', true, 60],
  ['PCI DSS for Front-Desk Staff', 'scorm', 'Compliance', false, 30],
  ['Working Securely from Home', 'video', 'Security', false, 25],
  ['Microsoft Teams for Everyday Work', 'video', 'Productivity', false, 35],
  ['OneDrive and SharePoint File Sharing', 'video', 'Productivity', false, 30],
  ['Reporting an Incident', 'document', 'Security', true, 10],
  ['Social Engineering by Phone', 'quiz', 'Security', false, 15],
  ['Data Handling and Retention', 'scorm', 'Compliance', false, 40],
  ['Multi-Factor Authentication Setup', 'document', 'Security', false, 10],
]

/** Training courses (most global, a few for one company) and enrollments of customer contacts. */
export function makeTraining(
  rng: Sfc32,
  companies: readonly DemoCompany[],
): { courses: TrainingCourseRecord[]; enrollments: TrainingEnrollment[] } {
  const customers = companies.filter((c) => c.active)
  const courses: TrainingCourseRecord[] = COURSES.map(
    ([title, courseType, courseCategory, isMandatory, minutes], index) => {
      const company = index >= COURSES.length - 2 && customers.length > 0 ? rng.pick(customers) : null
      const createdAt = between(rng, daysAgo(900), daysAgo(120))
      const id = rng.uuid()
      const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
      return {
        id,
        title,
        description: `${title}: a ${minutes}-minute ${courseType} course.`,
        courseType,
        courseCategory,
        isMandatory,
        passingScore: courseType === 'document' ? null : rng.pick([70, 75, 80]),
        duration: minutes,
        maxAttempts: courseType === 'document' ? null : rng.pick([3, 5]),
        expiresAfterDays: isMandatory ? 365 : null,
        artworkUrl: `https://assets.${DEMO_MSP.domain}/training/${slug}.jpg`,
        youtubeUrl:
          courseType === 'video'
            ? `https://www.youtube.com/watch?v=${rng.uuid().replace(/-/g, '').slice(0, 11)}`
            : null,
        isGlobal: company === null,
        company: company ? { id: company.id, name: company.name } : null,
        createdAt: iso(createdAt),
        updatedAt: iso(between(rng, createdAt, daysAgo(7))),
        scormUrl: courseType === 'scorm' ? `https://lms.${DEMO_MSP.domain}/scorm/${slug}/imsmanifest.xml` : null,
        metadata: {
          language: 'en-US',
          level: rng.pick(['beginner', 'intermediate']),
          tags: [courseCategory.toLowerCase()],
        },
      }
    },
  )
  const enrollments: TrainingEnrollment[] = []
  for (const company of customers) {
    const available = courses.filter((c) => c.isGlobal || c.company?.id === company.id)
    for (const contact of company.contacts) {
      for (const course of available) {
        if (!(course.isMandatory ? rng.chance(0.7) : rng.chance(0.08))) continue
        const enrolledAt = between(rng, daysAgo(400), daysAgo(2))
        const status = rng.weighted(['completed', 'in_progress', 'not_started'] as const, [6, 2, 2])
        const startedAt =
          status === 'not_started'
            ? null
            : between(rng, enrolledAt, Math.min(enrolledAt + 20 * DAY, DEMO_NOW - 3_600_000))
        const completedAt =
          status === 'completed' && startedAt !== null
            ? between(rng, startedAt, Math.min(startedAt + 10 * DAY, DEMO_NOW - 60_000))
            : null
        const score =
          status === 'completed' && course.passingScore !== null ? rng.int(course.passingScore - 10, 100) : null
        const passed =
          status === 'completed' && (score === null || course.passingScore === null || score >= course.passingScore)
        enrollments.push({
          id: rng.uuid(),
          course: { id: course.id, title: course.title, courseType: course.courseType },
          user: { id: contact.id, fullName: contact.fullName, email: contact.email },
          status,
          progress: status === 'completed' ? 100 : status === 'in_progress' ? rng.int(5, 95) : 0,
          score,
          enrolledAt: iso(enrolledAt),
          startedAt: startedAt === null ? null : iso(startedAt),
          completedAt: completedAt === null ? null : iso(completedAt),
          dueDate: course.isMandatory ? iso(enrolledAt + 30 * DAY) : null,
          timeSpentSeconds:
            status === 'not_started'
              ? 0
              : Math.round(
                  (course.duration ?? 20) * 60 * (status === 'completed' ? 0.8 + rng.next() * 0.6 : rng.next()),
                ),
          certificateId: passed ? rng.uuid() : null,
          companyId: company.id,
        })
      }
    }
  }
  return { courses, enrollments }
}
