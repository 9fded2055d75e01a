import { describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, normalizeSeed, operations } from 'tenant-public-api'
import { createDemoData, createHarness, DEMO_API_KEY, DEMO_TENANT_ID, demoKeyResolver } from 'tenant-public-api/testing'
import { assertMatchesContract } from '../support/contract.js'

describe('createDemoData', () => {
  it('is deterministic: the same seed gives byte-identical data, another seed other data', () => {
    const json = (seed?: number) =>
      JSON.stringify({
        ...createDemoData({ seed, tickets: 300 }),
        tickets: createDemoData({ seed, tickets: 300 }).tickets.slice(),
      })
    expect(json()).toBe(json())
    expect(json(7)).toBe(json(7))
    expect(json(7)).not.toBe(json(8))
  })

  it('validates as seed data, every collection non-empty', () => {
    const data = createDemoData({ tickets: 2_000 })
    const seed = normalizeSeed({ ...data, tickets: data.tickets.slice() })
    for (const [collection, records] of Object.entries(seed)) expect(records.length, collection).toBeGreaterThan(0)
    expect(seed.tickets).toHaveLength(2_000)
    expect(new Set(seed.tickets.map((t) => t.id)).size).toBe(2_000)
    expect(new Set(seed.tickets.map((t) => t.provider))).toEqual(new Set(['psa_a', 'psa_b', 'psa_c', 'psa_d']))
  })

  it('respects its size options and makes a million tickets lazily', () => {
    expect(createDemoData({ tickets: 10, companies: 5 }).companies).toHaveLength(5)
    const big = createDemoData({ tickets: 1_000_000 })
    expect(big.tickets).toHaveLength(1_000_000)
    expect(big.tickets[999_999]).toEqual(createDemoData({ tickets: 1_000_000 }).tickets[999_999])
    expect(big.tickets[999_999]!.createdAt > big.tickets[0]!.createdAt).toBe(true)
    expect(() => createDemoData({ tickets: -1 })).toThrow(TypeError)
  })

  it('keeps its references whole', () => {
    const data = createDemoData({ tickets: 500 })
    const plannerTypes = new Set(data.plannerItemTypes!.map((p) => p.id))
    const goals = new Set(data.goals!.map((g) => g.id))
    const companies = new Set(data.companies!.map((c) => c.id))
    const items = data.budgets!.flatMap((b) => b.lineItems ?? [])
    expect(items.length).toBeGreaterThan(0)
    for (const item of items) {
      if (item.category) expect(plannerTypes.has(item.category.id)).toBe(true)
      if (item.linkedItem?.type === 'goal') expect(goals.has(item.linkedItem.id)).toBe(true)
    }
    for (const rule of data.automationRules!)
      for (const id of rule.companyIds ?? []) expect(companies.has(id)).toBe(true)
    for (const ticket of data.tickets.slice()) if (ticket.companyId) expect(companies.has(ticket.companyId)).toBe(true)
  })

  it('serves every list with data through the API, and the demo key holds every scope', async () => {
    const store = createMemoryStore()
    const data = createDemoData({ tickets: 1_000 })
    await store.seed(DEMO_TENANT_ID, { ...data, tickets: data.tickets.slice() })
    const h = createHarness(createPublicApi({ store, keyResolver: demoKeyResolver() }), {
      key: DEMO_API_KEY,
      onResponse: assertMatchesContract,
    })
    // Webhook endpoints are made through the API, not seeded: the demo tenant has none.
    const lists = operations.filter((o) => o.method === 'GET' && !o.path.includes(':') && o.area !== 'Webhooks')
    for (const op of lists) {
      const { status, body } = await h.call<{ data: unknown[] }>('GET', op.path)
      expect(status, op.path).toBe(200)
      expect(body.data.length, op.path).toBeGreaterThan(0)
    }
  })
})
