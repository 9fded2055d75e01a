/**
 * Store level, one batch that names an id twice: a host's sync may send a record again in the same
 * batch (a changed copy after the first). `seed` keeps the last copy of each id, of a record and of
 * each record a seed keys by id inside it (a ticket's notes, a budget's line items, a goal's tasks
 * and updates), and records one event per id; `remove` of an id twice removes it once.
 */
import { describe, expect, it } from 'vitest'
import type { Event } from '../../model/events.js'
import { EVENT_RESOURCE_OF } from '../../stores/event-views.js'
import { type RemoveIds, SEED_KEYS, type SeedKey } from '../../model/removal.js'
import { SEED_PARTS, type SeedData } from '../../model/seed.js'
import { type ConformanceContext, newTenantId } from './context.js'
import { at, fixtureSeed } from './fixtures.js'
import { budgets, reportTypes } from '../../model/index.js'

type Row = Record<string, unknown> & { id: string }

/** The nested lists of `key` that a seed keys by id. */
const partsOf = (key: SeedKey): readonly string[] => SEED_PARTS[key] ?? []

/** Two versions of one record of every collection: the fixture's and a changed one under the same id. */
function versions(): Record<SeedKey, { original: Row; changed: Row }> {
  const seed = fixtureSeed('a') as Record<SeedKey, Row[]>
  const out = {} as Record<SeedKey, { original: Row; changed: Row }>
  for (const key of SEED_KEYS) {
    const records = seed[key]
    const size = (record: Row) => partsOf(key).reduce((n, part) => n + ((record[part] as unknown[]) ?? []).length, 0)
    // The record with the most nested items, so that its nested lists can carry an id twice too.
    const original = records.reduce((best, record) => (size(record) > size(best) ? record : best))
    const other = records.find((record) => record.id !== original.id)
    const changed: Row = other ? { ...other, id: original.id } : { ...original, updatedAt: at(60) }
    for (const part of partsOf(key)) {
      const items = (original[part] as Row[] | undefined) ?? []
      expect(items.length, `the fixture's ${key} has ${part} to seed twice`).toBeGreaterThan(0)
      changed[part] = [{ ...items[0]!, createdAt: at(61) }, ...items.slice(1)]
    }
    out[key] = { original, changed }
  }
  return out
}

/** `record` with the first item of each nested list given twice: first `loser`'s copy, then its own. */
function withNestedTwice(key: SeedKey, record: Row, loser: Row): Row {
  const out = { ...record }
  for (const part of partsOf(key)) out[part] = [(loser[part] as Row[])[0]!, ...(record[part] as Row[])]
  return out
}

/** A seed of `pick(key, versions)` for every collection. */
function seedOf(
  all: ReturnType<typeof versions>,
  pick: (key: SeedKey, v: { original: Row; changed: Row }) => Row[],
): SeedData {
  return Object.fromEntries(SEED_KEYS.map((key) => [key, pick(key, all[key])])) as SeedData
}

/** Every collection's record twice, `first` then `last`, the first nested item of each twice in both copies. */
const twice =
  (first: 'original' | 'changed', last: 'original' | 'changed') =>
  (key: SeedKey, v: { original: Row; changed: Row }) => [
    withNestedTwice(key, v[first], v[last]),
    withNestedTwice(key, v[last], v[first]),
  ]

/**
 * Registers the tests of batches that name an id twice.
 *
 * @example
 * storeSeedBatches(ctx)
 */
