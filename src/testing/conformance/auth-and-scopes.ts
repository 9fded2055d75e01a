/**
 * Registry-driven: for every operation, its success path, 401s, the 403 of a key holding every
 * other scope, `X.write` granting `X.read`, and the 404s of unknown, foreign and malformed ids.
 * `authAndScopes` holds the store-independent checks, `operationsEndToEnd` those that reach the store.
 */
import { describe, expect, it } from 'vitest'
import { SCOPES, type Scope } from '../../http/auth.js'
import { grantingScopes } from '../../model/scopes.js'
import type { AnyOperation } from '../../http/operation.js'
import { operations } from '../../operations/index.js'
import type { ErrorBody } from '../../http/errors.js'
import type { CallResult, Harness } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { writableSeed, type FixtureIds } from './fixtures.js'
import { hasIdParam, hasUuidId, sampleBody, samplePath, SAMPLES, writes } from './samples.js'

function expectSuccess(operation: AnyOperation, result: CallResult<AnyReply>): void {
  expect(result.status, JSON.stringify(result.body)).toBe(operation.successStatus)
  if (operation.method === 'DELETE') expect(result.body).toEqual({ message: expect.any(String) })
  else expect(result.body.data).toBeDefined()
}

/** An id no fixture tenant has, of the operation's id kind. */
function unknownId(operation: AnyOperation): string {
  return hasUuidId(operation) ? '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f' : 'no-such-record'
}

/**
 * Registers the store-independent registry tests: for every operation the success of a key with
 * only its scope (and of its `.write` sibling), 401s, 403, and 404 for a malformed uuid. They run
 * once per test run (`runHttpConformance`), not per store.
 *
 * @example
 * describe('http', () => { const ctx = createConformanceContext(options); authAndScopes(ctx) })
 */
export function authAndScopes(ctx: ConformanceContext): void {
  registryTests(ctx, 'http')
}

/**
 * Registers the registry tests that exercise the store: every operation end to end with a key
 * holding every scope, and 404 for unknown ids and for another tenant's ids.
 *
 * @example
 * describe('my-store', () => { const ctx = createConformanceContext(options); operationsEndToEnd(ctx) })
 */
export function operationsEndToEnd(ctx: ConformanceContext): void {
  registryTests(ctx, 'store')
}

/** Any operation's answer: its `data` (a DELETE's `message`), or the Error shape. */
type AnyReply = Partial<ErrorBody> & { data?: unknown; message?: string }
type Call = (
  h: Harness,
  ids: FixtureIds,
  options?: { key?: string | null; id?: string },
) => Promise<CallResult<AnyReply>>

function registryTests(ctx: ConformanceContext, part: 'http' | 'store'): void {
  describe(
    part === 'http' ? 'every operation of the registry: auth and scopes' : 'every operation of the registry',
    () => {
      if (part === 'http')
        it('has a sample request in the suite (a new route is covered once it has one)', () => {
          const missing = operations
            .filter((operation) => SAMPLES[operation.id] === undefined)
            .map((operation) => operation.id)
          expect(missing).toEqual([])
          expect(operations.length).toBeGreaterThanOrEqual(21)
        })

      for (const operation of operations) {
        const call: Call = (h, ids, options = {}) =>
          h.call<AnyReply>(operation.method, samplePath(operation, ids, options.id), {
            ...sampleBody(operation),
            ...(options.key === undefined ? {} : { key: options.key }),
          })
        describe(`${operation.method} ${operation.path} (${operation.id})`, () => {
          if (part === 'http') httpTests(ctx, operation, call)
          else storeTests(ctx, operation, call)
        })
      }
    },
  )
}

/** A tenant the call may change: a fresh one for writes, else fixture tenant A. */
async function target(ctx: ConformanceContext, operation: AnyOperation, scopes: readonly Scope[] | '*' = '*') {
  if (!writes(operation)) return { h: ctx.client(ctx.a.tenantId, scopes), ids: ctx.a.ids }
  const { tenantId } = await ctx.fresh(writableSeed('a'))
  return { h: ctx.client(tenantId, scopes), ids: ctx.a.ids }
}

