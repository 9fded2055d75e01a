/**
 * The in-memory store: the reference implementation of the store port, for tests, demos and
 * single-process hosts. Records are deep-frozen when written, so reads hand them out without
 * copying; every write is synchronous between awaits, so each method is atomic. Every read is
 * derived from the collection definitions of `src/model/` (collection.ts: orders, filters, search,
 * lookups; tenant.ts: parts, children and views; sync.ts: seeding, removal and their events), so
 * nothing in it names a collection. The store is composed of one object per part of the port
 * (src/ports/store.ts): records (records.ts), the events feed, idempotency, API keys and webhooks.
 */
import { checkOptions, is, type OptionChecks } from '../../model/options.js'
import type { SeedData } from '../../model/seed.js'
import type { EventFeedPort } from '../../ports/event-feed.js'
import type { Store } from '../../ports/store.js'
import { EVENT_RETENTION_MS, EventLog } from '../event-feed.js'
import { memoryApiKeyMethods } from './api-keys.js'
import { memoryIdempotencyMethods } from './idempotency.js'
import { memoryRecords } from './records.js'
import { seedTenant } from './sync.js'
import { TenantData } from './tenant.js'
import { memoryWebhookMethods } from './webhooks.js'

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Records to load into tenants on creation: `{ [tenantId]: SeedData }`. */
  seed?: Record<string, SeedData>
  /** How long events are kept (default 30 days); older ones are pruned as events are added. */
  eventRetentionMs?: number
}

// `seed`'s tenants are checked as any seed is (src/model/seed.ts).
const CHECKS: OptionChecks<MemoryStoreOptions> = { seed: is.object, eventRetentionMs: is.integer(1) }

/** The in-memory store, with `seed` for loading data. */
export type MemoryStore = Store

/** Each memory store's tenants, for {@link forkMemoryTenant}. */
const TENANTS = new WeakMap<MemoryStore, Map<string, TenantData>>()

/**
 * A new memory store holding a copy of `base`'s tenant `from` as its tenant `to`, made without
 * copying records: the two share the frozen records and each collection's maps until either writes
 * there, when the writer copies that collection's maps for itself (src/stores/memory/tenant.ts,
 * `fork`). Nothing written to one, removed from it, or appended to its events feed reaches the
 * other; the tenant's idempotency keys are copied, and the new store has no webhooks and no API
 * keys. Not part of the public surface: the testing kit forks the demo tenant it seeds once per
 * process (src/testing/test-api.ts).
 *
 * @example
 * const copy = forkMemoryTenant(base, DEMO_TENANT_ID, 'tenant-a')
 */
export function forkMemoryTenant(
  base: MemoryStore,
  from: string,
  to: string,
  options?: MemoryStoreOptions,
): MemoryStore {
  const tenants = TENANTS.get(base)
  if (tenants === undefined) throw new TypeError('forkMemoryTenant: base is not a memory store')
  const copy = createMemoryStore(options)
  const tenant = tenants.get(from)
  if (tenant !== undefined) TENANTS.get(copy)!.set(to, tenant.fork())
  return copy
}

/**
 * A store that keeps everything in this process's memory. Fast and exact; data is lost when the
 * process ends and is not shared between processes.
 *
 * @example
 * const store = createMemoryStore()
 * await store.seed('tenant-1', { companies: [{ id, name: 'Acme', status: 'active', createdAt, updatedAt }] })
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  checkOptions(options, CHECKS, { name: 'createMemoryStore' })
  const tenants = new Map<string, TenantData>()
  const tenant = (id: string): TenantData => {
    let data = tenants.get(id)
    if (data === undefined) {
      data = new TenantData()
      tenants.set(id, data)
    }
    return data
  }
  const retentionMs = options.eventRetentionMs ?? EVENT_RETENTION_MS

  for (const [tenantId, data] of Object.entries(options.seed ?? {}))
    seedTenant(tenant(tenantId), data, true, retentionMs)

  const webhooks = memoryWebhookMethods((tenantId) => tenants.get(tenantId)?.feed.lastPosition ?? 0, tenants)
  const store: MemoryStore = {
    ...memoryRecords(tenants, tenant, retentionMs, webhooks.companions),
    ...memoryEventFeed(tenants, retentionMs),
    ...memoryIdempotencyMethods(
      (tenantId) => tenant(tenantId).idempotency,
      (tenantId) => tenants.get(tenantId)?.idempotency,
    ),
    ...memoryApiKeyMethods(),
    ...webhooks.methods,
    async close() {
      tenants.clear()
      webhooks.clear()
    },
  }
  TENANTS.set(store, tenants)
  return store
}

/** The events feed part: each tenant's feed, pruned as it is read (the records part appends to it). */
function memoryEventFeed(tenants: ReadonlyMap<string, TenantData>, retentionMs: number): EventFeedPort {
  return {
    async listEvents(tenantId, query) {
      const t = tenants.get(tenantId)
      if (t === undefined) return new EventLog().page(query)
      t.feed.prune(new Date(), retentionMs)
      return t.feed.page(query)
    },
  }
}
