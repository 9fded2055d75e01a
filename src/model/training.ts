/** Training: enrollments (listed, newest first) and courses (read one at a time, with their enrollment count). */
import type { TrainingCourse, TrainingEnrollment, TrainingEnrollmentListQuery } from '../resources/training/schema.js'
import { column, defineCollection, type FilterSpec } from './collection.js'

/** A training course as stored: `enrollmentCount` is counted when read. */
export type TrainingCourseRecord = Omit<TrainingCourse, 'enrollmentCount'>

/**
 * The training enrollments collection: one fixed order, newest `enrolledAt` first.
 *
 * @example
 * trainingEnrollments.order // [{ column: 'enrolled_at', descending: true }]
 */
export const trainingEnrollments = defineCollection<TrainingEnrollment>({
  name: 'trainingEnrollments',
  table: 'training_enrollments',
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
  } satisfies Partial<Record<keyof TrainingEnrollmentListQuery, FilterSpec>>,
  order: [{ column: 'enrolled_at', descending: true }],
  indexes: [
    ['tenant_id', 'enrolled_at DESC', 'id'],
    ['tenant_id', 'course_id'],
    ['tenant_id', 'user_id'],
    ['tenant_id', 'company_id'],
  ],
})

/**
 * The training courses collection (documents only; enrollments are counted by `course_id`).
 *
 * @example
 * trainingCourses.table // 'training_courses'
 */
export const trainingCourses = defineCollection<TrainingCourseRecord>({
  name: 'trainingCourses',
  table: 'training_courses',
})
