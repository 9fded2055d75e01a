import { defineOperation } from '../http/operation.js'
import { dataEnvelope } from '../model/shared.js'
import { found, ok, UuidIdParams } from './results.js'
import { PlannerItemTypeSchema, plannerItemTypes } from '../model/planner.js'

export const getPlannerItemType = defineOperation({
  id: 'getPlannerItemType',
  method: 'GET',
  path: '/planner/types/:id',
  area: 'Planner',
  summary: 'Get a planner item type',
  scope: 'planner.read',
  params: UuidIdParams,
  response: dataEnvelope(PlannerItemTypeSchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async ({ store, tenantId, params }) =>
    ok(await found(store.get(plannerItemTypes, tenantId, params.id), 'Planner item type')),
})
