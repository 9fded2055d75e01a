/**
 * What every part of the conformance suite shares: one store per suite (SQL stores are slow to
 * create), one API over it, two read-only fixture tenants seeded once, and fresh tenants for
 * every test that writes, so that tests stay independent while the store is shared.
 */
import { afterAll, beforeAll } from 'vitest'
import { createPublicApi, type PublicApiHandler } from '../../create-public-api.js'
import type { Scope } from '../../http/auth.js'
import { memoryRateLimiter } from '../../http/rate-limit.js'
import type { SeedData } from '../../model/seed.js'
import type { Store } from '../../ports/store.js'
import { createHarness, type CallResult, type Harness } from '../harness.js'
import { testKey, testKeyResolver } from '../keys.js'
import { fixtureIds, fixtureSeed, type FixtureIds } from './fixtures.js'
import { addFixtureWebhooks } from './webhook-fixtures.js'

/** Creates a store of the kind under test whose events expire after `eventRetentionMs` milliseconds. */
export type CreateStoreWithRetention = (eventRetentionMs: number) => Store | Promise<Store>

/** Options of `runStoreConformance`. */
export interface ConformanceOptions {
  /** Names the suite, e.g. `'memory'`, `'sqlite'`, `'postgres'`. */
  name: string
  /** Creates the store under test; called once per suite and closed after it. */
  createStore: () => Store | Promise<Store>
  /**
   * Creates another store of the kind under test whose events expire after `eventRetentionMs`
   * (closed after its test): the suite tests retention and 410 `CURSOR_EXPIRED` on it. Left out (a
   * store that offers no retention), that test is reported skipped, with a note saying why.
   */
  createStoreWithRetention?: CreateStoreWithRetention
  /** Sees every response (our own runs check each against the OpenAPI document). */
  onResponse?: (result: CallResult) => void
  /**
   * Which groups run; both by default. `store` calls the store's methods directly and names each
   * call in its messages (start there when debugging a store); `http` drives the same store
   * through the API (operations end to end, lists, versions, idempotency, concurrency, isolation).
   */
  groups?: ConformanceGroups
}

/** The groups of `runStoreConformance`; a group left out runs. */
export interface ConformanceGroups {
  /** The store-level group: every Store method called directly. Default true. */
  store?: boolean
  /** The HTTP group: the API over the store, for everything that reaches the store. Default true. */
  http?: boolean
}

/** A seeded fixture tenant and a client holding a key with every scope for it. */
export interface FixtureTenantHandle {
  tenantId: string
  ids: FixtureIds
  /** A client whose key has every scope of this tenant. */
  h: Harness
}

/** The shared state the parts of the suite read once `beforeAll` has run. */
export interface ConformanceContext {
  /**
   * `ConformanceOptions.createStoreWithRetention`: undefined when the store offers no retention.
   * Unlike the fields below it is known while tests are registered.
   */
  readonly createStoreWithRetention: CreateStoreWithRetention | undefined
  readonly store: Store
  readonly api: PublicApiHandler
  /** Fixture tenant A, seeded once; tests must not write to it. */
  readonly a: FixtureTenantHandle
  /** Fixture tenant B, seeded once; tests must not write to it. */
  readonly b: FixtureTenantHandle
  /** A client for `tenantId` whose key holds `scopes` (default every scope); `key: null` in a call sends none. */
  client(tenantId: string, scopes?: readonly Scope[] | '*'): Harness
  /** Seeds `data` into a new tenant and returns a client for it. */
  fresh(data: SeedData): Promise<{ tenantId: string; h: Harness }>
  /**
   * A client for `tenantId` of a second API over `store` (e.g. a wrapper of the store under test), created
   * with `publicOrigin` when given, whose requests go to `origin` (default `http://api.test`).
   */
  clientOver(store: Store, tenantId: string, options?: { publicOrigin?: string; origin?: string }): Harness
}

/**
 * A new tenant id, unique across runs, so that a persistent database never mixes runs.
 *
 * @example
 * newTenantId('conformance-a') // 'conformance-a-3f0c…'
 */
export function newTenantId(label = 'tenant'): string {
  return `${label}-${crypto.randomUUID()}`
}

/**
 * Registers the suite's `beforeAll`/`afterAll` and returns the context they fill. Reading a field
 * before `beforeAll` has run throws, which points at a test that reads it at collection time.
 *
 * @example
 * describe('my-store', () => { const ctx = createConformanceContext({ name: 'my-store', createStore }); tickets(ctx) })
 */
export function createConformanceContext(options: ConformanceOptions): ConformanceContext {
  let state: { store: Store; api: PublicApiHandler; a: FixtureTenantHandle; b: FixtureTenantHandle } | undefined
  const ready = () => {
    if (state === undefined) throw new Error('The conformance context is read before beforeAll has run')
    return state
  }
  // The suite makes far more requests per key than any real limit allows; rate limits are not what it tests.
  const apiOver = (store: Store, publicOrigin?: string) =>
    createPublicApi({
      store,
      keyResolver: testKeyResolver(),
      rateLimiter: memoryRateLimiter({ limit: 1_000_000_000, windowMs: 60_000 }),
      ...(publicOrigin === undefined ? {} : { publicOrigin }),
    })
  const client = (tenantId: string, scopes: readonly Scope[] | '*' = '*') =>
    createHarness(ready().api, { key: testKey(tenantId, scopes), onResponse: options.onResponse })

  beforeAll(async () => {
    const store = await options.createStore()
    const api = apiOver(store)
    const a = newTenantId('conformance-a')
    const b = newTenantId('conformance-b')
    await store.seed(a, fixtureSeed('a'))
    await store.seed(b, fixtureSeed('b'))
    await addFixtureWebhooks(store, a, fixtureSeed('a'))
    await addFixtureWebhooks(store, b, fixtureSeed('b'))
    state = {
      store,
      api,
      a: { tenantId: a, ids: fixtureIds('a'), h: undefined! },
      b: { tenantId: b, ids: fixtureIds('b'), h: undefined! },
    }
    state.a.h = client(a)
    state.b.h = client(b)
  })

  afterAll(async () => {
    await state?.store.close()
  })

  return {
    createStoreWithRetention: options.createStoreWithRetention,
    get store() {
      return ready().store
    },
    get api() {
      return ready().api
    },
    get a() {
      return ready().a
    },
    get b() {
      return ready().b
    },
    client,
    async fresh(data) {
      const tenantId = newTenantId()
      await ready().store.seed(tenantId, data)
      await addFixtureWebhooks(ready().store, tenantId, data)
      return { tenantId, h: client(tenantId) }
    },
    clientOver(store, tenantId, over = {}) {
      return createHarness(apiOver(store, over.publicOrigin), {
        key: testKey(tenantId),
        onResponse: options.onResponse,
        ...(over.origin === undefined ? {} : { origin: over.origin }),
      })
    },
  }
}
