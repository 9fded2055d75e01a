/**
 * The values the validation cases are built from: strings of a length, an id no tenant holds, the
 * fixture ids, and rule bodies of a size (conditions, actions, nesting).
 */
import { fixtureIds } from './fixtures.js'

/** A string of `n` characters. */
export const chars = (n: number) => 'x'.repeat(n)
/** A UUID no fixture record has. */
export const UNKNOWN_UUID = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f'
/** The fixture ids of tenant A, the tenant the validation cases write to. */
export const A = fixtureIds('a')
/** The fixture ids of tenant B: references to them are another tenant's. */
export const B = fixtureIds('b')

/** Condition groups nested `depth` deep. */
export function nestedGroups(depth: number): unknown[] {
  let groups: unknown[] = []
  for (let level = 0; level < depth; level++) groups = [{ logic: 'AND', conditions: [], groups }]
  return groups
}
/** One OR group of `n` conditions. */
export const conditions = (n: number) => [
  { logic: 'OR', conditions: Array.from({ length: n }, (_, i) => ({ field: `f${i}`, operator: 'eq', value: i })) },
]
/** `n` notify actions. */
export const actions = (n: number) => Array.from({ length: n }, (_, i) => ({ actionType: 'notify', config: { i } }))
/** `object` without its field `key`. */
export const without = (object: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(object).filter(([k]) => k !== key))
