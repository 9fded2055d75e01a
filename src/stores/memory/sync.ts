/**
 * The memory store's changes and their events (docs/extensions.md, section 3): each record's state
 * before and after a seed, a removal or a write, and the events of what changed, appended to the
 * tenant's feed in the same synchronous step as the change.
 */
import type { EventDraft, WriteContext } from '../../model/events.js'
import { SEEDED_COLLECTIONS } from '../../model/index.js'
import { normalizeRemoval, type RemoveIds, type SeedKey, SEED_KEYS } from '../../model/removal.js'
import { normalizeSeedRecords, type SeedData } from '../../model/seed.js'
import { authorOf } from '../event-feed.js'
import { EVENT_RESOURCE_OF, eventView, type StoredState, syncChange, type ViewLookups } from '../event-views.js'
import { type TenantData, tenantDefinition } from './tenant.js'

/** The definitions by seed key. */
const DEFINITION_OF = new Map(
  SEEDED_COLLECTIONS.map((definition) => [definition.name as SeedKey, tenantDefinition(definition)]),
)

/** The states of some records of each seed key, before a change. */
export type States = Map<SeedKey, Map<string, StoredState | null>>

/** What an event's view reads of the tenant's other records. */
function lookups(t: TenantData): ViewLookups {
  return { count: (need, id) => t.count(need, id), names: (need, ids) => t.names(need, ids) }
}

/** The record `id` of `key` as change detection sees it, or null when absent. */
function stateOf(t: TenantData, key: SeedKey, id: string, look: ViewLookups): StoredState | null {
  const definition = DEFINITION_OF.get(key)!
  const entry = t.collection(definition).byId.get(id)
  if (entry === undefined) return null
  // The parts and children kept beside the record are part of its state.
  const full = t.seeded(definition, entry)
  return { fingerprint: JSON.stringify(full), view: eventView(key, full, look) }
}

/**
 * The states of the `ids` of each key (of those with events), for change detection around a change.
 *
 * @example
 * const before = statesOf(t, { budgets: [id] })
 */
export function statesOf(t: TenantData, ids: Partial<Record<SeedKey, readonly string[]>>): States {
  const look = lookups(t)
  const out: States = new Map()
  for (const key of SEED_KEYS) {
    const some = ids[key]
    if (EVENT_RESOURCE_OF[key] === null || some === undefined || some.length === 0) continue
    out.set(key, new Map(some.map((id) => [id, stateOf(t, key, id, look)])))
  }
  return out
}

/**
 * Appends the events of every change since `before` to the tenant's feed.
 *
 * @example
 * recordChanges(t, before, write, retentionMs)
 */
export function recordChanges(t: TenantData, before: States, write: WriteContext | undefined, retentionMs: number) {
  const look = lookups(t)
  const drafts: EventDraft[] = []
  for (const [key, states] of before)
    for (const [id, state] of states) {
      const draft = syncChange(EVENT_RESOURCE_OF[key]!, id, state, stateOf(t, key, id, look))
      if (draft !== null) drafts.push(draft)
    }
  record(t, drafts, write, retentionMs)
}

/**
 * Appends `drafts` to the tenant's feed (after the change, between the same awaits: one atomic step).
 *
 * @example
 * record(t, [draft], write, retentionMs)
 */
export function record(t: TenantData, drafts: readonly EventDraft[], write: WriteContext | undefined, ms: number) {
  if (drafts.length > 0) t.feed.append(drafts, authorOf(write), new Date(), ms)
}

/**
 * Loads `data` into the tenant, with an event per record it creates or changes when `events`.
 *
 * @example
 * seedTenant(t, { companies: [...] }, true, retentionMs)
 */
export function seedTenant(t: TenantData, data: SeedData, events: boolean, retentionMs: number): void {
  const records = normalizeSeedRecords(data)
  const before = events ? statesOf(t, Object.fromEntries(SEED_KEYS.map((k) => [k, records[k].map((r) => r.id)]))) : null
  for (const [key, definition] of DEFINITION_OF) for (const seeded of records[key]) t.store(definition, seeded)
  if (before !== null) recordChanges(t, before, undefined, retentionMs)
}

/**
 * Removes the records `ids` names (a record's children with it), with their events.
 *
 * @example
 * removeFromTenant(t, { users: [id] }, retentionMs)
 */
export function removeFromTenant(t: TenantData, ids: RemoveIds, retentionMs: number): void {
  const removal = normalizeRemoval(ids)
  const before = statesOf(t, removal)
  for (const [key, definition] of DEFINITION_OF) for (const id of removal[key]) t.remove(definition, id)
  recordChanges(t, before, undefined, retentionMs)
}
