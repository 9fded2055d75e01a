/**
 * createApiKeys when its store fails (docs/api-keys.md): an unreachable store while resolving is a
 * 503 like any store read, a failed `lastUsedAt` write never refuses a valid key (and goes to
 * `onError`), and bad options are refused when given.
 */
import { describe, expect, it, vi } from 'vitest'
import {
  createApiKeys,
  createMemoryStore,
  createPublicApi,
  memoryRateLimiter,
  type Store,
  StoreUnavailableError,
} from 'tenant-public-api'
import { createHarness, type Reply } from 'tenant-public-api/testing'

/** `base` whose `method` throws what `make` returns, every other method untouched. */
function failing(base: Store, method: keyof Store, make: () => unknown): Store {
  return new Proxy(base, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown
      if (typeof value !== 'function') return value
      if (property !== method) return value.bind(target)
      return async () => {
        throw make()
      }
    },
  })
}

const api = (store: Store, keyResolver: ReturnType<typeof createApiKeys>['keyResolver']) =>
  createPublicApi({
    store,
    keyResolver,
    rateLimiter: memoryRateLimiter({ limit: 1_000, windowMs: 60_000 }),
    onError: () => undefined,
  })

describe('createApiKeys and a failing store', () => {
  it('answers 503 SERVICE_UNAVAILABLE when the key cannot be read, and 200 once it can', async () => {
    const store = createMemoryStore()
    const { key } = await createApiKeys(store).create({ tenantId: 't1', name: 'k', scopes: ['tickets.read'] })
    const broken = failing(store, 'findApiKeyByHash', () => new StoreUnavailableError(new Error('down')))
    const down = await createHarness(api(broken, createApiKeys(broken).keyResolver), { key }).call<
      Reply<'listTickets'>
    >('GET', '/tickets')
    expect(down.status).toBe(503)
    expect(down.body.code).toBe('SERVICE_UNAVAILABLE')
    const up = await createHarness(api(store, createApiKeys(store).keyResolver), { key }).call<Reply<'listTickets'>>(
      'GET',
      '/tickets',
    )
    expect(up.status).toBe(200)
  })

  it('serves a valid key when its lastUsedAt write fails, and tells onError of the failure', async () => {
    const store = createMemoryStore()
    const { key, apiKey } = await createApiKeys(store).create({ tenantId: 't1', name: 'k', scopes: ['tickets.read'] })
    const failure = new StoreUnavailableError(new Error('down'))
    const broken = failing(store, 'updateApiKey', () => failure)
    const reported: unknown[] = []
    const keys = createApiKeys(broken, { onError: (error) => reported.push(error) })
    const h = createHarness(api(broken, keys.keyResolver), { key })
    expect((await h.call('GET', '/tickets')).status).toBe(200)
    expect((await store.getApiKey(apiKey.id))?.lastUsedAt).toBeNull()
    expect(reported).toEqual([failure])
  })

  it('writes a failed lastUsedAt write on one stderr line by default, and drops what onError throws', async () => {
    const store = createMemoryStore()
    const { key } = await createApiKeys(store).create({ tenantId: 't1', name: 'k', scopes: ['tickets.read'] })
    const broken = failing(store, 'updateApiKey', () => new Error('disk\nfull'))
    const written: string[] = []
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void written.push(args.join(' ')))
    try {
      const plain = createHarness(api(broken, createApiKeys(broken).keyResolver), { key })
      expect((await plain.call('GET', '/tickets')).status).toBe(200)
      expect(written).toEqual(['[tenant-public-api] createApiKeys: a lastUsedAt write failed: disk full'])
      const throwing = createApiKeys(broken, {
        onError: () => {
          throw new Error('logger down')
        },
      })
      expect((await createHarness(api(broken, throwing.keyResolver), { key }).call('GET', '/tickets')).status).toBe(200)
      expect(written[1]).toContain('createApiKeys onError failed, its failure dropped: Error: logger down')
    } finally {
      spy.mockRestore()
    }
  })

  it('does not cache a read that began before a revoke in the same process', async () => {
    const store = createMemoryStore()
    let release!: () => void
    let arrive!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const arrived = new Promise<void>((resolve) => (arrive = resolve))
    const gated = new Proxy(store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown
        if (typeof value !== 'function') return value
        if (property !== 'findApiKeyByHash') return value.bind(target)
        return async (...args: unknown[]) => {
          const read = await value.apply(target, args)
          arrive()
          await gate
          return read
        }
      },
    })
    const keys = createApiKeys(gated)
    const { key, apiKey } = await keys.create({ tenantId: 't1', name: 'k', scopes: ['tickets.read'] })
    const h = createHarness(api(gated, keys.keyResolver), { key })
    const during = h.call<Reply<'listTickets'>>('GET', '/tickets')
    await arrived
    await keys.revoke(apiKey.id)
    const after = h.call<Reply<'listTickets'>>('GET', '/tickets')
    release()
    // The request that began before the revoke may be served; none after it is.
    expect([200, 401]).toContain((await during).status)
    expect((await after).status).toBe(401)
    expect((await h.call('GET', '/tickets')).status).toBe(401)
  })

  it('refuses a store without the key methods, and bad options, when given', async () => {
    const { findApiKeyByHash: _gone, ...partial } = createMemoryStore()
    expect(() => createApiKeys(partial as unknown as Store)).toThrow(/API key methods/)
    expect(() => createApiKeys(createMemoryStore(), { prefix: '' })).toThrow(/prefix/)
    expect(() => createApiKeys(createMemoryStore(), { cacheTtlMs: 1.5 })).toThrow(/cacheTtlMs/)
    // @ts-expect-error: onError is a function
    expect(() => createApiKeys(createMemoryStore(), { onError: 'log' })).toThrow(/onError/)
    const keys = createApiKeys(createMemoryStore())
    const { apiKey } = await keys.create({ tenantId: 't1', name: 'k', scopes: ['tickets.read'] })
    await expect(keys.roll(apiKey.id, { expireOldAfterMs: -1 })).rejects.toThrow(/expireOldAfterMs/)
    expect((await keys.list('t1')).map((k) => k.id)).toEqual([apiKey.id])
  })
})
