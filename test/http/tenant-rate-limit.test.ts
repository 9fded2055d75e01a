import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, memoryRateLimiter, type RateLimiter, type Store } from 'tenant-public-api'
import { createSqliteStore, sqlRateLimiter } from 'tenant-public-api/sqlite'
import { testKey, testKeyResolver, type Reply } from 'tenant-public-api/testing'
import { createTestPostgresStore } from '../support/postgres.js'
import { BASE, ORIGIN, seedData, setup, TENANT } from './fixture.js'

const readKey = testKey(TENANT, ['tickets.read'])
const otherKey = testKey(TENANT, ['tickets.read', 'goals.read'])

describe('tenantRateLimit: a bucket per tenant beside the one per key', () => {
  it("all of a tenant's keys share its bucket: 429 once it is spent, though each key has requests left", async () => {
    const { h } = await setup({
      rateLimiter: memoryRateLimiter({ limit: 100, windowMs: 60_000 }),
      tenantRateLimit: { limit: 3, windowMs: 30_000 },
    })
    expect((await h.call('GET', '/tickets', { key: readKey })).status).toBe(200)
    expect((await h.call('GET', '/tickets', { key: otherKey })).status).toBe(200)
    expect((await h.call('GET', '/tickets', { key: readKey })).status).toBe(200)
    const limited = await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: otherKey })
    expect(limited.status).toBe(429)
    expect(limited.body.code).toBe('RATE_LIMITED')
    expect(limited.body.error).toMatch(/tenant/)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(30)
    // The headers describe the bucket that refused: the tenant's.
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3')
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(limited.headers.get('ratelimit-policy')).toBe('"tenant";q=3;w=30')
    expect(limited.headers.get('ratelimit')).toMatch(/^"tenant";r=0;t=(29|30)$/)
  })

  it("another tenant's bucket is its own", async () => {
    const { h } = await setup({ tenantRateLimit: { limit: 1, windowMs: 60_000 } })
    expect((await h.call('GET', '/tickets', { key: readKey })).status).toBe(200)
    expect((await h.call('GET', '/tickets', { key: readKey })).status).toBe(429)
    expect((await h.call('GET', '/tickets', { key: testKey('tenant-b', ['tickets.read']) })).status).toBe(200)
  })

  it("the key's bucket still refuses on its own, and its headers win while it has the least left", async () => {
    const { h } = await setup({
      rateLimiter: memoryRateLimiter({ limit: 2, windowMs: 60_000 }),
      tenantRateLimit: { limit: 100, windowMs: 60_000 },
    })
    const first = await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: readKey })
    expect(first.headers.get('ratelimit-policy')).toBe('"key";q=2;w=60')
    expect(first.headers.get('ratelimit')).toMatch(/^"key";r=1;t=(59|60)$/)
    expect((await h.call('GET', '/tickets', { key: readKey })).status).toBe(200)
    const limited = await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: readKey })
    expect(limited.status).toBe(429)
    expect(limited.body.error).toMatch(/this API key;/)
    expect(limited.headers.get('x-ratelimit-limit')).toBe('2')
    expect(limited.headers.get('ratelimit')).toMatch(/^"key";r=0;t=/)
  })

  it('both buckets refusing: the headers describe the one that blocks longest; t is the Retry-After', async () => {
    for (const [keyWindow, tenantWindow, longest, message] of [
      [11_000, 20_000, 'tenant', /tenant;/],
      [20_000, 11_000, 'key', /this API key;/],
    ] as const) {
      const { h } = await setup({
        rateLimiter: memoryRateLimiter({ limit: 2, windowMs: keyWindow }),
        tenantRateLimit: { limit: 2, windowMs: tenantWindow },
      })
      expect((await h.call('GET', '/tickets', { key: readKey })).status).toBe(200)
      expect((await h.call('GET', '/tickets', { key: readKey })).status).toBe(200)
      const limited = await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: readKey })
      expect(limited.status).toBe(429)
      expect(limited.body.error).toMatch(message)
      const retryAfter = limited.headers.get('retry-after')
      expect(Number(retryAfter)).toBeGreaterThan(11)
      expect(limited.headers.get('ratelimit')).toBe(`"${longest}";r=0;t=${retryAfter}`)
      expect(limited.headers.get('ratelimit-policy')).toBe(`"${longest}";q=2;w=20`)
      // X-RateLimit-Reset names the same bucket's reset, about 20 s ahead.
      const resetIn = Date.parse(limited.headers.get('x-ratelimit-reset')!) - Date.now()
      expect(resetIn).toBeGreaterThan(15_000)
      expect(resetIn).toBeLessThanOrEqual(20_000)
    }
  })

  it('every request counts against both buckets; the tenant bucket shows once it has the least left', async () => {
    const { h } = await setup({
      rateLimiter: memoryRateLimiter({ limit: 5, windowMs: 60_000 }),
      tenantRateLimit: { limit: 6, windowMs: 10_000 },
    })
    const shown = []
    for (let i = 0; i < 3; i++)
      shown.push((await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: i < 2 ? readKey : otherKey })).headers)
    // key a: 5→3 left after two; tenant: 6→4 left: key shown. Then key b: 4 left, tenant 3 left: tenant shown.
    expect(shown.map((headers) => headers.get('ratelimit-policy'))).toEqual([
      '"key";q=5;w=60',
      '"key";q=5;w=60',
      '"tenant";q=6;w=10',
    ])
    expect(shown[2]!.get('x-ratelimit-remaining')).toBe('3')
  })

  it('a 403 still wins over a 429 from the tenant bucket, and counts', async () => {
    const { h } = await setup({ tenantRateLimit: { limit: 1, windowMs: 60_000 } })
    expect((await h.call('GET', '/goals/x', { key: readKey })).status).toBe(403)
    const denied = await h.call('GET', '/goals/x', { key: readKey })
    expect(denied.status).toBe(403)
    expect(denied.headers.get('ratelimit')).toMatch(/^"tenant";r=0;/)
    expect((await h.call('GET', '/tickets', { key: readKey })).status).toBe(429)
  })

  it('the tenant bucket is counted on the rateLimiter itself, under tenant:{tenantId}, with its own rule', async () => {
    const calls: Array<[string, unknown]> = []
    const inner = memoryRateLimiter({ limit: 50 })
    const rateLimiter: RateLimiter = {
      consume: (key, rule) => {
        calls.push([key, rule])
        return inner.consume(key, rule)
      },
    }
    const { h } = await setup({ rateLimiter, tenantRateLimit: { limit: 7, windowMs: 5000 } })
    await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: readKey })
    expect(calls).toEqual([
      [readKey, undefined],
      [`tenant:${TENANT}`, { limit: 7, windowMs: 5000 }],
    ])
  })

  it('without tenantRateLimit there is one bucket, the key: the IETF headers name it', async () => {
    const { h } = await setup({ keyResolver: testKeyResolver({ rateLimit: { limit: 9, windowMs: 1500 } }) })
    const result = await h.call<Reply<'listTickets'>>('GET', '/tickets')
    // Windows are whole seconds in the draft's syntax: 1.5 s is advertised as 2.
    expect(result.headers.get('ratelimit-policy')).toBe('"key";q=9;w=2')
    expect(result.headers.get('ratelimit')).toMatch(/^"key";r=8;t=[12]$/)
  })

  it('a limiter that does not report its window gets a policy without w', async () => {
    const rateLimiter: RateLimiter = {
      consume: () => ({ allowed: true, limit: 4, remaining: 3, resetAt: new Date(Date.now() + 4000) }),
    }
    const { h } = await setup({ rateLimiter })
    const result = await h.call<Reply<'listTickets'>>('GET', '/tickets')
    expect(result.headers.get('ratelimit-policy')).toBe('"key";q=4')
    expect(result.headers.get('ratelimit')).toMatch(/^"key";r=3;t=[34]$/)
  })

  it('401s carry none of the rate-limit fields', async () => {
    const { h } = await setup({ tenantRateLimit: { limit: 5, windowMs: 1000 } })
    const result = await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: 'nope' })
    expect(result.status).toBe(401)
    for (const name of ['ratelimit', 'ratelimit-policy', 'x-ratelimit-limit'])
      expect(result.headers.has(name)).toBe(false)
  })

  it('a malformed tenantRateLimit is a TypeError when the API is created', () => {
    for (const tenantRateLimit of [{ limit: 0, windowMs: 1000 }, { limit: 5 }, { limit: 1.5, windowMs: 1000 }, 'x']) {
      expect(() =>
        createPublicApi({
          store: createMemoryStore(),
          keyResolver: testKeyResolver(),
          tenantRateLimit: tenantRateLimit as never,
        }),
      ).toThrow(TypeError)
    }
  })
})

