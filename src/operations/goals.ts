import { GoalSchema, goals } from '../model/goals.js'
import { readOne } from './reads.js'
import { UuidIdParams } from './results.js'

export const getGoal = readOne(goals, {
  id: 'getGoal',
  path: '/goals/:id',
  area: 'Goals',
  summary: 'Get a goal with its tasks and updates',
  description: 'Tasks oldest first, updates newest first.',
  scope: 'goals.read',
  params: UuidIdParams,
  item: GoalSchema,
  what: 'Goal',
})
