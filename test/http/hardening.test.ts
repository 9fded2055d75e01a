/**
 * What the host hands the pipeline is checked, not trusted: a malformed principal or an ApiError
 * with a code outside the table is a loud 500 (to `onError`), never a silent grant or a 200; and
 * every response forbids MIME sniffing.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import {
  ApiError,
  createMemoryStore,
  createPublicApi,
  InvalidPrincipalError,
  operations,
  type ErrorCode,
  type KeyResolver,
} from 'tenant-public-api'
import { toNodeHandler } from 'tenant-public-api/node'
import { raw, sampleOf, setup, snapshot, TENANT } from './fixture.js'
import type { Reply } from 'tenant-public-api/testing'

const good = { tenantId: TENANT, keyId: 'k1', scopes: ['tickets.read'], actor: { id: 'u1', name: 'Ada' } }

/** A resolver that answers every token with `principal`, whatever its type. */
const resolving = (principal: unknown): KeyResolver => (() => principal) as unknown as KeyResolver

describe('principals are validated at the boundary', () => {
  it.each([
    ['scopes as a string (a substring would match)', { ...good, scopes: 'tickets.readXX' }],
    ['scopes holding a non-string', { ...good, scopes: ['tickets.read', 7] }],
    ['no tenantId', { ...good, tenantId: undefined }],
    ['an empty tenantId', { ...good, tenantId: '' }],
    ['a numeric tenantId', { ...good, tenantId: 42 }],
    ['no keyId', { ...good, keyId: undefined }],
    ['no actor', { ...good, actor: undefined }],
    ['an actor without a name', { ...good, actor: { id: 'u1' } }],
    ['a rateLimit of zero', { ...good, rateLimit: { limit: 0, windowMs: 1000 } }],
    ['a rateLimit with a fractional window', { ...good, rateLimit: { limit: 5, windowMs: 0.5 } }],
    ['a string', 'tenant-a'],
    ['true', true],
  ])('%s: 500 INTERNAL_ERROR, reported to onError as InvalidPrincipalError, nothing served', async (_l, value) => {
    const { h, errors, store } = await setup({ keyResolver: resolving(value) })
    const before = await snapshot(store)
    for (const operation of operations) {
      const sample = sampleOf(operation)
      const result = await h.call(operation.method, sample.path, { body: sample.body })
      expect(result.status, operation.id).toBe(500)
      expect(result.body).toEqual({
        error: 'An unexpected error occurred',
        code: 'INTERNAL_ERROR',
        requestId: result.headers.get('x-request-id'),
      })
    }
    expect(errors).toHaveLength(operations.length)
    for (const { error } of errors) expect(error).toBeInstanceOf(InvalidPrincipalError)
    expect(await snapshot(store)).toEqual(before)
  })

  it('says which field is wrong without echoing its value', async () => {
    const { h, errors } = await setup({ keyResolver: resolving({ ...good, tenantId: 'sk_live_SECRET', keyId: 3 }) })
    await h.call<Reply<'listTickets'>>('GET', '/tickets')
    const error = errors[0]?.error as InvalidPrincipalError
    expect(error.message).toContain('keyId')
    expect(error.message).not.toContain('sk_live_SECRET')
  })

  it('names each wrong field and the kind it expects, never the value, whatever the value is', async () => {
    const cases: Array<[unknown, string]> = [
      ['tpa_4fQk9Zx1SeCrEtKeY', '(the principal): expected an object'],
      [{ ...good, keyId: 987_654_321 }, 'keyId: expected a string'],
      [{ ...good, tenantId: '' }, 'tenantId: expected a non-empty string'],
      [{ ...good, scopes: 'tpa_scope_SeCrEt' }, 'scopes: expected an array'],
      [{ ...good, scopes: ['tickets.read', 424_242] }, 'scopes.1: expected a string'],
      [
        { ...good, rateLimit: { limit: 0.123_456, windowMs: -31_337 } },
        'rateLimit.limit: expected a whole number; rateLimit.limit: expected a positive number; ' +
          'rateLimit.windowMs: expected a positive number',
      ],
    ]
    for (const [value, problems] of cases) {
      const { h, errors } = await setup({ keyResolver: resolving(value) })
      await h.call<Reply<'listTickets'>>('GET', '/tickets')
      const { message } = errors[0]!.error as InvalidPrincipalError
      expect(message).toBe(`keyResolver returned an invalid principal: ${problems}`)
      for (const echoed of ['SeCrEt', '987654321', '424242', '0.123456', '31337']) expect(message).not.toContain(echoed)
    }
  })

  it('ignores scopes it does not know and fields beyond the principal (keys shared with other services)', async () => {
    const shared = { ...good, scopes: ['billing.admin', 'tickets.read'], plan: 'gold', createdAt: new Date() }
    const { h } = await setup({ keyResolver: resolving(shared) })
    expect((await h.call('GET', '/tickets')).status).toBe(200)
    const denied = await h.call<Reply<'listCompanies'>>('GET', '/companies')
    expect(denied.status).toBe(403)
    expect(denied.body.details).toEqual({ requiredScopes: ['companies.read'] })
  })

  it('null and undefined stay an unknown key: 401', async () => {
    for (const value of [null, undefined]) {
      const { h, errors } = await setup({ keyResolver: resolving(value) })
      expect((await h.call('GET', '/tickets')).status).toBe(401)
      expect(errors).toEqual([])
    }
  })
})