export function storeSeedBatches(ctx: ConformanceContext): void {
  /** The tenant's events after position `after`, and its last position. */
  const eventsAfter = async (tenantId: string, after: number) => {
    const page = await ctx.store.listEvents(tenantId, { after, order: 'asc', types: null, limit: 100 })
    if (page.state !== 'ok') throw new Error(`listEvents(${tenantId}, after ${after}) answered ${page.state}`)
    expect(page.hasNextPage, 'listEvents: one page holds a batch’s events').toBe(false)
    return { events: page.events, last: Math.max(after, page.lastPosition) }
  }
  /** For each collection with events, `<resource>.<action>` of its record's id, once. */
  const expected = (all: ReturnType<typeof versions>, action: string) =>
    SEED_KEYS.flatMap((key) => {
      const type = EVENT_RESOURCE_OF[key]
      return type === null ? [] : [`${type}.${action} ${all[key].original.id}`]
    }).sort()
  const described = (events: readonly Event[]) => events.map((event) => `${event.type} ${event.resource.id}`).sort()

  describe('store: an id twice in one batch', () => {
    it('seed of [changed, original] keeps the original and its nested items, with one created event each', async () => {
      const all = versions()
      const tenantId = newTenantId('seed-twice')
      const label = 'seed(t, every collection: [changed, original] of one id, nested items twice)'
      await ctx.store.seed(tenantId, seedOf(all, twice('changed', 'original')))
      let { events, last } = await eventsAfter(tenantId, 0)
      expect(described(events), `${label}: one created event per record`).toEqual(expected(all, 'created'))
      // The originals alone change nothing: what was stored is the original, nested items included.
      await ctx.store.seed(
        tenantId,
        seedOf(all, (_key, v) => [v.original]),
      )
      ;({ events, last } = await eventsAfter(tenantId, last))
      expect(described(events), `${label}, then seed(t, the originals): nothing changed`).toEqual([])
      const type = await ctx.store.get(reportTypes, tenantId, all.reportTypes.original.id)
      expect(type?.name, `getReportType after ${label}`).toBe(all.reportTypes.original.name)
    })

    it('seed of [original, changed] over the original stores the changed copy, one updated event each', async () => {
      const all = versions()
      const tenantId = newTenantId('seed-twice')
      await ctx.store.seed(
        tenantId,
        seedOf(all, (_key, v) => [v.original]),
      )
      let { events, last } = await eventsAfter(tenantId, 0)
      expect(described(events), 'seed(t, the originals) into a new tenant').toEqual(expected(all, 'created'))
      const label = 'seed(t, every collection: [original, changed] of one id, nested items twice)'
      await ctx.store.seed(tenantId, seedOf(all, twice('original', 'changed')))
      ;({ events, last } = await eventsAfter(tenantId, last))
      expect(described(events), `${label}: one updated event per record`).toEqual(expected(all, 'updated'))
      await ctx.store.seed(
        tenantId,
        seedOf(all, (_key, v) => [v.changed]),
      )
      ;({ events, last } = await eventsAfter(tenantId, last))
      expect(described(events), `${label}, then seed(t, the changed copies): nothing changed`).toEqual([])
      const type = await ctx.store.get(reportTypes, tenantId, all.reportTypes.original.id)
      expect(type?.name, `getReportType after ${label}`).toBe(all.reportTypes.changed.name)
    })

    it('remove of an id twice removes it once, with one deleted event; again, it is harmless', async () => {
      const all = versions()
      const tenantId = newTenantId('remove-twice')
      await ctx.store.seed(
        tenantId,
        seedOf(all, (_key, v) => [v.original]),
      )
      let { events, last } = await eventsAfter(tenantId, 0)
      expect(described(events), 'seed(t, the originals) into a new tenant').toEqual(expected(all, 'created'))
      const ids = Object.fromEntries(SEED_KEYS.map((key) => [key, [all[key].original.id, all[key].original.id]]))
      const label = `remove(t, every collection with one id twice)`
      await ctx.store.remove(tenantId, ids as RemoveIds)
      ;({ events, last } = await eventsAfter(tenantId, last))
      expect(described(events), `${label}: one deleted event per record`).toEqual(expected(all, 'deleted'))
      expect(
        await ctx.store.get(reportTypes, tenantId, all.reportTypes.original.id),
        `getReportType after ${label}`,
      ).toBe(null)
      expect(await ctx.store.get(budgets, tenantId, all.budgets.original.id), `get(budgets) after ${label}`).toBe(null)
      await ctx.store.remove(tenantId, ids as RemoveIds)
      ;({ events, last } = await eventsAfter(tenantId, last))
      expect(described(events), `${label} again: nothing left to delete`).toEqual([])
    })
  })
}
