/**
 * `Idempotency-Key` on `POST /budgets/{id}/items`: replay of the first response (one item only),
 * 422 for the same key with another body, 409 while the first request is still running, 400 for
 * an invalid key, nothing kept for a failed request, keys scoped to their tenant.
 */
import { describe, expect, it } from 'vitest'
import type { Store } from '../../ports/store.js'
import type { ConformanceContext } from './context.js'
import { MINIMAL_LINE_ITEM, writableSeed } from './fixtures.js'
import type { Reply } from '../harness.js'
import { budgets } from '../../model/index.js'

/**
 * A view of `store` whose `method` waits at a gate until `release()`; `reached` resolves when a
 * call arrives there. Lets a test hold one request in flight without timing guesses.
 */
export function gatedStore(
  store: Store,
  method: keyof Store,
): { store: Store; reached: Promise<void>; release: () => void } {
  let release!: () => void
  let arrive!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const reached = new Promise<void>((resolve) => (arrive = resolve))
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      if (property !== method) return value.bind(target)
      return async (...args: unknown[]) => {
        arrive()
        await gate
        return value.apply(target, args)
      }
    },
  })
  return { store: wrapped, reached, release }
}

/**
 * Registers the idempotency tests.
 *
 * @example
 * idempotency(ctx)
 */
export function idempotency(ctx: ConformanceContext): void {
  describe('Idempotency-Key on line items', () => {
    replaysAndConflicts(ctx)

    keyLimitsAndScope(ctx)
  })
}

/** Registers the tests of key length, failed requests, tenant scope and the store’s reservations. */
function keyLimitsAndScope(ctx: ConformanceContext): void {
  const itemsPath = () => `/budgets/${ctx.a.ids.emptyBudget}/items`
  const count = async (tenantId: string) =>
    (await ctx.store.get(budgets, tenantId, ctx.a.ids.emptyBudget))?.lineItemCount
  it('rejects a key of 256 characters and accepts one of 255', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const long = await h.call<Reply<'createBudgetLineItem'>>('POST', itemsPath(), {
      body: MINIMAL_LINE_ITEM,
      headers: { 'idempotency-key': 'k'.repeat(256) },
    })
    expect([long.status, long.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    expect(await count(tenantId)).toBe(0)
    const limit = await h.call('POST', itemsPath(), {
      body: MINIMAL_LINE_ITEM,
      headers: { 'idempotency-key': 'k'.repeat(255) },
    })
    expect(limit.status).toBe(201)
  })

  it('keeps nothing for a failed request: a retry with the same key runs again', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const headers = { 'idempotency-key': 'after-failure' }
    const failed = await h.call('POST', itemsPath(), {
      body: { ...MINIMAL_LINE_ITEM, categoryId: '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f' },
      headers,
    })
    expect(failed.status).toBe(400)
    expect(await count(tenantId)).toBe(0)
    const fixed = await h.call('POST', itemsPath(), { body: MINIMAL_LINE_ITEM, headers })
    expect(fixed.status).toBe(201)
    expect(fixed.headers.get('idempotent-replayed')).toBeNull()
    const missing = await h.call('POST', `/budgets/0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f/items`, {
      body: MINIMAL_LINE_ITEM,
      headers: { 'idempotency-key': 'missing-budget' },
    })
    expect(missing.status).toBe(404)
    expect(await count(tenantId)).toBe(1)
  })

  it('scopes keys to their tenant', async () => {
    const x = await ctx.fresh(writableSeed('a'))
    const y = await ctx.fresh(writableSeed('a'))
    const headers = { 'idempotency-key': 'shared-key' }
    const fromX = await x.h.call<Reply<'createBudgetLineItem'>>('POST', itemsPath(), {
      body: MINIMAL_LINE_ITEM,
      headers,
    })
    const fromY = await y.h.call<Reply<'createBudgetLineItem'>>('POST', itemsPath(), {
      body: MINIMAL_LINE_ITEM,
      headers,
    })
    expect([fromX.status, fromY.status]).toEqual([201, 201])
    expect(fromY.headers.get('idempotent-replayed')).toBeNull()
    expect(fromY.body.data.id).not.toBe(fromX.body.data.id)
    expect([await count(x.tenantId), await count(y.tenantId)]).toEqual([1, 1])
  })

  it('reserves through the store: a key reserved elsewhere with another fingerprint is 422', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    expect(await ctx.store.reserveIdempotencyKey(tenantId, 'held', 'some-other-request', new Date())).toEqual({
      state: 'reserved',
    })
    const result = await h.call('POST', itemsPath(), {
      body: MINIMAL_LINE_ITEM,
      headers: { 'idempotency-key': 'held' },
    })
    expect(result.status).toBe(422)
    expect(await count(tenantId)).toBe(0)
  })
}

/** Registers the tests of replays, reused keys and keys in flight. */
function replaysAndConflicts(ctx: ConformanceContext): void {
  const itemsPath = () => `/budgets/${ctx.a.ids.emptyBudget}/items`
  const count = async (tenantId: string) =>
    (await ctx.store.get(budgets, tenantId, ctx.a.ids.emptyBudget))?.lineItemCount
  it('replays the first response to a repeat with the same key and body, adding one item only', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const headers = { 'idempotency-key': 'retry-1' }
    const first = await h.call('POST', itemsPath(), { body: MINIMAL_LINE_ITEM, headers })
    const second = await h.call('POST', itemsPath(), { body: MINIMAL_LINE_ITEM, headers })
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    expect(second.status).toBe(201)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(second.body).toEqual(first.body)
    expect(second.headers.get('location')).toBe(first.headers.get('location'))
    expect(await count(tenantId)).toBe(1)
  })

  it('answers the same key with another body 422 IDEMPOTENCY_KEY_REUSED and adds nothing', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const headers = { 'idempotency-key': 'retry-2' }
    expect((await h.call('POST', itemsPath(), { body: MINIMAL_LINE_ITEM, headers })).status).toBe(201)
    const other = await h.call<Reply<'createBudgetLineItem'>>('POST', itemsPath(), {
      body: { ...MINIMAL_LINE_ITEM, unitPrice: 99 },
      headers,
    })
    expect([other.status, other.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED'])
    expect(await count(tenantId)).toBe(1)
  })

  it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first request is in flight, then replays it', async () => {
    const { tenantId } = await ctx.fresh(writableSeed('a'))
    const gated = gatedStore(ctx.store, 'addChild')
    const h = ctx.clientOver(gated.store, tenantId)
    const headers = { 'idempotency-key': 'in-flight' }
    const first = h.call<Reply<'createBudgetLineItem'>>('POST', itemsPath(), { body: MINIMAL_LINE_ITEM, headers })
    await gated.reached
    const concurrent = await ctx
      .client(tenantId)
      .call<Reply<'createBudgetLineItem'>>('POST', itemsPath(), { body: MINIMAL_LINE_ITEM, headers })
    expect([concurrent.status, concurrent.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE'])
    gated.release()
    const done = await first
    expect(done.status).toBe(201)
    const replay = await ctx
      .client(tenantId)
      .call<Reply<'createBudgetLineItem'>>('POST', itemsPath(), { body: MINIMAL_LINE_ITEM, headers })
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.body.data.id).toBe(done.body.data.id)
    expect(await count(tenantId)).toBe(1)
  })
}
