/** The training courses and enrollments of a fixture tenant: enrollments in every status, one of no company. */
import { TrainingCourseSchema, TrainingEnrollmentSchema } from '../../model/training.js'
import { defineFixture } from './fixture.js'
import { companyRef, userSeeds } from './fixture-companies-and-users.js'
import { at, type FixtureTenant, fixtureIdRange, nameSuffix, type SeedList, shuffled } from './fixture-keys.js'
import type { FixtureIds } from './fixtures.js'

/** The kinds of {@link fixtureIdRange} of this file's records. */
const COURSE = 0x0b
const ENROLLMENT = 0x0c

/** Enrollments: [course index, user index, company index | null, status, enrolledAt]. */
export const ENROLLMENT_ROWS: Array<
  [number, number, number | null, 'not_started' | 'in_progress' | 'completed', string]
> = [
  [0, 0, 0, 'completed', at(5)],
  [0, 1, 0, 'in_progress', at(6)],
  [0, 2, 1, 'not_started', at(6)],
  [1, 0, 0, 'in_progress', at(4)],
  [1, 3, null, 'completed', at(7)],
  [2, 4, 2, 'not_started', at(6)],
]

/**
 * The three training courses of a fixture tenant; the first is mandatory and has metadata.
 *
 * @example
 * courseSeeds('a', fixtureIds('a'))[0]?.title // 'Security basics'
 */
export function courseSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'trainingCourses'> {
  return ['Security basics', 'Phishing', 'Onboarding'].map((title, i) => ({
    id: ids.courses[i]!,
    title: `${title}${nameSuffix(tenant)}`,
    courseType: 'video',
    isMandatory: i === 0,
    isGlobal: false,
    company: companyRef(tenant, 0),
    createdAt: at(1),
    updatedAt: at(1),
    metadata: i === 0 ? { level: 1 } : null,
  }))
}

/**
 * The training enrollments of a fixture tenant, in id order, naming the `courses` and `users` of the
 * same tenant ({@link courseSeeds}, `userSeeds`) as the API shows them.
 *
 * @example
 * const ids = fixtureIds('a')
 * enrollmentSeeds('a', ids, courseSeeds('a', ids), userSeeds('a', ids))[0]?.progress // 100
 */
export function enrollmentSeeds(
  tenant: FixtureTenant,
  ids: FixtureIds,
  courses: SeedList<'trainingCourses'>,
  users: SeedList<'users'>,
): SeedList<'trainingEnrollments'> {
  return ENROLLMENT_ROWS.map(([course, user, company, status, enrolledAt], i) => ({
    id: ids.enrollments[i]!,
    course: { id: courses[course]!.id, title: courses[course]!.title, courseType: 'video' },
    user: { id: users[user]!.id, fullName: users[user]!.fullName, email: users[user]!.email },
    status,
    progress: status === 'completed' ? 100 : status === 'in_progress' ? 40 : 0,
    score: status === 'completed' ? 90 : null,
    enrolledAt,
    timeSpentSeconds: 60 * i,
    companyId: companyRef(tenant, company)?.id ?? null,
  }))
}

/**
 * The training courses' fixture.
 *
 * @example
 * trainingCourseFixture.ids('a').courses.length // 3
 */
export const trainingCourseFixture = defineFixture<'trainingCourses'>()({
  ids: (tenant) => ({ courses: fixtureIdRange(tenant, COURSE, 3) }),
  seed: courseSeeds,
  writable: true,
  record: TrainingCourseSchema,
})

/**
 * The training enrollments' fixture, naming the courses and users of the same tenant.
 *
 * @example
 * trainingEnrollmentFixture.ids('a').enrollments.length // 6
 */
export const trainingEnrollmentFixture = defineFixture<'trainingEnrollments'>()({
  ids: (tenant) => ({ enrollments: fixtureIdRange(tenant, ENROLLMENT, ENROLLMENT_ROWS.length) }),
  seed: (tenant, ids) => shuffled(enrollmentSeeds(tenant, ids, courseSeeds(tenant, ids), userSeeds(tenant, ids))),
  writable: true,
  record: TrainingEnrollmentSchema,
})
