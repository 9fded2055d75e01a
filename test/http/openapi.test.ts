import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { createOpenApiDocument, memoryRateLimiter, operations, ERROR_STATUS } from 'tenant-public-api'
import { operationErrors } from '../../src/openapi/responses.js'
import { BASE, setup } from './fixture.js'

interface OperationObject {
  operationId: string
  security: Array<Record<string, string[]>>
  'x-required-scope': string
  parameters: Array<{ name: string; in: string; required: boolean }>
  requestBody?: { required: boolean; content: Record<string, unknown> }
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>
}
interface Document {
  openapi: string
  paths: Record<string, Record<string, OperationObject>>
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> }
  security: unknown
}

async function served(): Promise<{ document: Document; response: Response }> {
  const { api } = await setup()
  const response = await api(new Request(`http://api.test${BASE}/openapi.json`))
  return { document: (await response.clone().json()) as Document, response }
}

const template = (path: string) => BASE + path.replace(/:(\w+)/g, '{$1}')
const queryNames = (schema: unknown) =>
  Object.keys((schema as { entries?: Record<string, unknown> } | undefined)?.entries ?? {})

describe('GET /openapi.json', () => {
  it('is served without authentication, as JSON, with a request id and without counting against any key', async () => {
    const { h } = await setup({ rateLimiter: memoryRateLimiter({ limit: 1 }) })
    for (let i = 0; i < 3; i++) {
      const result = await h.call<{ openapi: string }>('GET', '/openapi.json', { key: null })
      expect(result.status).toBe(200)
      expect(result.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(result.headers.get('x-request-id')).toBeTruthy()
      expect(result.headers.has('x-ratelimit-limit')).toBe(false)
      expect(result.body.openapi).toBe('3.1.0')
    }
    // A bad key does not matter either: the document is public.
    expect((await h.call('GET', '/openapi.json', { key: 'garbage' })).status).toBe(200)
  })

  it('carries a strong ETag; If-None-Match naming it answers 304 without a body, for GET and HEAD', async () => {
    const { h } = await setup()
    const first = await h.call<{ openapi: string }>('GET', '/openapi.json', { key: null })
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/)
    const again = await h.call('GET', '/openapi.json', { key: null })
    expect(again.headers.get('etag')).toBe(etag)
    for (const [method, ifNoneMatch] of [
      ['GET', etag],
      ['GET', `W/${etag}`],
      ['GET', `"other", ${etag}`],
      ['GET', '*'],
      ['HEAD', etag],
    ] as const) {
      const cached = await h.call(method, '/openapi.json', { key: null, headers: { 'if-none-match': ifNoneMatch } })
      expect(cached.status, ifNoneMatch).toBe(304)
      expect(cached.body, ifNoneMatch).toBeUndefined()
      expect(cached.headers.get('etag')).toBe(etag)
      expect(cached.headers.get('cache-control')).toBe('public, max-age=300')
      expect(cached.headers.get('x-request-id')).toBeTruthy()
    }
    const stale = await h.call('GET', '/openapi.json', { key: null, headers: { 'if-none-match': '"stale"' } })
    expect(stale.status).toBe(200)
    expect(stale.body).toEqual(first.body)
    const head = await h.call('HEAD', '/openapi.json', { key: null })
    expect([head.status, head.body, head.headers.get('etag')]).toEqual([200, undefined, etag])
    // Another base path is another document, with another tag.
    const { h: other } = await setup({ basePath: '/v2' })
    expect((await other.call('GET', '/openapi.json', { key: null })).headers.get('etag')).not.toBe(etag)
  })

  it('the docs page has its own strong ETag and answers If-None-Match with 304 too', async () => {
    const { api } = await setup()
    const page = await api(new Request(`http://api.test${BASE}/docs`))
    expect(page.status).toBe(200)
    const etag = page.headers.get('etag')!
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/)
    const cached = await api(new Request(`http://api.test${BASE}/docs`, { headers: { 'if-none-match': etag } }))
    expect(cached.status).toBe(304)
    expect(await cached.text()).toBe('')
    expect(cached.headers.get('etag')).toBe(etag)
    const head = await api(new Request(`http://api.test${BASE}/docs`, { method: 'HEAD' }))
    expect([head.status, await head.text(), head.headers.get('etag')]).toEqual([200, '', etag])
  })

  it('is the document createOpenApiDocument builds for the same base path', async () => {
    const { document } = await served()
    expect(document).toEqual(JSON.parse(JSON.stringify(createOpenApiDocument({ basePath: BASE }))))
  })

  it('has exactly the registry operations plus itself, each with its operationId and method', async () => {
    const { document } = await served()
    const expected = operations.map(
      (operation) => `${operation.method.toLowerCase()} ${template(operation.path)} ${operation.id}`,
    )
    const actual = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, spec]) => `${method} ${path} ${spec.operationId}`),
    )
    expect(actual.sort()).toEqual([...expected, `get ${BASE}/openapi.json getOpenApiDocument`].sort())
  })

  it('gives every operation its scope under the bearer scheme', async () => {
    const { document } = await served()
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    for (const operation of operations) {
      const spec = document.paths[template(operation.path)]![operation.method.toLowerCase()]!
      expect(spec.security, operation.id).toEqual([{ bearerAuth: [operation.scope] }])
      expect(spec['x-required-scope']).toBe(operation.scope)
    }
    expect(document.paths[`${BASE}/openapi.json`]!.get!.security).toEqual([])
  })

  it('lists every path and query parameter of every operation', async () => {
    const { document } = await served()
    for (const operation of operations) {
      const spec = document.paths[template(operation.path)]![operation.method.toLowerCase()]!
      const pathParams = [...operation.path.matchAll(/:(\w+)/g)].map((match) => match[1])
      expect(
        spec.parameters.filter((p) => p.in === 'path').map((p) => p.name),
        operation.id,
      ).toEqual(pathParams)
      for (const p of spec.parameters.filter((p) => p.in === 'path')) expect(p.required).toBe(true)
      const query = spec.parameters.filter((p) => p.in === 'query')
      expect(query.map((p) => p.name).sort(), operation.id).toEqual(queryNames(operation.query).sort())
      // Every query parameter of this API has a default or is optional.
      for (const p of query) expect(p.required, `${operation.id} ${p.name}`).toBe(false)
      if (operation.idempotent)
        expect(spec.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')).toBe(true)
      if (operation.errors.includes('PRECONDITION_FAILED'))
        expect(spec.parameters.some((p) => p.in === 'header' && p.name === 'If-Match')).toBe(true)
    }
  })

  it('has a JSON request body exactly for the operations that take one', async () => {
    const { document } = await served()
    for (const operation of operations) {
      const spec = document.paths[template(operation.path)]![operation.method.toLowerCase()]!
      if (operation.body === undefined) expect(spec.requestBody, operation.id).toBeUndefined()
      else
        expect(spec.requestBody, operation.id).toMatchObject({
          required: true,
          content: { 'application/json': { schema: expect.any(Object) } },
        })
    }
  })

  it('documents the success response and every error response with its codes and headers', async () => {
    const { document } = await served()
    for (const operation of operations) {
      const spec = document.paths[template(operation.path)]![operation.method.toLowerCase()]!
      const success = spec.responses[String(operation.successStatus)]
      expect(success?.content?.['application/json'], operation.id).toBeDefined()
      expect(Object.keys(success!.headers ?? {})).toEqual(
        expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
      )
      const codes = operationErrors(operation)
      // Every operation can be refused in these ways, whatever its own errors are.
      expect(codes).toEqual(
        expect.arrayContaining([
          'VALIDATION_ERROR',
          'COOKIES_NOT_ALLOWED',
          'UNAUTHORIZED',
          'INSUFFICIENT_SCOPE',
          'RATE_LIMITED',
          'INTERNAL_ERROR',
          'SERVICE_UNAVAILABLE',
        ]),
      )
      if (operation.body !== undefined)
        expect(codes).toEqual(expect.arrayContaining(['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']))
      if (operation.params !== undefined)
        expect(codes, `${operation.id}: a malformed or unknown id is a 404`).toContain('NOT_FOUND')
      for (const code of codes) {
        const response = spec.responses[String(ERROR_STATUS[code])]
        expect(response, `${operation.id} ${code}`).toBeDefined()
        expect(JSON.stringify(response!.content)).toContain(`"${code}"`)
        expect(response!.headers).toHaveProperty('X-Request-Id')
      }
      expect(spec.responses['401']!.headers).toHaveProperty('WWW-Authenticate')
      expect(spec.responses['401']!.headers).not.toHaveProperty('X-RateLimit-Limit')
      expect(spec.responses['429']!.headers).toHaveProperty('Retry-After')
    }
  })

  it('describes the Error shape and every error code', async () => {
    const { document } = await served()
    const error = document.components.schemas.Error as { required: string[]; properties: { code: { enum: string[] } } }
    expect(error.required).toEqual(['error'])
    expect(error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_STATUS).sort())
  })

  it('matches the registry schemas: the query schemas the document lists really are the ones validated', () => {
    for (const operation of operations.filter((o) => o.query !== undefined)) {
      // Every documented query parameter is optional on the wire: an empty query validates.
      expect(v.safeParse(operation.query!, {}).success, operation.id).toBe(true)
    }
  })
})
