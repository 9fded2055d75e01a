import { defineOperation } from '../http/operation.js'
import { trainingCourses, trainingEnrollments } from '../model/training.js'
import { MessageSchema } from '../model/shared.js'
import { notFound, UuidIdParams } from './results.js'
import { TrainingCourseSchema, TrainingEnrollmentSchema } from '../model/training.js'
import { readList, readOne } from './reads.js'
import { writeContextOf } from './write-context.js'

export const listTrainingEnrollments = readList(trainingEnrollments, {
  id: 'listTrainingEnrollments',
  path: '/training/enrollments',
  area: 'Training',
  summary: 'List training enrollments',
  description: 'Newest `enrolledAt` first.',
  scope: 'training.read',
  item: TrainingEnrollmentSchema,
})

export const deleteTrainingEnrollment = defineOperation({
  id: 'deleteTrainingEnrollment',
  method: 'DELETE',
  path: '/training/enrollments/:id',
  area: 'Training',
  summary: 'Delete a training enrollment',
  scope: 'training.write',
  params: UuidIdParams,
  response: MessageSchema,
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async (context) => {
    const { store, tenantId, params } = context
    if (!(await store.delete(trainingEnrollments, tenantId, params.id, writeContextOf(context))))
      throw notFound('Enrollment')
    return { status: 200, body: { message: 'Enrollment deleted' } }
  },
})

export const getTrainingCourse = readOne(trainingCourses, {
  id: 'getTrainingCourse',
  path: '/training/courses/:id',
  area: 'Training',
  summary: 'Get a training course',
  scope: 'training.read',
  params: UuidIdParams,
  item: TrainingCourseSchema,
  what: 'Training course',
})
