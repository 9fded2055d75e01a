/** Planner item types: documents. */
import * as v from 'valibot'
import { DateTimeSchema } from './shared.js'
import { defineCollection } from './collection.js'
import { seedSchemaOf } from './seed-schema.js'

/**
 * A planner item type; budget line item categories name one.
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'planner_item_type.created':
 * const type = v.parse(PlannerItemTypeSchema, event.data.object)
 * if (type.budgetCategory !== null) categories.add(type.name)
 */
export const PlannerItemTypeSchema = v.strictObject({
  id: v.string(),
  name: v.string(),
  description: v.nullable(v.string()),
  isSystem: v.boolean(),
  budgetCategory: v.nullable(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
})
export type PlannerItemType = v.InferOutput<typeof PlannerItemTypeSchema>

/**
 * The planner item types collection (documents only).
 *
 * @example
 * plannerItemTypes.table // 'planner_item_types'
 */
export const plannerItemTypes = defineCollection<PlannerItemType>()({
  name: 'plannerItemTypes',
  table: 'planner_item_types',
  event: { resource: 'planner_item_type', readScope: 'planner.read' },
  seed: seedSchemaOf(PlannerItemTypeSchema),
})
