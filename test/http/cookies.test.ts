import { describe, expect, it } from 'vitest'
import { operations, type ErrorBody } from 'tenant-public-api'
import { concretePath, IDS, sampleOf, setup, snapshot } from './fixture.js'
import type { Reply } from 'tenant-public-api/testing'

describe('cookies', () => {
  it('a Cookie header is 400 COOKIES_NOT_ALLOWED on every operation, even with a valid key', async () => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    for (const operation of operations) {
      const sample = sampleOf(operation)
      const result = await h.call<ErrorBody>(operation.method, sample.path, {
        body: sample.body,
        headers: { cookie: 'session=abc' },
      })
      expect(result.status, operation.id).toBe(400)
      expect(result.body.code).toBe('COOKIES_NOT_ALLOWED')
    }
    expect(await snapshot(store)).toEqual(before)
  })

  it('is refused before authentication, scope and rate limiting: no or bad key, no X-RateLimit-* headers', async () => {
    const { h } = await setup()
    for (const key of [null, 'not-a-key', 'test:tenant-a:goals.read']) {
      const result = await h.call<Reply<'listTickets'>>('GET', '/tickets', { key, headers: { cookie: 'a=1' } })
      expect(result.status).toBe(400)
      expect(result.body.code).toBe('COOKIES_NOT_ALLOWED')
      expect(result.headers.has('www-authenticate')).toBe(false)
      expect(result.headers.has('x-ratelimit-limit')).toBe(false)
    }
  })

  it('is refused before routing: unknown paths, wrong methods, OPTIONS and the OpenAPI document', async () => {
    const { h } = await setup()
    const cases: Array<[string, string]> = [
      ['GET', '/no-such-thing'],
      ['DELETE', '/tickets'],
      ['OPTIONS', '/tickets'],
      ['GET', '/openapi.json'],
      ['GET', concretePath(operations[1]!, IDS.ticket)],
    ]
    for (const [method, path] of cases) {
      const result = await h.call<ErrorBody>(method, path, { headers: { cookie: 'a=1' } })
      expect(result.status, `${method} ${path}`).toBe(400)
      if (method !== 'OPTIONS') expect(result.body.code).toBe('COOKIES_NOT_ALLOWED')
    }
  })

  it('an empty Cookie header is still a cookie header', async () => {
    const { api, key } = await setup()
    const response = await api(
      new Request('http://api.test/api/public/v1/tickets', { headers: { authorization: `Bearer ${key}`, cookie: '' } }),
    )
    expect(response.status).toBe(400)
  })

  it('no response sets a cookie, and JSON responses are application/json; charset=utf-8', async () => {
    const { h } = await setup()
    const results = [
      await h.call<Reply<'listTickets'>>('GET', '/tickets'),
      await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: null }),
      await h.call('GET', '/nowhere'),
      await h.call('PUT', '/tickets'),
      await h.call('GET', '/openapi.json'),
      await h.call<Reply<'listTickets'>>('GET', '/tickets', { headers: { cookie: 'a=1' } }),
    ]
    for (const operation of operations) {
      const sample = sampleOf(operation)
      results.push(await h.call(operation.method, sample.path, { body: sample.body }))
    }
    for (const result of results) {
      expect(result.headers.has('set-cookie')).toBe(false)
      expect(result.headers.get('content-type')).toBe('application/json; charset=utf-8')
    }
  })
})
