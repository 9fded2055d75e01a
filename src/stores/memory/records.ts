/**
 * The memory store's record methods: `get` and `list` of any collection, from its definition, and
 * the named writes of the port, each recording its events in the same synchronous step.
 */
import { budgetLineItems, budgets } from '../../model/budgets.js'
import { companies } from '../../model/companies.js'
import { trainingEnrollments } from '../../model/training.js'
import type { Store } from '../../ports/store.js'
import type { Doc } from './collection.js'
import { record, recordChanges, statesOf } from './sync.js'
import { type TenantData, tenantDefinition } from './tenant.js'

/** The methods of the port that read and write records. */
export type RecordMethods = Pick<
  Store,
  | 'get'
  | 'list'
  | 'updateBudget'
  | 'addBudgetLineItem'
  | 'deleteTrainingEnrollment'
  | 'replaceVersioned'
  | 'findCompanies'
>

/**
 * What another part of the store does in the same step as the insert of a record, by collection name
 * (a webhook endpoint's dispatch row: src/stores/memory/webhooks.ts).
 */
export type InsertCompanions = Readonly<Partial<Record<string, (tenantId: string, id: string) => void>>>

/**
 * The record methods over `tenants` (`tenant` makes one when a write needs it), inserting with `companions`.
 *
 * @example
 * const store = { ...memoryRecordMethods(tenants, tenant, EVENT_RETENTION_MS, webhooks.companions), ... }
 */
export function memoryRecordMethods(
  tenants: ReadonlyMap<string, TenantData>,
  tenant: (tenantId: string) => TenantData,
  retentionMs: number,
  companions: InsertCompanions = {},
): RecordMethods {
  const budgetsDefinition = tenantDefinition(budgets)
  return {
    async get(collection, tenantId, id, request) {
      const t = tenants.get(tenantId)
      const entry = t?.collection(collection).find(id)
      if (t === undefined || entry === undefined) return null
      return t.answer(tenantDefinition(collection), entry, request) as never
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
      return t.show(budgetsDefinition, t.collection(budgets).byId.get(id)!) as never
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
      const max = collection.maxPerTenant
      if (expectedVersion === null && max !== null && t.collection(collection).byId.size >= max) return false
      const before = statesOf(t, { [collection.name]: [next.id] })
      t.collection(collection).set(structuredClone(next))
      recordChanges(t, before, write, retentionMs)
      if (expectedVersion === null) companions[collection.name]?.(tenantId, next.id)
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
  }
}
