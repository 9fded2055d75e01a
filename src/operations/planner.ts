import { PlannerItemTypeSchema, plannerItemTypes } from '../model/planner.js'
import { readOne } from './reads.js'
import { UuidIdParams } from './results.js'

export const getPlannerItemType = readOne(plannerItemTypes, {
  id: 'getPlannerItemType',
  path: '/planner/types/:id',
  area: 'Planner',
  summary: 'Get a planner item type',
  scope: 'planner.read',
  params: UuidIdParams,
  item: PlannerItemTypeSchema,
  what: 'Planner item type',
})
