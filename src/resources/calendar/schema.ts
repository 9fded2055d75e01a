import * as v from 'valibot'
import { DateTimeSchema, paginationQuery } from '../shared/schemas.js'

/** A calendar meeting type. Lists order by `orderIndex`, then `name`. */
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

export const MeetingTypeListQuerySchema = v.strictObject({ ...paginationQuery })
export type MeetingTypeListQuery = v.InferOutput<typeof MeetingTypeListQuerySchema>