describe('an ApiError with a code outside the table', () => {
  const unknownCode = () => new ApiError('TEAPOT' as ErrorCode, 'I am a teapot', { secret: 'x' })

  it('thrown by a keyResolver or store is a 500 INTERNAL_ERROR with its request id, reported to onError', async () => {
    const fromResolver = await setup({
      keyResolver: () => {
        throw unknownCode()
      },
    })
    const store = createMemoryStore()
    const fromStore = await setup({
      store: new Proxy(store, {
        get: (target, property, receiver) =>
          property === 'list'
            ? async () => {
                throw unknownCode()
              }
            : Reflect.get(target, property, receiver),
      }),
    })
    for (const { h, errors } of [fromResolver, fromStore]) {
      const result = await h.call<Reply<'listCompanies'>>('GET', '/companies', {
        headers: { 'x-request-id': 'req-teapot' },
      })
      expect(result.status).toBe(500)
      expect(result.body).toEqual({
        error: 'An unexpected error occurred',
        code: 'INTERNAL_ERROR',
        requestId: 'req-teapot',
      })
      expect(result.headers.get('x-request-id')).toBe('req-teapot')
      expect(errors.map((e) => (e.error as ApiError).code)).toEqual(['TEAPOT'])
    }
  })

  it('is the same 500 with its request id through the Node mount', async () => {
    const api = createPublicApi({
      store: createMemoryStore(),
      keyResolver: () => {
        throw unknownCode()
      },
      onError: () => undefined,
    })
    const server = createServer(toNodeHandler(api))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const response = await fetch(`http://127.0.0.1:${port}/api/public/v1/companies`, {
        headers: { authorization: 'Bearer k', 'x-request-id': 'req-node' },
      })
      expect(response.status).toBe(500)
      expect(response.headers.get('x-request-id')).toBe('req-node')
      expect(await response.json()).toEqual({
        error: 'An unexpected error occurred',
        code: 'INTERNAL_ERROR',
        requestId: 'req-node',
      })
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('a known code thrown by a keyResolver reaches the client as written (its message is public)', async () => {
    const { h, errors } = await setup({
      keyResolver: () => {
        throw new ApiError('UNAUTHORIZED', 'This key was revoked', undefined, {
          'www-authenticate': 'Bearer error="invalid_token"',
        })
      },
    })
    const result = await h.call<Reply<'listTickets'>>('GET', '/tickets')
    expect(result.status).toBe(401)
    expect(result.body.error).toBe('This key was revoked')
    expect(errors).toEqual([])
  })
})

describe('X-Content-Type-Options: nosniff', () => {
  it('is on every response: operations, errors, 404, 405, OPTIONS, HEAD, openapi.json and the docs page', async () => {
    const { api, key } = await setup()
    const auth = { authorization: `Bearer ${key}` }
    const requests = [
      ...operations.map((operation) => {
        const sample = sampleOf(operation)
        return raw(sample.path, {
          method: operation.method,
          headers: { ...auth, 'content-type': 'application/json' },
          ...(sample.body === undefined ? {} : { body: JSON.stringify(sample.body) }),
        })
      }),
      raw('/tickets'),
      raw('/tickets', { headers: { ...auth, cookie: 'a=b' } }),
      raw(`/${'<script>'.repeat(10)}`, { headers: auth }),
      raw('/tickets', { method: 'PUT', headers: auth }),
      raw('/tickets', { method: 'OPTIONS', headers: auth }),
      raw('/tickets', { method: 'HEAD', headers: auth }),
      raw('/tickets?limit=0', { headers: auth }),
      raw('/openapi.json'),
      raw('/docs'),
    ]
    for (const request of requests) {
      const response = await api(request)
      expect(response.headers.get('x-content-type-options'), `${request.method} ${request.url}`).toBe('nosniff')
    }
  })

  it('a 405 repeats at most 200 characters of the method', async () => {
    const { api, key } = await setup()
    const method = `X${'Y'.repeat(10_000)}`
    const response = await api(raw('/tickets', { method, headers: { authorization: `Bearer ${key}` } }))
    expect(response.status).toBe(405)
    expect((await response.text()).length).toBeLessThan(600)
  })

  it('a 404 repeats at most 200 characters of an unknown path', async () => {
    const { api, key } = await setup()
    const response = await api(raw(`/${'a'.repeat(100_000)}`, { headers: { authorization: `Bearer ${key}` } }))
    expect(response.status).toBe(404)
    expect((await response.text()).length).toBeLessThan(500)
  })
})
