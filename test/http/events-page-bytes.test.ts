/**
 * `createPublicApi({ maxEventsPageBytes })` (docs/api-behaviour.md): checked at creation, and the
 * budget the events feed's pages keep (the conformance suite checks the default on every store).
 */
import { describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi } from 'tenant-public-api'
import { createHarness, testKey, testKeyResolver, type Reply } from 'tenant-public-api/testing'
import { assertMatchesContract } from '../support/contract.js'
import { seedData, TENANT } from './fixture.js'

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length

describe('maxEventsPageBytes', () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, '100' as unknown as number])(
    'refuses %j',
    (maxEventsPageBytes) => {
      const options = { store: createMemoryStore(), keyResolver: testKeyResolver(), maxEventsPageBytes }
      expect(() => createPublicApi(options)).toThrow(/maxEventsPageBytes must be a positive integer/)
    },
  )

  it('pages stay within the budget set, one event at least, and a walk by cursor still sees every event', async () => {
    const store = createMemoryStore()
    await store.seed(TENANT, seedData())
    const harness = (maxEventsPageBytes?: number) =>
      createHarness(createPublicApi({ store, keyResolver: testKeyResolver(), maxEventsPageBytes }), {
        key: testKey(TENANT),
        onResponse: assertMatchesContract,
      })
    const all = (await harness().call<Reply<'listEvents'>>('GET', '/events?limit=100')).body.data
    expect(all.length).toBeGreaterThan(10)
    const sizes = all.map(bytesOf)
    const budget = Math.max(...sizes) * 2
    const h = harness(budget)
    const seen: string[] = []
    let pages = 0
    let after = ''
    for (;;) {
      const { body } = await h.call<Reply<'listEvents'>>('GET', `/events?limit=100${after}`)
      if (body.data.length === 0) break
      pages += 1
      if (body.data.length > 1) expect(body.data.map(bytesOf).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(budget)
      expect(body.pagination.hasNextPage).toBe(seen.length + body.data.length < all.length)
      seen.push(...body.data.map((e) => e.id))
      after = `&after=${body.pagination.nextCursor}`
    }
    expect(seen).toEqual(all.map((e) => e.id))
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(sizes.reduce((a, b) => a + b, 0) / budget))
    // A budget below every event: one event per page.
    const one = await harness(1).call<Reply<'listEvents'>>('GET', '/events?limit=100')
    expect(one.body.data.map((e) => e.id)).toEqual([all[0]!.id])
    expect(one.body.pagination).toEqual({ limit: 100, hasNextPage: true, nextCursor: all[0]!.id })
  })
})
