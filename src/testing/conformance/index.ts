/**
 * `tenant-public-api/conformance`: the store conformance suite. Run it (under vitest) against any
 * `Store` to prove that the API behaves on it exactly as the contract says: every store method
 * called directly (lists with every sort and filter against an independent reference, gets,
 * computed fields, compare-and-set writes, idempotency reservations, tenant isolation), then the
 * API over the store: every operation, cursor pagination, versions, idempotency and atomicity under concurrency.
 * The store-independent HTTP checks (authentication, scopes, request validation) run once, in
 * `runHttpConformance`.
 */
import { describe } from 'vitest'
import { createMemoryStore } from '../../stores/memory/memory-store.js'
import { apiKeys } from './api-keys.js'
import { authAndScopes, operationsEndToEnd } from './auth-and-scopes.js'
import { automationRules } from './automation-rules.js'
import { budgets } from './budgets.js'
import { concurrency } from './concurrency.js'
import { createConformanceContext, type ConformanceContext, type ConformanceOptions } from './context.js'
import { cursorPagination } from './cursor-pagination.js'
import { events } from './events.js'
import { idempotency } from './idempotency.js'
import { isolation } from './isolation.js'
import { listsAndOrdering, listWalks } from './lists-and-ordering.js'
import { readResources } from './read-resources.js'
import { removals } from './removals.js'
import { reports } from './reports.js'
import { storeIdempotencyAndIsolation } from './store-idempotency.js'
import { storeLists } from './store-lists.js'
import { storeRecords } from './store-records.js'
import { storeWrites } from './store-writes.js'
import { storeSeedBatches } from './store-seed-batches.js'
import { storeWebhookDispatch } from './store-webhook-dispatch.js'
import { tickets } from './tickets.js'
import { validation, validationAgainstStore } from './validation.js'
import { webhooks } from './webhooks.js'

export type {
  ConformanceContext,
  ConformanceGroups,
  ConformanceOptions,
  CreateStoreWithRetention,
  FixtureTenantHandle,
} from './context.js'
export { fixtureIds, fixtureSeed, writableSeed, type FixtureIds, type FixtureTenant } from './fixtures.js'

/** A part of the suite: registers its `describe`s and `it`s over the shared context. */
export type ConformanceGroup = (ctx: ConformanceContext) => void

/** The store-level groups: each calls the Store's methods directly. */
const STORE_GROUPS: ConformanceGroup[] = [
  storeLists,
  storeRecords,
  storeWrites,
  storeSeedBatches,
  storeIdempotencyAndIsolation,
  storeWebhookDispatch,
]

/** The HTTP groups that reach the store: they run on every store. */
const HTTP_GROUPS: ConformanceGroup[] = [
  operationsEndToEnd,
  listsAndOrdering,
  validationAgainstStore,
  tickets,
  budgets,
  automationRules,
  reports,
  readResources,
  idempotency,
  concurrency,
  isolation,
  apiKeys,
  cursorPagination,
  webhooks,
  removals,
  events,
]

/**
 * The store-independent HTTP groups: they run once per test run, in `runHttpConformance`. The list
 * walks are here because the store-level group walks every sort and filter on every store.
 */
const HTTP_ONLY_GROUPS: ConformanceGroup[] = [authAndScopes, validation, listWalks]

/**
 * Registers the conformance suite for one store, inside `describe(options.name)`: the store-level
 * group (`store`), then the API over the store (`http`); `groups` switches either off. The store is
 * created once (`createStore`) and closed after the suite; every test that writes seeds a fresh
 * tenant, so tests are independent while the store is shared. The retention test runs on stores of
 * `createStoreWithRetention`; without it, it is reported skipped with a note saying why.
 *
 * @example
 * // test/my-store.test.ts
 * import { runStoreConformance } from 'tenant-public-api/conformance'
 * runStoreConformance({
 *   name: 'my-store',
 *   createStore: () => createMyStore(process.env.DATABASE_URL),
 *   createStoreWithRetention: (eventRetentionMs) => createMyStore(process.env.DATABASE_URL, { eventRetentionMs }),
 * })
 * // While debugging, only the store's methods, called directly:
 * runStoreConformance({ name: 'my-store', createStore, groups: { http: false } })
 */
export function runStoreConformance(options: ConformanceOptions): void {
  const groups = [
    ...(options.groups?.store === false ? [] : STORE_GROUPS),
    ...(options.groups?.http === false ? [] : HTTP_GROUPS),
  ]
  describe(options.name, () => {
    const ctx = createConformanceContext(options)
    for (const group of groups) group(ctx)
  })
}

/** Options of {@link runHttpConformance}; every field is optional. */
export interface HttpConformanceOptions extends Partial<Omit<ConformanceOptions, 'groups'>> {}

/**
 * Registers the store-independent HTTP checks (authentication, scopes, request validation) once,
 * by default over the memory store. A host needs it only if it changes the pipeline, not for a
 * store of its own: `runStoreConformance` covers what a store can get wrong.
 *
 * @example
 * // test/http-conformance.test.ts
 * import { runHttpConformance } from 'tenant-public-api/conformance'
 * runHttpConformance()
 */
export function runHttpConformance(options: HttpConformanceOptions = {}): void {
  const { name = 'http (store-independent)', createStore = () => createMemoryStore(), onResponse } = options
  describe(name, () => {
    const ctx = createConformanceContext({ name, createStore, onResponse })
    for (const group of HTTP_ONLY_GROUPS) group(ctx)
  })
}
