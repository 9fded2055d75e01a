/**
 * The core's one output type (src/http/reply.ts): replies stay parts through the pipeline and
 * become a native `Response` at the very end, unless the request carries its mount's reply factory
 * under `Symbol.for('tenant-public-api.make-reply')`, which is then handed the finished parts.
 */
import { describe, expect, it } from 'vitest'
import {
  createMemoryStore,
  createPublicApi,
  errorResponse,
  type PublicApiHandler,
  type ReplyParts,
  type ResponseEvent,
} from 'tenant-public-api'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'

const TENANT = 'tenant-replies'
const URL_BASE = 'http://api.test/api/public/v1'
const auth = { authorization: `Bearer ${testKey(TENANT)}` }
const MAKE_REPLY = Symbol.for('tenant-public-api.make-reply')

function makeApi(events: ResponseEvent[] = []): PublicApiHandler {
  return createPublicApi({
    store: createMemoryStore(),
    keyResolver: testKeyResolver(),
    onResponse: (event) => void events.push(event),
  })
}

/** A native Request carrying a reply factory, as a mount that writes replies itself hands over. */
function withFactory(request: Request, made: Array<{ parts: ReplyParts; self: unknown }>): Request {
  Object.defineProperty(request, MAKE_REPLY, {
    value(this: unknown, parts: ReplyParts) {
      made.push({ parts, self: this })
      return new Response('made by the mount', { status: 299 })
    },
  })
  return request
}

describe('replies', () => {
  it('are native Responses for a Fetch request, on every path', async () => {
    const api = makeApi()
    const answers = await Promise.all([
      api(new Request(`${URL_BASE}/tickets?limit=1`, { headers: auth })),
      api(new Request(`${URL_BASE}/tickets`, { method: 'HEAD', headers: auth })),
      api(new Request(`${URL_BASE}/tickets`, { method: 'OPTIONS' })),
      api(new Request(`${URL_BASE}/tickets`, { method: 'PUT' })),
      api(new Request(`${URL_BASE}/nope`)),
      api(new Request(`${URL_BASE}/openapi.json`)),
    ])
    expect(answers.map((response) => response.status)).toEqual([200, 200, 204, 405, 404, 200])
    for (const response of answers) {
      expect(Object.getPrototypeOf(response)).toBe(Response.prototype)
      // No brand a mount would read (a registered symbol); undici's own state symbols are not registered.
      expect(Object.getOwnPropertySymbols(response).filter((key) => Symbol.keyFor(key) !== undefined)).toEqual([])
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    }
    expect(await answers[1]!.text()).toBe('')
    const etag = answers[5]!.headers.get('etag')!
    const cached = await api(new Request(`${URL_BASE}/openapi.json`, { headers: { 'if-none-match': etag } }))
    expect([cached.status, cached.body, Object.getPrototypeOf(cached)]).toEqual([304, null, Response.prototype])
  })

  it("are made by the request's own factory when given one: once, on the request, of the final parts", async () => {
    const events: ResponseEvent[] = []
    const api = makeApi(events)
    const made: Array<{ parts: ReplyParts; self: unknown }> = []
    const request = withFactory(
      new Request(`${URL_BASE}/tickets?limit=1`, { method: 'HEAD', headers: { ...auth, 'x-request-id': 'r-1' } }),
      made,
    )
    const response = await api(request)
    expect(await response.text()).toBe('made by the mount')
    expect(made).toHaveLength(1)
    const [{ parts, self }] = made as [{ parts: ReplyParts; self: unknown }]
    expect(self).toBe(request)
    expect(parts.status).toBe(200)
    expect(parts.body).toBeNull() // HEAD: finished before the factory sees it
    expect(parts.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': 'r-1',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    })
    expect(parts.headers.ratelimit).toBeTypeOf('string')
    // onResponse reads the parts' status, not what the factory made.
    expect(events.map((event) => event.status)).toEqual([200])

    const errors: Array<{ parts: ReplyParts; self: unknown }> = []
    await api(withFactory(new Request(`${URL_BASE}/nope`), errors))
    expect(errors[0]!.parts.status).toBe(404)
    expect(JSON.parse(errors[0]!.parts.body!)).toMatchObject({ code: 'NOT_FOUND' })
  })

  it('ignore a factory key whose value is no function', async () => {
    const request = new Request(`${URL_BASE}/nope`)
    Object.defineProperty(request, MAKE_REPLY, { value: 'not a factory' })
    const response = await makeApi()(request)
    expect([response.status, Object.getPrototypeOf(response)]).toEqual([404, Response.prototype])
  })
})

describe('errorResponse', () => {
  it('is a native Response in the Error shape, its body and X-Request-Id agreeing', async () => {
    const response = errorResponse(413, 'PAYLOAD_TOO_LARGE', 'Too large', 'req-9', undefined, {
      'cache-control': 'no-store',
    })
    expect(Object.getPrototypeOf(response)).toBe(Response.prototype)
    expect(response.status).toBe(413)
    expect(Object.fromEntries(response.headers)).toEqual({
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'x-request-id': 'req-9',
    })
    expect(await response.json()).toEqual({ error: 'Too large', code: 'PAYLOAD_TOO_LARGE', requestId: 'req-9' })
  })
})
