/** Calendar meeting types: one fixed order, by `orderIndex`, then `name`. */
import * as v from 'valibot'
import { DateTimeSchema, paginationQuery } from './shared.js'
import { column, defineCollection } from './collection.js'
import { seedSchemaOf } from './seed-schema.js'

/**
 * A calendar meeting type. Lists order by `orderIndex`, then `name`.
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'meeting_type.created':
 * const type = v.parse(MeetingTypeSchema, event.data.object)
 * calendar.addCategory(type.name, type.color)
 */
export const MeetingTypeSchema = v.strictObject({
  id: v.string(),
  name: v.string(),
  color: v.nullable(v.string()),
  isInternal: v.boolean(),
  orderIndex: v.number(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
})
export type MeetingType = v.InferOutput<typeof MeetingTypeSchema>

/**
 * The query parameters of the list: parses the query string into typed values with their defaults.
 *
 * @example
 * v.parse(MeetingTypeListQuerySchema, Object.fromEntries(new URL(request.url).searchParams))
 */
export const MeetingTypeListQuerySchema = v.strictObject({ ...paginationQuery })
export type MeetingTypeListQuery = v.InferOutput<typeof MeetingTypeListQuerySchema>

/**
 * The meeting types collection.
 *
 * @example
 * meetingTypes.order.map((term) => term.column) // ['order_index', 'name']
 */
export const meetingTypes = defineCollection<MeetingType>()({
  name: 'meetingTypes',
  table: 'meeting_types',
  event: { resource: 'meeting_type', readScope: 'calendar.read' },
  seed: seedSchemaOf(MeetingTypeSchema),
  columns: [column('order_index', 'real', { field: 'orderIndex' }), column('name', 'text', { field: 'name' })],
  order: [
    { column: 'order_index', descending: false },
    { column: 'name', descending: false },
  ],
  indexes: [['tenant_id', 'order_index', 'name', 'id']],
})
