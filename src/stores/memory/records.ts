/**
 * The memory store's records part (src/ports/records.ts): `get` and `list` of any collection, the
 * generic writes, `seed` and `remove`, each derived from the collection's definition and recording
 * its events in the same synchronous step. Nothing here names a collection.
 */
import { type EventDraft, type EventResourceType, changeOf } from '../../model/events.js'
import { checkPatch, checkSeeded, parentOf, touchedBy } from '../../model/record-writes.js'
import { normalizeRemoval } from '../../model/removal.js'
import type { RecordsPort } from '../../ports/records.js'
import { pageOf, shownOf } from '../typed-records.js'
import type { Doc } from './collection.js'
import { record, recordChanges, removeFromTenant, seedTenant, statesOf } from './sync.js'
import { type TenantData, tenantDefinition } from './tenant.js'

/** The resource type of a collection's events, or null when the feed has none. */
const resourceOf = (collection: { readonly event: { readonly resource: string } | null }) =>
  (collection.event?.resource ?? null) as EventResourceType | null

/**
 * What another part of the store does in the same step as the insert of a record, by collection name
 * (a webhook endpoint's dispatch row: src/stores/memory/webhooks.ts).
 */
export type InsertCompanions = Readonly<Partial<Record<string, (tenantId: string, id: string) => void>>>

/**
 * The records part over `tenants` (`tenant` makes one when a write needs it), inserting with `companions`.
 *
 * @example
 * const store = { ...memoryRecords(tenants, tenant, EVENT_RETENTION_MS, webhooks.companions), ... }
 */
export function memoryRecords(
  tenants: ReadonlyMap<string, TenantData>,
  tenant: (tenantId: string) => TenantData,
  retentionMs: number,
  companions: InsertCompanions = {},
): RecordsPort {
  return {
    async get(collection, tenantId, id, request) {
      const t = tenants.get(tenantId)
      const entry = t?.collection(collection).find(id)
      if (t === undefined || entry === undefined) return null
      return shownOf(collection, t.answer(tenantDefinition(collection), entry, request))
    },

    async list(collection, tenantId, request) {
      const t = tenants.get(tenantId)
      if (t === undefined) return { items: [], totalCount: 0 }
      return pageOf(collection, t.collection(collection).list(request))
    },

    async patch(collection, tenantId, id, patch, updatedAt, write) {
      checkPatch(collection, patch)
      const t = tenants.get(tenantId)
      const current = t?.collection(collection).byId.get(id)
      if (t === undefined || current === undefined) return null
      const before = statesOf(t, { [collection.name]: [id] })
      t.collection(collection).set({ ...current.record, ...patch, updatedAt } as Doc, current.parts)
      recordChanges(t, before, write, retentionMs)
      return shownOf(collection, t.show(tenantDefinition(collection), t.collection(collection).byId.get(id)!))
    },

    async addChild(child, tenantId, parentId, item, write) {
      const parent = parentOf(child)
      const parents = tenants.get(tenantId)?.collection({ name: parent.collection })
      const entry = parents?.byId.get(parentId)
      const t = tenants.get(tenantId)
      if (t === undefined || parents === undefined || entry === undefined) return false
      const touched = touchedBy(parent, item)
      if (Object.keys(touched).length > 0) parents.set({ ...entry.record, ...touched }, entry.parts)
      t.addChild(child.name, parentId, item as Doc)
      const type = resourceOf(child)
      const object = structuredClone(item) as Record<string, unknown>
      const draft = type === null ? null : changeOf(type, (item as Doc).id, null, object)
      record(t, draft === null ? [] : [draft], write, retentionMs)
      return true
    },

    async delete(collection, tenantId, id, write) {
      checkSeeded(collection, 'delete')
      const t = tenants.get(tenantId)
      if (t === undefined || !t.remove(collection, id)) return false
      const type = resourceOf(collection)
      const drafts: EventDraft[] =
        type === null ? [] : [{ type: `${type}.deleted`, resource: { type, id }, object: null, previous: null }]
      record(t, drafts, write, retentionMs)
      return true
    },

    async findNames(collection, tenantId, ids) {
      checkSeeded(collection, 'findNames')
      const t = tenants.get(tenantId)
      if (t === undefined) return []
      const names = t.names({ names: collection, field: 'id' }, ids)
      return ids.flatMap((id) => (names.has(id) ? [{ id, name: names.get(id) ?? null }] : []))
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

    async seed(tenantId, data, options) {
      seedTenant(tenant(tenantId), data, options?.events ?? true, retentionMs)
    },

    async remove(tenantId, ids) {
      const t = tenants.get(tenantId)
      // Validated even when the tenant has nothing: a wrong key is a mistake either way.
      if (t === undefined) normalizeRemoval(ids)
      else removeFromTenant(t, ids, retentionMs)
    },
  }
}
