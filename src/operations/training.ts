import { defineOperation } from '../http/operation.js'
import { trainingCourses, trainingEnrollments } from '../model/training.js'
import { listPage } from './list-pages.js'
import { dataEnvelope, listEnvelope, MessageSchema } from '../model/shared.js'
import { found, notFound, ok, UuidIdParams } from './results.js'
import { TrainingCourseSchema, TrainingEnrollmentListQuerySchema, TrainingEnrollmentSchema } from '../model/training.js'
import { writeContextOf } from './write-context.js'

export const listTrainingEnrollments = defineOperation({
  id: 'listTrainingEnrollments',
  method: 'GET',
  path: '/training/enrollments',
  area: 'Training',
  summary: 'List training enrollments',
  description: 'Newest `enrolledAt` first.',
  scope: 'training.read',
  query: TrainingEnrollmentListQuerySchema,
  response: listEnvelope(TrainingEnrollmentSchema),
  successStatus: 200,
  errors: [],
  handle: (context) => listPage(context, trainingEnrollments),
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

export const getTrainingCourse = defineOperation({
  id: 'getTrainingCourse',
  method: 'GET',
  path: '/training/courses/:id',
  area: 'Training',
  summary: 'Get a training course',
  scope: 'training.read',
  params: UuidIdParams,
  response: dataEnvelope(TrainingCourseSchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async ({ store, tenantId, params }) =>
    ok(await found(store.get(trainingCourses, tenantId, params.id), 'Training course')),
})
