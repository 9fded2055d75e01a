/**
 * Demo data: a deterministic, realistic MSP tenant, its id, an API key with every scope, and the
 * resolver for that key.
 *
 * @example
 * import { createDemoData, DEMO_API_KEY, DEMO_TENANT_ID, demoKeyResolver } from 'tenant-public-api/testing'
 * const store = createMemoryStore()
 * await store.seed(DEMO_TENANT_ID, createDemoData())
 * const api = createPublicApi({ store, keyResolver: demoKeyResolver() })
 */
export { createDemoData, DEFAULT_DEMO_SEED, demoAdmin, type DemoData, type DemoDataOptions } from './demo-data.js'
export { DEMO_API_KEY, DEMO_TENANT_ID, demoKeyResolver } from './demo-key.js'
export { DEMO_NOW, lazyArray, type DemoContact, type DemoTicket, type Provider } from './tickets.js'
export type { DemoBudget, DemoLineItem } from './budgets.js'
