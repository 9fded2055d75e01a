import { describe, expect, it } from 'vitest'
import { createMemoryStore, memoryRateLimiter, StoreUnavailableError, type RateLimiter } from 'tenant-public-api'
import { testKey, testKeyResolver, type Reply } from 'tenant-public-api/testing'
import { IDS, setup, snapshot, TENANT } from './fixture.js'

describe('rate limiting', () => {
  it('429 RATE_LIMITED with Retry-After (whole seconds >= 1) past the limit; Remaining counts down', async () => {
    const { h } = await setup({ rateLimiter: memoryRateLimiter({ limit: 3, windowMs: 60_000 }) })
    const remaining = []
    for (let i = 0; i < 3; i++) {
      const result = await h.call<Reply<'listTickets'>>('GET', '/tickets')
      expect(result.status).toBe(200)
      remaining.push(result.headers.get('x-ratelimit-remaining'))
    }
    expect(remaining).toEqual(['2', '1', '0'])
    const limited = await h.call<Reply<'listTickets'>>('GET', '/tickets')
    expect(limited.status).toBe(429)
    expect(limited.body.code).toBe('RATE_LIMITED')
    const retryAfter = limited.headers.get('retry-after')!
    expect(retryAfter).toMatch(/^\d+$/)
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
    expect(Number(retryAfter)).toBeLessThanOrEqual(60)
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3')
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(Date.parse(limited.headers.get('x-ratelimit-reset')!)).toBeGreaterThan(Date.now())
  })

  it('counts per key: one key over its limit does not limit another, even of the same tenant', async () => {
    const { h } = await setup({ rateLimiter: memoryRateLimiter({ limit: 1, windowMs: 60_000 }) })
    const a = testKey(TENANT, ['tickets.read'])
    const b = testKey(TENANT, ['tickets.read', 'goals.read'])
    expect((await h.call('GET', '/tickets', { key: a })).status).toBe(200)
    expect((await h.call('GET', '/tickets', { key: a })).status).toBe(429)
    expect((await h.call('GET', '/tickets', { key: b })).status).toBe(200)
  })

  it("the principal's rateLimit overrides the limiter's own rule", async () => {
    const { h } = await setup({ keyResolver: testKeyResolver({ rateLimit: { limit: 2, windowMs: 10_000 } }) })
    expect((await h.call<Reply<'listTickets'>>('GET', '/tickets')).headers.get('x-ratelimit-limit')).toBe('2')
    expect((await h.call('GET', '/tickets')).status).toBe(200)
    const limited = await h.call<Reply<'listTickets'>>('GET', '/tickets')
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(10)
  })

  it('429 comes before content type, size, JSON and validation, and writes nothing', async () => {
    const { h, store } = await setup({ rateLimiter: memoryRateLimiter({ limit: 1, windowMs: 60_000 }) })
    expect((await h.call('GET', '/tickets')).status).toBe(200)
    const before = await snapshot(store)
    const cases = [
      h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${IDS.budget}`, {
        rawBody: 'x',
        headers: { 'content-type': 'text/plain' },
      }),
      h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${IDS.budget}`, {
        rawBody: '{',
        headers: { 'content-type': 'application/json' },
      }),
      h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${IDS.budget}`, { body: { title: '' } }),
      h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${IDS.budget}`, { body: { title: 'valid' } }),
    ]
    for (const result of await Promise.all(cases)) expect(result.status).toBe(429)
    expect(await snapshot(store)).toEqual(before)
  })

  it('memoryRateLimiter: a new window starts when the old one ends (injected clock)', () => {
    let now = 1_000_000
    const limiter = memoryRateLimiter({ limit: 2, windowMs: 1000, now: () => now })
    const first = limiter.consume('k') as ReturnType<RateLimiter['consume']> & { allowed: boolean }
    expect(first).toEqual({ allowed: true, limit: 2, remaining: 1, resetAt: new Date(1_001_000), windowMs: 1000 })
    expect(limiter.consume('k')).toMatchObject({ allowed: true, remaining: 0 })
    expect(limiter.consume('k')).toMatchObject({ allowed: false, remaining: 0 })
    now += 999
    expect(limiter.consume('k')).toMatchObject({ allowed: false })
    now += 1
    expect(limiter.consume('k')).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      resetAt: new Date(1_002_000),
      windowMs: 1000,
    })
  })

  it('memoryRateLimiter: a per-call rule gets its own window, apart from the default rule of the same key', () => {
    const limiter = memoryRateLimiter({ limit: 1, windowMs: 1000, now: () => 0 })
    expect(limiter.consume('k')).toMatchObject({ allowed: true })
    expect(limiter.consume('k')).toMatchObject({ allowed: false })
    expect(limiter.consume('k', { limit: 5, windowMs: 1000 })).toMatchObject({ allowed: true, limit: 5, remaining: 4 })
  })

  it('memoryRateLimiter: concurrent requests get at most the limit', async () => {
    const { h } = await setup({ rateLimiter: memoryRateLimiter({ limit: 5, windowMs: 60_000 }) })
    const statuses = (
      await Promise.all(Array.from({ length: 12 }, () => h.call<Reply<'listTickets'>>('GET', '/tickets')))
    ).map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(7)
  })

  it('an async limiter is awaited', async () => {
    const rateLimiter: RateLimiter = {
      consume: async () => ({ allowed: false, limit: 7, remaining: 0, resetAt: new Date(Date.now() + 2500) }),
    }
    const { h } = await setup({ rateLimiter })
    const result = await h.call<Reply<'listTickets'>>('GET', '/tickets')
    expect(result.status).toBe(429)
    expect(result.headers.get('retry-after')).toBe('3')
    expect(result.headers.get('x-ratelimit-limit')).toBe('7')
  })

  it('Retry-After is at least 1 even when the window has already reset', async () => {
    const rateLimiter: RateLimiter = {
      consume: () => ({ allowed: false, limit: 1, remaining: 0, resetAt: new Date(0) }),
    }
    const { h } = await setup({ rateLimiter })
    expect((await h.call<Reply<'listTickets'>>('GET', '/tickets')).headers.get('retry-after')).toBe('1')
  })

  it('a limiter that throws StoreUnavailableError is a 503; any other throw is a 500; onError sees both', async () => {
    const cause = new Error('redis: ECONNREFUSED 10.0.0.7:6379')
    const down: RateLimiter = {
      consume: () => {
        throw new StoreUnavailableError(cause)
      },
    }
    const broken: RateLimiter = {
      consume: async () => {
        throw new TypeError('limiter bug at line 12')
      },
    }
    for (const [rateLimiter, status, code] of [
      [down, 503, 'SERVICE_UNAVAILABLE'],
      [broken, 500, 'INTERNAL_ERROR'],
    ] as const) {
      const { h, errors } = await setup({ rateLimiter, store: createMemoryStore() })
      const result = await h.call<Reply<'listTickets'>>('GET', '/tickets')
      expect(result.status).toBe(status)
      expect(result.body.code).toBe(code)
      expect(JSON.stringify(result.body)).not.toMatch(/ECONNREFUSED|line 12/)
      expect(errors).toHaveLength(1)
      expect(errors[0]!.requestId).toBe(result.headers.get('x-request-id'))
    }
  })
})
