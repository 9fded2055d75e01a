/** Goals: documents, with tasks oldest first and updates newest first (ordered when seeded). */
import * as v from 'valibot'
import { DateTimeSchema, NamedRefSchema, NullableDateTimeSchema } from './shared.js'
import { defineCollection } from './collection.js'
import { seedSchemaOf } from './seed-schema.js'

/**
 * A goal task, as the API reads and writes it.
 *
 * @example
 * v.parse(GoalTaskSchema, { id: 't1', title: 'Pick a vendor', description: null, isCompleted: false,
 *   dueDate: '2026-03-31T00:00:00Z', createdAt: '2026-01-15T09:30:00Z' })
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
 * v.parse(GoalUpdateSchema, { id: 'u1', updateText: 'Vendor chosen', progressPercentage: 40,
 *   createdAt: '2026-02-01T09:30:00Z' })
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
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'goal.updated':
 * const goal = v.parse(GoalSchema, event.data.object)
 * const open = goal.tasks.filter((task) => !task.isCompleted)
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
