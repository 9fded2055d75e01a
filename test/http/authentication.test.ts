import { describe, expect, it } from 'vitest'
import { operations, type KeyResolver, type Principal } from 'tenant-public-api'
import { testKey, type Reply } from 'tenant-public-api/testing'
import { IDS, raw, sampleOf, setup, snapshot, TENANT } from './fixture.js'

const principal: Principal = {
  tenantId: TENANT,
  keyId: 'k1',
  scopes: ['tickets.read'],
  actor: { id: 'u1', name: 'Ada' },
}

describe('authentication', () => {
  it.each([
    ['no Authorization header', undefined],
    ['Basic credentials', 'Basic dXNlcjpwYXNz'],
    ['Bearer with no token', 'Bearer'],
    ['Bearer with only spaces', 'Bearer    '],
    ['a token without a scheme', testKey(TENANT)],
    ['an unknown token', 'Bearer sk_live_unknown'],
    ['a token with a space inside', `Bearer ${testKey(TENANT)} extra`],
    ['Token scheme', `Token ${testKey(TENANT)}`],
  ])('401 UNAUTHORIZED with WWW-Authenticate: Bearer for %s', async (_label, authorization) => {
    const { h } = await setup()
    const result = await h.call<Reply<'listTickets'>>('GET', '/tickets', {
      key: null,
      headers: authorization === undefined ? {} : { authorization },
    })
    expect(result.status).toBe(401)
    expect(result.body.code).toBe('UNAUTHORIZED')
    expect(result.headers.get('www-authenticate')).toMatch(/^Bearer\b/)
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
      expect(result.headers.has(name)).toBe(false)
  })

  it('accepts the scheme case-insensitively and extra spaces around the token', async () => {
    const { h, key } = await setup()
    for (const authorization of [`bearer ${key}`, `BEARER ${key}`, `Bearer   ${key}`, `Bearer ${key}  `]) {
      expect((await h.call('GET', '/tickets', { key: null, headers: { authorization } })).status, authorization).toBe(
        200,
      )
    }
  })

  it('401 on every operation without a key, and nothing is written', async () => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    for (const operation of operations) {
      const sample = sampleOf(operation)
      const result = await h.call(operation.method, sample.path, { key: null, body: sample.body })
      expect(result.status, operation.id).toBe(401)
    }
    expect(await snapshot(store)).toEqual(before)
  })

  it('401 comes before validation, content type and body size', async () => {
    const { h } = await setup({ maxBodyBytes: 10 })
    expect((await h.call('GET', '/tickets?page=-1&bogus', { key: null })).status).toBe(401)
    expect(
      (
        await h.call<Reply<'createAutomationRule'>>('POST', '/automation', {
          key: null,
          rawBody: 'x'.repeat(100),
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(401)
  })

  it('a resolver returning null (a revoked key) is 401; the resolver sees the token and the request', async () => {
    const seen: Array<[string, string]> = []
    const keyResolver: KeyResolver = (token, request) => {
      seen.push([token, new URL(request.url).pathname])
      return null
    }
    const { h } = await setup({ keyResolver })
    const result = await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: 'revoked-key' })
    expect(result.status).toBe(401)
    expect(result.headers.get('www-authenticate')).toContain('invalid_token')
    expect(seen).toEqual([['revoked-key', '/api/public/v1/tickets']])
  })

  it('an async resolver is awaited, both when it resolves a principal and when it resolves null', async () => {
    const keyResolver: KeyResolver = async (token) => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      return token === 'good' ? principal : null
    }
    const { h } = await setup({ keyResolver })
    expect((await h.call('GET', '/tickets', { key: 'good' })).status).toBe(200)
    expect((await h.call('GET', '/tickets', { key: 'bad' })).status).toBe(401)
  })

  it('a resolver that throws is a 500 that hides the cause, and onError gets it', async () => {
    const { h, errors } = await setup({
      keyResolver: () => {
        throw new Error('key table: connection string postgres://admin:hunter2@db')
      },
    })
    const result = await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: 'any' })
    expect(result.status).toBe(500)
    expect(JSON.stringify(result.body)).not.toContain('hunter2')
    expect(errors).toHaveLength(1)
  })

  it('the resolved tenant is the only one the key sees', async () => {
    const { h } = await setup({
      keyResolver: () => ({ ...principal, tenantId: 'tenant-nobody', scopes: ['goals.read'] }),
    })
    const result = await h.call<Reply<'getGoal'>>('GET', `/goals/${IDS.goal}`, { key: 'any' })
    expect(result.status).toBe(404)
  })

  it('every authenticated response carries X-RateLimit-Limit, -Remaining and -Reset (ISO 8601)', async () => {
    const { h, api, key } = await setup()
    const results = [
      await h.call<Reply<'listTickets'>>('GET', '/tickets'), // 200
      await h.call<Reply<'listTickets'>>('GET', '/tickets?page=0'), // 400
      await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: testKey(TENANT, ['goals.read']) }), // 403
      await h.call('GET', `/goals/00000000-0000-4000-8000-00000000dead`), // 404
      await h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${IDS.rule}`, {
        body: { priority: 2 },
        headers: { 'if-match': '"99"' },
      }), // 412
      await h.call<Reply<'createAutomationRule'>>('POST', '/automation', {
        rawBody: '{',
        headers: { 'content-type': 'application/json' },
      }), // 400 INVALID_JSON
      await h.call<Reply<'createAutomationRule'>>('POST', '/automation', {
        rawBody: '{}',
        headers: { 'content-type': 'text/plain' },
      }), // 415
    ]
    expect(results.map((r) => r.status)).toEqual([200, 400, 403, 404, 412, 400, 415])
    const raw413 = await api(
      raw('/automation', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': String(2 * 1024 * 1024),
        },
        body: '{}',
      }),
    )
    expect(raw413.status).toBe(413)
    for (const headers of [...results.map((r) => r.headers), raw413.headers]) {
      expect(Number(headers.get('x-ratelimit-limit'))).toBeGreaterThan(0)
      expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/)
      const reset = headers.get('x-ratelimit-reset')!
      expect(new Date(reset).toISOString()).toBe(reset)
    }
  })
})
