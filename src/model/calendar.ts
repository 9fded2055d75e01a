/** Calendar meeting types: one fixed order, by `orderIndex`, then `name`. */
import type { MeetingType } from '../resources/calendar/schema.js'
import { column, defineCollection } from './collection.js'

/**
 * The meeting types collection.
 *
 * @example
 * meetingTypes.order.map((term) => term.column) // ['order_index', 'name']
 */
export const meetingTypes = defineCollection<MeetingType>({
  name: 'meetingTypes',
  table: 'meeting_types',
  columns: [column('order_index', 'real', { field: 'orderIndex' }), column('name', 'text', { field: 'name' })],
  order: [
    { column: 'order_index', descending: false },
    { column: 'name', descending: false },
  ],
  indexes: [['tenant_id', 'order_index', 'name', 'id']],
})