describe('tenantRateLimit on the shared limiters', () => {
  const engines: Array<[string, () => Promise<{ store: Store; close: () => Promise<void> }>]> = [
    [
      'SQLite',
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'tpa-tenant-limit-'))
        const store = await createSqliteStore({ filename: join(dir, 'api.db') })
        return { store, close: () => store.close() }
      },
    ],
    [
      'Postgres',
      async () => {
        const { store } = await createTestPostgresStore()
        return { store, close: () => store.close() }
      },
    ],
  ]
  it.each(engines)('sqlRateLimiter on %s: two APIs on one database share one tenant bucket', async (_, open) => {
    const { store, close } = await open()
    try {
      await store.seed(TENANT, seedData())
      const make = () =>
        createPublicApi({
          store,
          keyResolver: testKeyResolver(),
          rateLimiter: sqlRateLimiter(store, { limit: 100, windowMs: 60_000 }),
          tenantRateLimit: { limit: 4, windowMs: 20_000 },
        })
      const [a, b] = [make(), make()]
      const call = (api: typeof a, key: string) =>
        api(new Request(`${ORIGIN}${BASE}/tickets`, { headers: { authorization: `Bearer ${key}` } }))
      const statuses = []
      for (let i = 0; i < 6; i++) statuses.push((await call(i % 2 ? a : b, i % 3 ? readKey : otherKey)).status)
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
      const last = await call(a, readKey)
      expect(last.headers.get('ratelimit-policy')).toBe('"tenant";q=4;w=20')
      expect(last.headers.get('ratelimit')).toMatch(/^"tenant";r=0;t=(19|20)$/)
    } finally {
      await close()
    }
  })
})
