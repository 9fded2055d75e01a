/**
 * The in-memory store: the reference implementation of the store port, for tests, demos and
 * single-process hosts. Records are deep-frozen when written, so reads hand them out without
 * copying; every write is synchronous between awaits, so each method is atomic. Every read is
 * derived from the collection definitions of `src/model/` (collection.ts: orders, filters, search,
 * lookups; tenant.ts: parts, children and views; sync.ts: seeding, removal and their events), so
 * only the named writes below name a collection.
 */
import { budgetLineItems, budgets } from '../../model/budgets.js'
import { trainingEnrollments } from '../../model/training.js'
import { companies } from '../../model/companies.js'
import { normalizeRemoval } from '../../model/removal.js'
import type { SeedData } from '../../model/seed.js'
import type { Store } from '../../ports/store.js'
import { EVENT_RETENTION_MS, EventLog } from '../event-feed.js'
import { memoryApiKeyMethods } from './api-keys.js'
import { memoryIdempotencyMethods } from './idempotency.js'
import { record, recordChanges, removeFromTenant, seedTenant, statesOf } from './sync.js'
import type { Doc } from './collection.js'
import { TenantData, tenantSpec } from './tenant.js'
import { memoryWebhookMethods } from './webhooks.js'

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Records to load into tenants on creation: `{ [tenantId]: SeedData }`. */
  seed?: Record<string, SeedData>
  /** How long events are kept (default 30 days); older ones are pruned as events are added. */
  eventRetentionMs?: number
}

/** The in-memory store, with `seed` for loading data. */
export type MemoryStore = Store

/**
 * A store that keeps everything in this process's memory. Fast and exact; data is lost when the
 * process ends and is not shared between processes.
 *
 * @example
 * const store = createMemoryStore()
 * await store.seed('tenant-1', { companies: [{ id, name: 'Acme', status: 'active', createdAt, updatedAt }] })
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
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

  const webhooks = memoryWebhookMethods((tenantId) => tenants.get(tenantId)?.feed.lastPosition ?? 0)
  const budgetSpec = tenantSpec(budgets)
  const store: MemoryStore = {
    ...webhooks.methods,

    async get(collection, tenantId, id, request) {
      const t = tenants.get(tenantId)
      const entry = t?.collection(collection).find(id)
      if (t === undefined || entry === undefined) return null
      return t.answer(tenantSpec(collection), entry, request) as never
    },

    async list(collection, tenantId, request) {
      const t = tenants.get(tenantId)
      if (t === undefined) return { items: [], totalCount: 0 }
      return t.collection(collection).list(request) as never
    },

    async updateBudget(tenantId, id, patch, updatedAt, write) {
      const t = tenants.get(tenantId)
      const current = t?.collection(budgets).get(id)
      if (t === undefined || current === undefined) return null
      const before = statesOf(t, { budgets: [id] })
      t.collection(budgets).set({ ...current, ...patch, updatedAt } as Doc)
      recordChanges(t, before, write, retentionMs)
      return t.show(budgetSpec, t.collection(budgets).byId.get(id)!) as never
    },

    async addBudgetLineItem(tenantId, budgetId, item, write) {
      const t = tenants.get(tenantId)
      const current = t?.collection(budgets).get(budgetId)
      if (t === undefined || current === undefined) return false
      t.collection(budgets).set({ ...current, updatedAt: item.createdAt } as Doc)
      t.addChild(budgetLineItems.name, budgetId, item)
      const object = structuredClone(item) as unknown as Record<string, unknown>
      const resource = { type: 'budget_line_item', id: item.id } as const
      record(t, [{ type: 'budget_line_item.created', resource, object, previous: null }], write, retentionMs)
      return true
    },

    async deleteTrainingEnrollment(tenantId, id, write) {
      const t = tenants.get(tenantId)
      if (t === undefined || !t.collection(trainingEnrollments).delete(id)) return false
      const resource = { type: 'training_enrollment', id } as const
      record(t, [{ type: 'training_enrollment.deleted', resource, object: null, previous: null }], write, retentionMs)
      return true
    },

    async replaceVersioned(collection, tenantId, next, expectedVersion, write) {
      const stored = tenants.get(tenantId)?.collection(collection).get(next.id) as { version?: number } | undefined
      if (expectedVersion !== null && stored?.version !== expectedVersion) return false
      const t = tenant(tenantId)
      const before = statesOf(t, { [collection.name]: [next.id] })
      t.collection(collection).set(structuredClone(next))
      recordChanges(t, before, write, retentionMs)
      return true
    },

    async findCompanies(tenantId, ids) {
      const found = tenants.get(tenantId)?.collection(companies)
      if (found === undefined) return []
      return ids.flatMap((id) => {
        const company = found.get(id) as { id: string; name: string } | undefined
        return company ? [{ id: company.id, name: company.name }] : []
      })
    },

    ...memoryIdempotencyMethods(
      (tenantId) => tenant(tenantId).idempotency,
      (tenantId) => tenants.get(tenantId)?.idempotency,
    ),

    ...memoryApiKeyMethods(),

    async seed(tenantId, data, seedOptions) {
      seedTenant(tenant(tenantId), data, seedOptions?.events ?? true, retentionMs)
    },

    async remove(tenantId, ids) {
      const t = tenants.get(tenantId)
      // Validated even when the tenant has nothing: a wrong key is a mistake either way.
      if (t === undefined) normalizeRemoval(ids)
      else removeFromTenant(t, ids, retentionMs)
    },

    async listEvents(tenantId, query) {
      const t = tenants.get(tenantId)
      if (t === undefined) return new EventLog().page(query)
      t.feed.prune(new Date(), retentionMs)
      return t.feed.page(query)
    },

    async close() {
      tenants.clear()
      webhooks.clear()
    },
  }
  return store
}
