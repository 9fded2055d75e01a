import { defineOperation } from '../http/operation.js'
import { dataEnvelope } from '../model/shared.js'
import { found, ok, UuidIdParams } from './results.js'
import { GoalSchema, goals } from '../model/goals.js'

export const getGoal = defineOperation({
  id: 'getGoal',
  method: 'GET',
  path: '/goals/:id',
  area: 'Goals',
  summary: 'Get a goal with its tasks and updates',
  description: 'Tasks oldest first, updates newest first.',
  scope: 'goals.read',
  params: UuidIdParams,
  response: dataEnvelope(GoalSchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async ({ store, tenantId, params }) => ok(await found(store.get(goals, tenantId, params.id), 'Goal')),
})
