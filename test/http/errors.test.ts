import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  createMemoryStore,
  createPublicApi,
  operations,
  StoreUnavailableError,
  type Store,
  type ErrorBody,
} from 'tenant-public-api'
import { testKeyResolver, type Reply } from 'tenant-public-api/testing'
import { errorBody, failingStore, IDS, raw, sampleOf, seedData, setup, snapshot, TENANT } from './fixture.js'

const SECRET = 'SELECT * FROM api_keys WHERE secret = \'sk_live_9f8e\' -- relation "budgets" does not exist'

function sqlError(): Error {
  const error = new Error(SECRET)
  error.stack = `Error: ${SECRET}\n    at Client.query (/srv/app/node_modules/pg/lib/client.js:526:17)`
  return error
}

/** A seeded store in which only `method` throws what `make` returns. */
async function storeFailingAt(method: keyof Store, make: () => unknown): Promise<Store> {
  const store = createMemoryStore()
  await store.seed(TENANT, seedData())
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property !== method) return Reflect.get(target, property, receiver)
      return async () => {
        throw make()
      }
    },
  })
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('500 INTERNAL_ERROR', () => {
  it('on every operation, a store error says nothing of its cause; onError gets the error and request id', async () => {
    for (const operation of operations) {
      const cause = sqlError()
      const { h, errors } = await setup({ store: failingStore(createMemoryStore(), () => cause), seed: false })
      const sample = sampleOf(operation)
      const result = await h.call(operation.method, sample.path, { body: sample.body })
      expect(result.status, operation.id).toBe(500)
      expect(result.body).toEqual({
        error: 'An unexpected error occurred',
        code: 'INTERNAL_ERROR',
        requestId: result.headers.get('x-request-id'),
      })
      const text = JSON.stringify(result.body) + JSON.stringify([...result.headers])
      for (const leak of ['SELECT', 'sk_live', 'api_keys', 'node_modules', 'client.js', 'budgets'])
        expect(text).not.toContain(leak)
      expect(errors).toHaveLength(1)
      expect(errors[0]!.error).toBe(cause)
      expect(errors[0]!.requestId).toBe(result.headers.get('x-request-id'))
      expect(result.headers.get('x-ratelimit-limit')).toBeTruthy()
    }
  })

  it.each([
    ['a string', () => 'raw string failure'],
    ['undefined', () => undefined],
    ['null', () => null],
    ['a plain object', () => ({ message: SECRET })],
  ])('whatever is thrown (%s) becomes the same generic 500', async (_label, make) => {
    const { api, key, errors } = await setup({ store: await storeFailingAt('list', make), seed: false })
    const response = await api(raw('/tickets', { headers: { authorization: `Bearer ${key}` } }))
    expect(response.status).toBe(500)
    const body = await errorBody(response)
    expect(body.error).toBe('An unexpected error occurred')
    expect(errors).toHaveLength(1)
  })

  it('a store method that throws synchronously is a 500 too', async () => {
    const store = createMemoryStore()
    const broken = new Proxy(store, {
      get: (target, property, receiver) =>
        property === 'get'
          ? () => {
              throw new RangeError('sync')
            }
          : Reflect.get(target, property, receiver),
    })
    const { h } = await setup({ store: broken })
    expect((await h.call('GET', `/goals/${IDS.goal}`)).status).toBe(500)
  })

  it('an onError that throws does not break the response', async () => {
    const { h } = await setup({
      store: failingStore(createMemoryStore(), sqlError),
      onError: () => {
        throw new Error('logger down')
      },
    })
    const result = await h.call<Reply<'listTickets'>>('GET', '/tickets')
    expect(result.status).toBe(500)
    expect(result.body.code).toBe('INTERNAL_ERROR')
  })

  it('the default onError logs through console.error with the request id', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const store = failingStore(createMemoryStore(), sqlError)
    const api = createPublicApi({ store, keyResolver: testKeyResolver() })
    const response = await api(
      raw('/tickets', { headers: { authorization: 'Bearer test:tenant-a:*', 'x-request-id': 'req-77' } }),
    )
    expect(response.status).toBe(500)
    expect(log).toHaveBeenCalledTimes(1)
    expect(String(log.mock.calls[0]![0])).toContain('req-77')
  })

  it('a failed write stores nothing', async () => {
    const { h, store } = await setup({ store: await storeFailingAt('findNames', sqlError), seed: false })
    const before = await snapshot(store)
    const result = await h.call<Reply<'createAutomationRule'>>('POST', '/automation', {
      body: {
        name: 'R',
        triggerType: 'scheduled',
        triggerConfig: {},
        entityType: 'ticket',
        conditions: [],
        actions: [],
        scopeType: 'company',
        companyIds: [IDS.company],
      },
    })
    expect(result.status).toBe(500)
    expect(await snapshot(store)).toEqual(before)
  })

  it('ApiErrors are not reported to onError', async () => {
    const { h, errors } = await setup()
    await h.call<Reply<'listTickets'>>('GET', '/tickets?page=0')
    await h.call('GET', `/goals/00000000-0000-4000-8000-00000000dead`)
    await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: null })
    expect(errors).toEqual([])
  })
})

describe('503 SERVICE_UNAVAILABLE', () => {
  it('a store that throws StoreUnavailableError answers 503 with Retry-After and hides the cause', async () => {
    const cause = new Error('connect ECONNREFUSED 10.1.2.3:5432')
    const { h, errors } = await setup({
      store: failingStore(createMemoryStore(), () => new StoreUnavailableError(cause)),
      seed: false,
    })
    for (const operation of operations) {
      const sample = sampleOf(operation)
      const result = await h.call<ErrorBody>(operation.method, sample.path, { body: sample.body })
      expect(result.status, operation.id).toBe(503)
      expect(result.body.code).toBe('SERVICE_UNAVAILABLE')
      expect(JSON.stringify(result.body)).not.toContain('ECONNREFUSED')
      expect(Number(result.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    }
    expect(errors).toHaveLength(operations.length)
    expect((errors[0]!.error as Error).cause).toBe(cause)
  })
})
