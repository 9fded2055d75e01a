/** Planner item types: documents. */
import type { PlannerItemType } from '../resources/planner/schema.js'
import { defineCollection } from './collection.js'

/**
 * The planner item types collection (documents only).
 *
 * @example
 * plannerItemTypes.table // 'planner_item_types'
 */
export const plannerItemTypes = defineCollection<PlannerItemType>({
  name: 'plannerItemTypes',
  table: 'planner_item_types',
})
