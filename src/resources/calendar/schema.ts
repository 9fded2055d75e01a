import * as v from 'valibot'
import { DateTimeSchema, paginationQuery } from '../shared/schemas.js'

/**
 * A calendar meeting type. Lists order by `orderIndex`, then `name`.
 *
 * @example
 * v.is(MeetingTypeSchema, value)
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
