/** Training: enrollments (listed, newest first) and courses (read one at a time, with their enrollment count). */
import * as v from 'valibot'
import {
  DateTimeSchema,
  enumParam,
  JsonObjectSchema,
  NamedRefSchema,
  NullableDateTimeSchema,
  paginationQuery,
  uuidParam,
} from './shared.js'
import { column, defineCollection, defineView, type ListFilter } from './collection.js'
import { omit, seedSchemaOf } from './seed-schema.js'

/** The allowed enrollment statuses. */
export const ENROLLMENT_STATUSES = ['not_started', 'in_progress', 'completed'] as const

/**
 * A user's enrollment in a course.
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'training_enrollment.updated':
 * const enrollment = v.parse(TrainingEnrollmentSchema, event.data.object)
 * if (enrollment.status === 'completed') certify(enrollment.user.id, enrollment.course.id)
 */
export const TrainingEnrollmentSchema = v.strictObject({
  id: v.string(),
  course: v.strictObject({ id: v.string(), title: v.string(), courseType: v.nullable(v.string()) }),
  user: v.strictObject({ id: v.string(), fullName: v.nullable(v.string()), email: v.nullable(v.string()) }),
  status: v.picklist(ENROLLMENT_STATUSES),
  progress: v.number(),
  score: v.nullable(v.number()),
  enrolledAt: DateTimeSchema,
  startedAt: NullableDateTimeSchema,
  completedAt: NullableDateTimeSchema,
  dueDate: NullableDateTimeSchema,
  timeSpentSeconds: v.number(),
  certificateId: v.nullable(v.string()),
  companyId: v.nullable(v.string()),
})
export type TrainingEnrollment = v.InferOutput<typeof TrainingEnrollmentSchema>

/**
 * A training course. `enrollmentCount` counts its enrollments.
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'training_course.created':
 * const course = v.parse(TrainingCourseSchema, event.data.object)
 * if (course.isMandatory) remindEveryone(course.title)
 */
export const TrainingCourseSchema = v.strictObject({
  id: v.string(),
  title: v.string(),
  description: v.nullable(v.string()),
  courseType: v.nullable(v.string()),
  courseCategory: v.nullable(v.string()),
  isMandatory: v.boolean(),
  passingScore: v.nullable(v.number()),
  duration: v.nullable(v.number()),
  maxAttempts: v.nullable(v.number()),
  expiresAfterDays: v.nullable(v.number()),
  artworkUrl: v.nullable(v.string()),
  youtubeUrl: v.nullable(v.string()),
  isGlobal: v.boolean(),
  company: v.nullable(NamedRefSchema),
  enrollmentCount: v.number(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  scormUrl: v.nullable(v.string()),
  metadata: v.nullable(JsonObjectSchema),
})
export type TrainingCourse = v.InferOutput<typeof TrainingCourseSchema>

/**
 * The query parameters of the list: parses the query string into typed values with their defaults.
 *
 * @example
 * v.parse(TrainingEnrollmentListQuerySchema, Object.fromEntries(new URL(request.url).searchParams))
 */
export const TrainingEnrollmentListQuerySchema = v.strictObject({
  ...paginationQuery,
  courseId: v.optional(uuidParam('Only enrollments in this course.')),
  userId: v.optional(uuidParam('Only enrollments of this user.')),
  companyId: v.optional(uuidParam('Only enrollments of this company.')),
  status: v.optional(enumParam(ENROLLMENT_STATUSES, 'Enrollment status.')),
})
export type TrainingEnrollmentListQuery = v.InferOutput<typeof TrainingEnrollmentListQuerySchema>

/** A training course as stored: `enrollmentCount` is counted when read. */
export type TrainingCourseRecord = Omit<TrainingCourse, 'enrollmentCount'>

/**
 * The training enrollments collection: one fixed order, newest `enrolledAt` first.
 *
 * @example
 * trainingEnrollments.order // [{ column: 'enrolled_at', descending: true }]
 */
export const trainingEnrollments = defineCollection<TrainingEnrollment>()({
  name: 'trainingEnrollments',
  table: 'training_enrollments',
  event: { resource: 'training_enrollment', readScope: 'training.read' },
  seed: seedSchemaOf(TrainingEnrollmentSchema),
  columns: [
    column('enrolled_at', 'text', { field: 'enrolledAt' }),
    column('course_id', 'text', { read: (enrollment) => enrollment.course.id }),
    column('user_id', 'text', { read: (enrollment) => enrollment.user.id }),
    column('company_id', 'text', { field: 'companyId', nullable: true }),
    column('status', 'text', { field: 'status' }),
  ],
  filters: {
    courseId: { column: 'course_id', op: 'equals' },
    userId: { column: 'user_id', op: 'equals' },
    companyId: { column: 'company_id', op: 'equals' },
    status: { column: 'status', op: 'equals', scan: true },
  } satisfies Partial<Record<keyof TrainingEnrollmentListQuery, ListFilter>>,
  order: [{ column: 'enrolled_at', descending: true }],
  indexes: [
    ['tenant_id', 'enrolled_at DESC', 'id'],
    ['tenant_id', 'course_id'],
    ['tenant_id', 'user_id'],
    ['tenant_id', 'company_id'],
  ],
})

/**
 * A course as read: with the number of its enrollments now.
 *
 * @example
 * trainingCourses.view.show(record, { enrollmentCount: 3 })
 */
const courseView = defineView({
  fields: ['enrollmentCount'],
  needs: { enrollmentCount: { count: trainingEnrollments, by: 'course_id' } },
  show: (record: TrainingCourseRecord, { enrollmentCount }: { enrollmentCount: number }): TrainingCourse => ({
    ...record,
    enrollmentCount,
  }),
})

/**
 * The training courses collection (documents only; enrollments are counted by `course_id`).
 *
 * @example
 * trainingCourses.table // 'training_courses'
 */
export const trainingCourses = defineCollection<TrainingCourseRecord>()({
  name: 'trainingCourses',
  table: 'training_courses',
  event: { resource: 'training_course', readScope: 'training.read' },
  seed: seedSchemaOf(v.object(omit(TrainingCourseSchema.entries, ...courseView.fields))),
  view: courseView,
})
