/**
 * A request with `Idempotency-Key` that fails releases its key (docs/api-behaviour.md); when the
 * release fails too, the host's `onError` hears of it and the client's answer is the request's own.
 */
import { describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, type ErrorBody, memoryRateLimiter, type Store } from 'tenant-public-api'
import { createHarness, testKey, testKeyResolver } from 'tenant-public-api/testing'

const TENANT = 'tenant-a'
/** A budget that does not exist: adding a line item to it is a 404 from the handler. */
const NO_BUDGET = '00000000-0000-4000-8000-0000000000ff'
const ITEM = { type: 'Software', description: 'Licences', unitPrice: 10 }

/**
 * `base` whose `releaseIdempotencyKey` rejects with `releaseFailure`; with `handlerFailure`, every
 * method but the key's reservation and release rejects with it, so the handler fails unexpectedly.
 */
function withFailingRelease(base: Store, releaseFailure: Error, handlerFailure?: Error): Store {
  return new Proxy(base, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown
      if (typeof value !== 'function') return value
      if (property === 'releaseIdempotencyKey') return async () => Promise.reject(releaseFailure)
      if (handlerFailure === undefined || property === 'reserveIdempotencyKey') return value.bind(target)
      return async () => Promise.reject(handlerFailure)
    },
  })
}

/** The answer to adding a line item under `key`, and what `onError` received. */
async function addItem(store: Store, key: string) {
  const reported: unknown[] = []
  const api = createPublicApi({
    store,
    keyResolver: testKeyResolver(),
    rateLimiter: memoryRateLimiter({ limit: 1_000, windowMs: 60_000 }),
    onError: (error) => reported.push(error),
  })
  const h = createHarness(api, { key: testKey(TENANT) })
  const reply = await h.call<ErrorBody>('POST', `/budgets/${NO_BUDGET}/items`, {
    body: ITEM,
    headers: { 'idempotency-key': key },
  })
  return { status: reply.status, code: reply.body.code, reported }
}

describe('a failed Idempotency-Key release', () => {
  it('goes to onError, and the client still gets the 404 it would have', async () => {
    const released = await addItem(createMemoryStore(), 'k-1')
    expect(released).toEqual({ status: 404, code: 'NOT_FOUND', reported: [] })
    const failure = new Error('release failed')
    const kept = await addItem(withFailingRelease(createMemoryStore(), failure), 'k-1')
    expect(kept).toEqual({ status: 404, code: 'NOT_FOUND', reported: [failure] })
  })

  it('goes to onError beside the failure of the request itself, which the client sees as a 500', async () => {
    const releaseFailure = new Error('release failed')
    const handlerFailure = new Error('store broke mid-request')
    const store = withFailingRelease(createMemoryStore(), releaseFailure, handlerFailure)
    expect(await addItem(store, 'k-2')).toEqual({
      status: 500,
      code: 'INTERNAL_ERROR',
      reported: [releaseFailure, handlerFailure],
    })
  })
})
