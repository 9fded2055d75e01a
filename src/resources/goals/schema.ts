import * as v from 'valibot'
import { DateTimeSchema, NamedRefSchema, NullableDateTimeSchema } from '../shared/schemas.js'

/**
 * The shape of this record.
 *
 * @example
 * v.is(GoalTaskSchema, value) // true for a record in this shape
 */
export const GoalTaskSchema = v.strictObject({
  id: v.string(),
  title: v.string(),
  description: v.nullable(v.string()),
  isCompleted: v.boolean(),
  dueDate: NullableDateTimeSchema,
  createdAt: DateTimeSchema,
})
/**
 * The shape of this record.
 *
 * @example
 * v.is(GoalUpdateSchema, value) // true for a record in this shape
 */
export const GoalUpdateSchema = v.strictObject({
  id: v.string(),
  updateText: v.string(),
  progressPercentage: v.nullable(v.number()),
  createdAt: DateTimeSchema,
})

/**
 * A goal with its tasks (oldest first) and updates (newest first).
 *
 * @example
 * v.is(GoalSchema, value) // true for a record in this shape
 */
export const GoalSchema = v.strictObject({
  id: v.string(),
  title: v.string(),
  description: v.nullable(v.string()),
  dueDate: NullableDateTimeSchema,
  progressPercentage: v.number(),
  quarter: v.nullable(v.string()),
  year: v.nullable(v.number()),
  company: v.nullable(NamedRefSchema),
  status: v.nullable(NamedRefSchema),
  priority: v.nullable(NamedRefSchema),
  category: v.nullable(NamedRefSchema),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  tasks: v.array(GoalTaskSchema),
  updates: v.array(GoalUpdateSchema),
})
export type Goal = v.InferOutput<typeof GoalSchema>
