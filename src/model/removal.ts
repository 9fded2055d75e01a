/**
 * Host removals: the ids `store.remove(tenantId, ids)` takes, keyed like seed data, and the one
 * validation every store applies to them (see docs/extensions.md, section 2).
 */
import * as v from 'valibot'
import { SEEDED_COLLECTIONS, type SeededCollection } from './index.js'

/** The collections a host can seed and remove, by their seed key (each one's `name`). */
export type SeedKey = SeededCollection['name']

/**
 * What `store.remove(tenantId, ids)` accepts: for each seed key, the ids of the records to remove.
 * Unknown ids are ignored; removing a budget removes its line items.
 *
 * @example
 * const ids: RemoveIds = { tickets: ['0b0c…'], companies: ['8d1e…'] }
 */
export type RemoveIds = { [K in SeedKey]?: readonly string[] }

/**
 * Every seed key, in the order stores apply them (that of `COLLECTIONS`).
 *
 * @example
 * for (const key of SEED_KEYS) console.log(key)
 */
export const SEED_KEYS: readonly SeedKey[] = SEEDED_COLLECTIONS.map((c) => c.name)

const IdsSchema = v.optional(v.array(v.string()), [])
const RemoveIdsSchema = v.strictObject(
  Object.fromEntries(SEED_KEYS.map((key) => [key, IdsSchema])) as Record<SeedKey, typeof IdsSchema>,
)

/**
 * Validates `ids` (a strict object of string arrays; an unknown key is a mistake, so it throws a
 * `TypeError`) and returns every key with its distinct ids.
 *
 * @example
 * normalizeRemoval({ users: ['u1', 'u1'] }).users // ['u1']
 */
export function normalizeRemoval(ids: RemoveIds): Record<SeedKey, string[]> {
  const result = v.safeParse(RemoveIdsSchema, ids)
  if (!result.success) {
    const issue = result.issues[0]
    const path = v.getDotPath(issue) ?? ''
    throw new TypeError(`Invalid removal${path ? ` ${path}` : ''}: ${issue.message}`)
  }
  const out = {} as Record<SeedKey, string[]>
  for (const key of SEED_KEYS) out[key] = [...new Set(result.output[key])]
  return out
}