function httpTests(ctx: ConformanceContext, operation: AnyOperation, call: Call): void {
  const extra = SAMPLES[operation.id]?.scopes ?? []
  it(`succeeds with a key holding only ${[operation.scope, ...extra].join(', ')}`, async () => {
    const { h, ids } = await target(ctx, operation, [operation.scope, ...extra])
    expectSuccess(operation, await call(h, ids))
  })

  const sibling = grantingScopes(operation.scope)[1]
  if (sibling !== undefined) {
    it(`accepts ${sibling} in place of ${operation.scope}`, async () => {
      const { h, ids } = await target(ctx, operation, [sibling, ...extra])
      expectSuccess(operation, await call(h, ids))
    })
  }

  it('answers 401 UNAUTHORIZED without a key', async () => {
    const result = await call(ctx.a.h, ctx.a.ids, { key: null })
    expect(result.status).toBe(401)
    expect(result.body.code).toBe('UNAUTHORIZED')
    expect(result.headers.get('www-authenticate')).toMatch(/^Bearer/)
  })

  it('answers 401 UNAUTHORIZED with an unknown key', async () => {
    const result = await call(ctx.a.h, ctx.a.ids, { key: 'not-a-known-key' })
    expect(result.status).toBe(401)
    expect(result.body.code).toBe('UNAUTHORIZED')
  })

  it(`answers 403 INSUFFICIENT_SCOPE to a key with every scope but ${operation.scope}`, async () => {
    const others = SCOPES.filter((scope) => scope !== operation.scope && scope !== sibling)
    const result = await call(ctx.client(ctx.a.tenantId, others), ctx.a.ids)
    expect(result.status).toBe(403)
    expect(result.body.code).toBe('INSUFFICIENT_SCOPE')
    expect(result.body.details).toEqual({ requiredScopes: [operation.scope] })
  })

  // A malformed uuid fails the path's schema, before any store call.
  if (hasUuidId(operation)) {
    it('answers 404 NOT_FOUND for a malformed uuid', async () => {
      for (const bad of ['not-a-uuid', '12345', `${ctx.a.ids.budget}0`, ctx.a.ids.budget.replaceAll('-', '')]) {
        const result = await call(ctx.a.h, ctx.a.ids, { id: bad })
        expect(result.status, bad).toBe(404)
        expect(result.body.code).toBe('NOT_FOUND')
      }
    })
  }
}

function storeTests(ctx: ConformanceContext, operation: AnyOperation, call: Call): void {
  it('succeeds with a key holding every scope', async () => {
    const { h, ids } = await target(ctx, operation)
    expectSuccess(operation, await call(h, ids))
  })

  if (!hasIdParam(operation)) return
  it('answers 404 NOT_FOUND for an unknown id', async () => {
    const result = await call(ctx.a.h, ctx.a.ids, { id: unknownId(operation) })
    expect(result.status).toBe(404)
    expect(result.body.code).toBe('NOT_FOUND')
  })

  it('answers another tenant’s id exactly like an unknown id', async () => {
    // Writes go to a fresh pair of tenants, so that a leak cannot corrupt the shared fixtures.
    const pair = writes(operation)
      ? { a: (await ctx.fresh(writableSeed('a'))).h, b: await ctx.fresh(writableSeed('b')) }
      : { a: ctx.a.h, b: null }
    const unknown = await call(pair.a, ctx.a.ids, { id: unknownId(operation) })
    const foreign = await call(pair.a, ctx.b.ids)
    expect(foreign.status).toBe(404)
    expect({ code: foreign.body.code, error: foreign.body.error, details: foreign.body.details }).toEqual({
      code: unknown.body.code,
      error: unknown.body.error,
      details: unknown.body.details,
    })
    // The foreign record is still there for its own tenant.
    if (pair.b !== null) expectSuccess(operation, await call(pair.b.h, ctx.b.ids))
  })
}
