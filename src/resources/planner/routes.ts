import { defineOperation } from '../../http/operation.js'
import { dataEnvelope } from '../shared/schemas.js'
import { found, ok, UuidIdParams } from '../shared/results.js'
import { PlannerItemTypeSchema } from './schema.js'

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
    ok(await found(store.getPlannerItemType(tenantId, params.id), 'Planner item type')),
})
