/** Goals: documents, with tasks oldest first and updates newest first (ordered when seeded). */
import * as v from 'valibot'
import { DateTimeSchema, NamedRefSchema, NullableDateTimeSchema } from './shared.js'
import { defineCollection } from './collection.js'
import { seedSchemaOf } from './seed-schema.js'

/**
 * A goal task, as the API reads and writes it.
 *
 * @example
 * v.is(GoalTaskSchema, value)
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
 * A goal update, as the API reads and writes it.
 *
 * @example
 * v.is(GoalUpdateSchema, value)
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
 * v.is(GoalSchema, value)
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

/**
 * The goals collection (documents only).
 *
 * @example
 * goals.table // 'goals'
 */
export const goals = defineCollection<Goal>()({
  name: 'goals',
  table: 'goals',
  event: { resource: 'goal', readScope: 'goals.read' },
  seed: seedSchemaOf(GoalSchema),
  nested: ['tasks', 'updates'],
})
