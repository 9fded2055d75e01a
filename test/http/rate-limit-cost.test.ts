/**
 * A cost counted at once (src/ports/rate-limiter.ts, docs/mcp.md#counting): every built-in limiter
 * in this process or on a SQL store's database (memory, SQLite, Postgres) counts `cost` requests
 * atomically, and a refused cost spends nothing. The Redis limiter's are in
 * test/stores/redis-rate-limiter.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { memoryRateLimiter, type RateLimiter, type Store } from 'tenant-public-api'
import { sqlRateLimiter } from 'tenant-public-api/postgres'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createTestPostgresStore } from '../support/postgres.js'

const stores: Store[] = []
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()))
})

async function onStore(store: Store): Promise<RateLimiter> {
  stores.push(store)
  return sqlRateLimiter(store)
}

const LIMITERS: Array<[string, () => Promise<RateLimiter>]> = [
  ['memory', async () => memoryRateLimiter()],
  ['sqlite', async () => onStore(await createSqliteStore({ filename: ':memory:' }))],
  ['postgres', async () => onStore((await createTestPostgresStore()).store)],
]

describe.each(LIMITERS)('a cost on the %s limiter', (_name, create) => {
  const rule = { limit: 10, windowMs: 60_000 }

  it('declares countsCost, spends a cost at once, and a refused cost spends nothing', async () => {
    const limiter = await create()
    expect(limiter.countsCost).toBe(true)
    const key = `cost-${crypto.randomUUID()}`
    const first = await limiter.consume(key, rule, 4)
    expect([first.allowed, first.remaining, first.limit]).toEqual([true, 6, 10])
    expect(first.resetAt.getTime()).toBeGreaterThan(Date.now() + 50_000)
    expect((await limiter.consume(key, rule, 5)).remaining).toBe(1)
    const refused = await limiter.consume(key, rule, 2)
    expect([refused.allowed, refused.remaining]).toEqual([false, 1])
    expect(refused.resetAt.getTime()).toBe(first.resetAt.getTime())
    // What was left is still there: one request, then nothing.
    expect([(await limiter.consume(key, rule)).allowed, (await limiter.consume(key, rule)).allowed]).toEqual([
      true,
      false,
    ])
  })

  it('refuses a cost above the limit without spending, on a new key and a counted one', async () => {
    const limiter = await create()
    const key = `cost-${crypto.randomUUID()}`
    const alone = await limiter.consume(key, rule, 11)
    expect([alone.allowed, alone.remaining]).toEqual([false, 10])
    await limiter.consume(key, rule, 3)
    const after = await limiter.consume(key, rule, 11)
    expect([after.allowed, after.remaining]).toEqual([false, 7])
    expect((await limiter.consume(key, rule, 7)).allowed).toBe(true)
  })

  it('allows at most the limit among concurrent costs', async () => {
    const limiter = await create()
    const key = `cost-${crypto.randomUUID()}`
    const results = await Promise.all(Array.from({ length: 12 }, () => limiter.consume(key, rule, 3)))
    expect(results.filter((result) => result.allowed)).toHaveLength(3)
    expect(Math.min(...results.map((result) => result.remaining))).toBe(1)
  })

  it('starts a new window with the cost once the old one expired', async () => {
    const limiter = await create()
    const key = `cost-${crypto.randomUUID()}`
    const short = { limit: 5, windowMs: 50 }
    expect((await limiter.consume(key, short, 5)).allowed).toBe(true)
    expect((await limiter.consume(key, short, 2)).allowed).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 80))
    const fresh = await limiter.consume(key, short, 2)
    expect([fresh.allowed, fresh.remaining]).toEqual([true, 3])
  })
})
