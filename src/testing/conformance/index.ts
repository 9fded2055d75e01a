/**
 * `tenant-public-api/conformance`: the store conformance suite. Run it (under vitest) against any
 * `Store` to prove that the API behaves on it exactly as the contract says: every operation,
 * ordering and tie rules, filters, search escaping, computed fields, tenant isolation, versions,
 * idempotency and atomicity under concurrency.
 */
import { describe } from 'vitest'
import { authAndScopes } from './auth-and-scopes.js'
import { automationRules } from './automation-rules.js'
import { budgets } from './budgets.js'
import { concurrency } from './concurrency.js'
import { createConformanceContext, type ConformanceOptions } from './context.js'
import { events } from './events.js'
import { idempotency } from './idempotency.js'
import { isolation } from './isolation.js'
import { listsAndOrdering } from './lists-and-ordering.js'
import { readResources } from './read-resources.js'
import { removals } from './removals.js'
import { reports } from './reports.js'
import { tickets } from './tickets.js'
import { validation } from './validation.js'

export type { ConformanceContext, ConformanceOptions, FixtureTenantHandle } from './context.js'
export { fixtureIds, fixtureSeed, writableSeed, type FixtureIds, type FixtureTenant } from './fixtures.js'

/**
 * Registers the whole conformance suite for one store, inside `describe(options.name)`. The store
 * is created once (`createStore`) and closed after the suite; every test that writes seeds a
 * fresh tenant, so tests are independent while the store is shared.
 *
 * @example
 * // test/my-store.test.ts
 * import { runStoreConformance } from 'tenant-public-api/conformance'
 * runStoreConformance({ name: 'my-store', createStore: () => createMyStore(process.env.DATABASE_URL) })
 */
export function runStoreConformance(options: ConformanceOptions): void {
  describe(options.name, () => {
    const ctx = createConformanceContext(options)
    authAndScopes(ctx)
    listsAndOrdering(ctx)
    validation(ctx)
    tickets(ctx)
    budgets(ctx)
    automationRules(ctx)
    reports(ctx)
    readResources(ctx)
    idempotency(ctx)
    concurrency(ctx)
    isolation(ctx)
    removals(ctx)
    events(ctx, options.createStoreWithRetention)
  })
}
