import { describe, expect, it } from 'vitest'
import { createMemoryStore, StoreUnavailableError } from 'tenant-public-api'
import { errorBody, failingStore, IDS, raw, setup } from './fixture.js'
import type { Reply } from 'tenant-public-api/testing'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('X-Request-Id', () => {
  it('is on every kind of response: 2xx, 4xx, 404 route, 405, OPTIONS, HEAD, openapi.json', async () => {
    const { h } = await setup()
    const results = await Promise.all([
      h.call<Reply<'listTickets'>>('GET', '/tickets'),
      h.call<Reply<'listTickets'>>('GET', '/tickets?page=0'),
      h.call<Reply<'listTickets'>>('GET', '/tickets', { key: null }),
      h.call('GET', '/nowhere'),
      h.call('PUT', '/tickets'),
      h.call('OPTIONS', '/tickets'),
      h.call('HEAD', '/tickets'),
      h.call('GET', '/openapi.json', { key: null }),
      h.call<Reply<'listTickets'>>('GET', '/tickets', { headers: { cookie: 'a=b' } }),
    ])
    expect(results.map((r) => r.status)).toEqual([200, 400, 401, 404, 405, 204, 200, 200, 400])
    for (const result of results) expect(result.headers.get('x-request-id')).toMatch(UUID)
  })

  it('is on 500 and 503 responses, and equals the Error body requestId', async () => {
    for (const [make, status] of [
      [() => new Error('boom'), 500],
      [() => new StoreUnavailableError(new Error('ECONNREFUSED')), 503],
    ] as const) {
      const { api, key } = await setup({ store: failingStore(createMemoryStore(), make) })
      const response = await api(
        raw('/tickets', { headers: { authorization: `Bearer ${key}`, 'x-request-id': 'trace-1' } }),
      )
      expect(response.status).toBe(status)
      expect(response.headers.get('x-request-id')).toBe('trace-1')
      expect((await errorBody(response)).requestId).toBe('trace-1')
    }
  })

  it.each(['a', 'req_42', 'abc.DEF:123-x_y', 'x'.repeat(128), '0'])('echoes the valid client id %j', async (id) => {
    const { h } = await setup()
    const ok = await h.call<Reply<'listTickets'>>('GET', '/tickets', { headers: { 'x-request-id': id } })
    expect(ok.headers.get('x-request-id')).toBe(id)
    const failed = await h.call<Reply<'listTickets'>>('GET', '/tickets?bogus=1', { headers: { 'x-request-id': id } })
    expect(failed.headers.get('x-request-id')).toBe(id)
    expect(failed.body.requestId).toBe(id)
  })

  it.each([
    ['too long', 'x'.repeat(129)],
    ['a space', 'a b'],
    ['a slash', 'a/b'],
    ['a quote', 'a"b'],
    ['a percent sign', 'a%0d%0ab'],
    ['non-ASCII', 'caf\u00e9'],
    ['empty', ''],
    ['angle brackets', '<script>'],
  ])('replaces an invalid client id (%s) with a new UUID', async (_label, id) => {
    const { h } = await setup()
    const result = await h.call<Reply<'getGoal'>>('GET', `/goals/${IDS.goal}?nope=1`, {
      headers: { 'x-request-id': id },
    })
    expect(result.status).toBe(400)
    const echoed = result.headers.get('x-request-id')
    expect(echoed).toMatch(UUID)
    expect(echoed).not.toBe(id)
    expect(result.body.requestId).toBe(echoed)
  })

  it('gives each request its own id when the client sends none', async () => {
    const { h } = await setup()
    const ids = new Set<string | null>()
    for (let i = 0; i < 20; i++) ids.add((await h.call('GET', '/nowhere')).headers.get('x-request-id'))
    expect(ids.size).toBe(20)
  })
})
