/**
 * Host removals (docs/extensions.md, section 2): `store.remove(tenantId, ids)` removes exactly the
 * named records of one tenant, whatever the collection (every seeded collection of `COLLECTIONS`,
 * its record from the fixtures, seen through the store and every read of the registry); unknown ids
 * are ignored; a budget's line items go with it; the same ids in another tenant stay.
 */
import { describe, expect, it } from 'vitest'
import { SEEDED_COLLECTIONS, type SeededCollection } from '../../model/index.js'
import type { RemoveIds } from '../../model/removal.js'
import type { SeedData } from '../../model/seed.js'
import type { Reply } from '../harness.js'
import { apiSightings } from './api-sightings.js'
import type { ConformanceContext } from './context.js'
import { fixtureSeed } from './fixtures.js'
import { budgets } from '../../model/index.js'
import { fixtureIdsAreUnique, sortedFixtureIds } from './fixture-ids.js'

/**
 * Registers the removal tests.
 *
 * @example
 * removals(ctx)
 */
export function removals(ctx: ConformanceContext): void {
  describe('host removals (store.remove)', () => {
    fixtureIdsAreUnique()

    for (const collection of SEEDED_COLLECTIONS) removesOne(ctx, collection)

    it('removes a ticket from lists, counts and lookups by number', async () => {
      const { tenantId, h } = await ctx.fresh(fixtureSeed('a'))
      const before = (await h.call<Reply<'listTickets'>>('GET', '/tickets')).body.pagination.totalCount as number
      await ctx.store.remove(tenantId, { tickets: [ctx.a.ids.tickets[0]!] })
      const after = await h.call<Reply<'listTickets'>>('GET', '/tickets?limit=100')
      expect(after.body.pagination.totalCount).toBe(before - 1)
      expect(after.body.data.map((t: { id: string }) => t.id)).not.toContain(ctx.a.ids.tickets[0])
      expect((await h.call('GET', `/tickets/${ctx.a.ids.ticketNumber}`)).status).toBe(404)
    })

    it('removes a budget’s line items with it: seeded again without items, it has none', async () => {
      const seed = fixtureSeed('a')
      const { tenantId, h } = await ctx.fresh(seed)
      const budget = seed.budgets!.find((b) => b.id === ctx.a.ids.budget)!
      await ctx.store.remove(tenantId, { budgets: [budget.id!] })
      expect(await ctx.store.get(budgets, tenantId, budget.id!)).toBeNull()
      expect((await h.call('PATCH', `/budgets/${budget.id}`, { body: { title: 'x' } })).status).toBe(404)
      const { lineItems: _items, ...bare } = budget
      await ctx.store.seed(tenantId, { budgets: [bare] })
      const stored = await ctx.store.get(budgets, tenantId, budget.id!)
      expect([stored?.lineItemCount, stored?.lineItems]).toEqual([0, []])
    })

    it('ignores unknown ids and empty lists, and refuses a key that is not a seed key', async () => {
      const { tenantId, h } = await ctx.fresh(fixtureSeed('a'))
      await ctx.store.remove(tenantId, { users: ['no-such-user'], companies: [] })
      await ctx.store.remove(`nobody-${crypto.randomUUID()}`, { users: [ctx.a.ids.users[0]!] })
      expect((await h.call<Reply<'listUsers'>>('GET', '/users?limit=100')).body.data).toHaveLength(
        ctx.a.ids.users.length,
      )
      await expect(ctx.store.remove(tenantId, { widgets: ['x'] } as RemoveIds)).rejects.toThrow(TypeError)
    })

    it('seed and remove refuse a misspelt key or a value that is not a list with a TypeError naming it', async () => {
      const { tenantId, h } = await ctx.fresh(fixtureSeed('a'))
      const before = (await h.call<Reply<'listTickets'>>('GET', '/tickets?limit=1')).body.pagination.totalCount
      const ticket = fixtureSeed('a').tickets![0]!
      const mistakes: [unknown, RegExp][] = [
        [{ tikets: [ticket] }, /unknown collection "tikets".*tickets/],
        [{ tickets: {} }, /seed tickets: must be an array of records, not an object/],
        [{ tickets: 'x' }, /seed tickets: must be an array of records, not a string/],
        [
          { budgets: [{ ...fixtureSeed('a').budgets![0]!, lineItems: {} }] },
          /seed budgets\[0\]\.lineItems: must be an array/,
        ],
        [[ticket], /must be an object of lists/],
      ]
      for (const [data, message] of mistakes) {
        const label = `seed(t, ${JSON.stringify(data).slice(0, 60)})`
        await expect(ctx.store.seed(tenantId, data as SeedData), label).rejects.toThrow(TypeError)
        await expect(ctx.store.seed(tenantId, data as SeedData), label).rejects.toThrow(message)
      }
      await expect(ctx.store.remove(tenantId, { tikets: ['x'] } as RemoveIds)).rejects.toThrow(/tikets/)
      await expect(ctx.store.remove(tenantId, { tickets: {} } as unknown as RemoveIds)).rejects.toThrow(/tickets/)
      // A refused batch writes nothing, not even its valid keys.
      await expect(ctx.store.seed(tenantId, { companies: [], tikets: [] } as SeedData)).rejects.toThrow(TypeError)
      expect((await h.call<Reply<'listTickets'>>('GET', '/tickets?limit=1')).body.pagination.totalCount).toBe(before)
    })
  })
}

/**
 * Registers the test that `remove` takes one record of `collection` (its first fixture record) from the
 * store and from every read of the API, and leaves the collection's next record and the other tenant's copy.
 */
function removesOne(ctx: ConformanceContext, collection: SeededCollection): void {
  const key = collection.name
  it(`removes ${key} by id and leaves the others and the other tenant’s`, async () => {
    const x = await ctx.fresh(fixtureSeed('a'))
    const y = await ctx.fresh(fixtureSeed('a'))
    const [target, kept] = sortedFixtureIds('a', key)
    expect(target, `the fixture of ${key} has a record`).toBeDefined()
    const stored = async (tenantId: string, id: string) => (await ctx.store.get(collection, tenantId, id)) !== null
    expect(await stored(x.tenantId, target!), `get(${key}) of ${target} before its removal`).toBe(true)
    const reads = await apiSightings(x.h, target!)
    await ctx.store.remove(x.tenantId, { [key]: [target!, 'no-such-id'] } as RemoveIds)
    expect(await stored(x.tenantId, target!), `get(${key}) of ${target} after its removal`).toBe(false)
    expect(await apiSightings(x.h, target!), `the reads showing ${target} after its removal`).toEqual([])
    expect(await stored(y.tenantId, target!), `get(${key}) of ${target} in another tenant`).toBe(true)
    expect(await apiSightings(y.h, target!), `the reads showing ${target} in another tenant`).toEqual(reads)
    if (kept !== undefined) expect(await stored(x.tenantId, kept), `get(${key}) of ${kept}, not removed`).toBe(true)
  })
}
