import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, memoryRateLimiter, type ResponseEvent } from 'tenant-public-api'
import { testKey, testKeyResolver, type Reply } from 'tenant-public-api/testing'
import { BASE, failingStore, IDS, ORIGIN, raw, setup, TENANT } from './fixture.js'

async function observed(options: Parameters<typeof setup>[0] = {}) {
  const events: ResponseEvent[] = []
  const context = await setup({ ...options, onResponse: (event) => void events.push(event) })
  return { ...context, events }
}

describe('onResponse', () => {
  it('reports a success once, with the operation, route template, tenant, key and a duration', async () => {
    const { h, events } = await observed()
    const result = await h.call<Reply<'getTicket'>>('GET', `/tickets/${IDS.ticket}`, {
      headers: { 'x-request-id': 'req-1' },
    })
    expect(result.status).toBe(200)
    expect(events).toHaveLength(1)
    const [event] = events
    expect(event).toEqual({
      requestId: 'req-1',
      operationId: 'getTicket',
      route: `${BASE}/tickets/{id}`,
      method: 'GET',
      status: 200,
      durationMs: expect.any(Number),
      tenantId: TENANT,
      keyId: testKey(TENANT),
      errorCode: null,
    })
    expect(event!.durationMs).toBeGreaterThanOrEqual(0)
    expect(event!.durationMs).toBeLessThan(5000)
  })

  it('reports every kind of answer with its error code, and null for what the request never reached', async () => {
    const { api, h, events } = await observed({ rateLimiter: memoryRateLimiter({ limit: 3, windowMs: 60_000 }) })
    const readOnly = testKey(TENANT, ['tickets.read'])
    await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: 'bad' })
    await h.call('GET', '/nowhere')
    await h.call('PUT', '/tickets')
    await h.call<Reply<'listUsers'>>('GET', '/users', { key: readOnly })
    await h.call<Reply<'listTickets'>>('GET', '/tickets?limit=0', { key: readOnly })
    await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: readOnly })
    await h.call('HEAD', '/tickets', { key: readOnly })
    await api(raw('/tickets', { headers: { cookie: 'a=b' } }))
    await api(new Request(`${ORIGIN}${BASE}/openapi.json`))
    const seen = events.map((e) => [e.method, e.route, e.operationId, e.status, e.errorCode, e.keyId !== null])
    expect(seen).toEqual([
      ['GET', `${BASE}/tickets`, 'listTickets', 401, 'UNAUTHORIZED', false],
      ['GET', null, null, 404, 'NOT_FOUND', false],
      ['PUT', `${BASE}/tickets`, null, 405, 'METHOD_NOT_ALLOWED', false],
      ['GET', `${BASE}/users`, 'listUsers', 403, 'INSUFFICIENT_SCOPE', true],
      ['GET', `${BASE}/tickets`, 'listTickets', 400, 'VALIDATION_ERROR', true],
      ['GET', `${BASE}/tickets`, 'listTickets', 200, null, true],
      ['HEAD', `${BASE}/tickets`, 'listTickets', 429, 'RATE_LIMITED', true],
      ['GET', null, null, 400, 'COOKIES_NOT_ALLOWED', false],
      ['GET', `${BASE}/openapi.json`, null, 200, null, false],
    ])
    for (const event of events) expect(typeof event.requestId).toBe('string')
  })

  it('reports 500 INTERNAL_ERROR and 503 SERVICE_UNAVAILABLE without their causes', async () => {
    const { StoreUnavailableError } = await import('tenant-public-api')
    for (const [make, status, code] of [
      [() => new Error('secret detail'), 500, 'INTERNAL_ERROR'],
      [() => new StoreUnavailableError(new Error('down')), 503, 'SERVICE_UNAVAILABLE'],
    ] as const) {
      const events: ResponseEvent[] = []
      const store = failingStore(createMemoryStore(), make)
      const api = createPublicApi({
        store,
        keyResolver: testKeyResolver(),
        onError: () => {},
        onResponse: (event) => void events.push(event),
      })
      const response = await api(raw('/tickets', { headers: { authorization: `Bearer ${testKey(TENANT)}` } }))
      expect(response.status).toBe(status)
      expect(events.map((e) => [e.status, e.errorCode])).toEqual([[status, code]])
      expect(JSON.stringify(events)).not.toContain('secret')
    }
  })

  it('a listener that throws or rejects changes nothing in the response; the error goes to onError', async () => {
    for (const onResponse of [
      () => {
        throw new Error('logger broke')
      },
      () => Promise.reject(new Error('logger broke')),
    ]) {
      const errors: unknown[] = []
      const api = createPublicApi({
        store: createMemoryStore(),
        keyResolver: testKeyResolver(),
        onResponse,
        onError: (error) => void errors.push(error),
      })
      const response = await api(raw('/tickets', { headers: { authorization: `Bearer ${testKey(TENANT)}` } }))
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ data: [] })
      await new Promise((resolve) => setTimeout(resolve, 0))
      expect(errors).toHaveLength(1)
      expect((errors[0] as Error).message).toBe('logger broke')
    }
  })

  it('a non-function onResponse is a TypeError when the API is created', () => {
    expect(() =>
      createPublicApi({ store: createMemoryStore(), keyResolver: testKeyResolver(), onResponse: 'log' as never }),
    ).toThrow(TypeError)
  })

  it('the pino example of docs/observability.md runs as printed and logs one line per response', async () => {
    const doc = readFileSync('docs/observability.md', 'utf8')
    const block = /<!-- pino-example -->\s*```ts\n([\s\S]*?)```/.exec(doc)?.[1]
    expect(block, 'the pino-example block').toBeDefined()
    mkdirSync('test-output', { recursive: true })
    const file = resolve('test-output/docs-pino-example.ts')
    writeFileSync(file, `${block!}\nexport {}\n`)
    // Its own process, as a host runs it: pino writes to file descriptor 1; tsx resolves the package
    // name to the sources through tsconfig.json's paths.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], { timeout: 60_000 })
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatchObject({
      level: 30,
      operationId: 'listTickets',
      route: '/api/public/v1/tickets',
      status: 200,
      tenantId: 'tenant-1',
      keyId: 'key-1',
      errorCode: null,
      msg: expect.stringMatching(/^GET \/api\/public\/v1\/tickets 200 \d+\.\dms$/),
    })
    expect(lines[1]).toMatchObject({
      level: 40,
      status: 403,
      errorCode: 'INSUFFICIENT_SCOPE',
      operationId: 'listUsers',
    })
  })
})
