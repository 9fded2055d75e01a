/** Goals: documents, with tasks oldest first and updates newest first (ordered when seeded). */
import type { Goal } from '../resources/goals/schema.js'
import { defineCollection } from './collection.js'

/**
 * The goals collection (documents only).
 *
 * @example
 * goals.table // 'goals'
 */
export const goals = defineCollection<Goal>({ name: 'goals', table: 'goals' })
