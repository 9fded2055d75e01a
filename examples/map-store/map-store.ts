/**
 * A store of your own, written against the package's public names only (docs/stores.md, "Your own
 * store"). It implements the records part of the port (`RecordsPort`): the records of every
 * collection are kept here, in Maps, and read and written from the collection definitions alone:
 * `get` (lookup column, parts, view needs), `list` (filters, search, order, pages and cursors), the
 * generic writes (`patch`, `addChild`, `delete`, `findNames`, `replaceVersioned`), `seed` and
 * `remove`. Nothing below names a collection but the webhook endpoints, whose deletion is the webhook
 * part's (below).
 *
 * Every other part (the events feed, idempotency, API keys, webhooks) is `createMemoryStore()`'s. Its
 * feed records the events of the writes made to the memory store's own records, computed there from
 * the record before and after (its view, the names and counts it shows), so each write here is made
 * to the memory store too: first (it checks the call, refusing what the definition does not allow
 * with the `TypeError` every store gives, and records the event), then to the Maps. The memory store
 * thus holds a second copy of every record, and a write and its event are not one step with the
 * Maps' copy: this store is an example of the records part, not of a database. A store on a database
 * implements the feed too, recording each write's events in the write's transaction.
 * `test/conformance/third-party.test.ts` runs the exported conformance suite on it.
 */
import {
  type AnyCollectionView,
  type ColumnValue,
  columnOf,
  compareCodePoints,
  compareKeysets,
  createMemoryStore,
  type ListFilter,
  foldCase,
  foldedValue,
  type GetRequest,
  keysetOf,
  type ListRequest,
  normalizeRemoval,
  normalizeSeed,
  SEEDED_COLLECTIONS,
  type Store,
  type RecordsPort,
  type KeyedCollection,
  type NamesNeed,
  type ViewNeed,
  viewOfGet,
  webhookEndpoints,
} from 'tenant-public-api'

/** A record as seeded: its document, with its parts and children in their fields. */
type Seeded = Record<string, unknown> & { id: string }

/** What this file reads of any definition (each is one of `KEYED_COLLECTIONS`). */
interface Definition {
  name: string
  columns: readonly { name: string; read: (record: never) => ColumnValue }[]
  document: (record: Seeded) => Seeded
  parts: Readonly<Record<string, { field: string; read: (record: Seeded) => unknown }>>
  lookup: string | null
  filters: Readonly<Record<string, ListFilter>>
  search: { columns: readonly string[] } | null
  view: AnyCollectionView | null
}
const definitionOf = (collection: KeyedCollection) => collection as unknown as Definition

const read = (definition: Definition, column: string) =>
  columnOf(definition as never, column).read as (r: Seeded) => ColumnValue

/** The records of every tenant, as seeded, by tenant, collection and id; and what reads make of them. */
class MapRecords {
  private readonly tenants = new Map<string, Map<string, Map<string, Seeded>>>()

  /** The records of one collection of one tenant (made empty when there are none). */
  of(tenantId: string, name: string): Map<string, Seeded> {
    let tenant = this.tenants.get(tenantId)
    if (tenant === undefined) this.tenants.set(tenantId, (tenant = new Map()))
    let held = tenant.get(name)
    if (held === undefined) tenant.set(name, (held = new Map()))
    return held
  }

  /** The record with this id or, failing that, the smallest id whose lookup column holds it. */
  find(definition: Definition, tenantId: string, id: string): Seeded | undefined {
    const held = this.of(tenantId, definition.name)
    const found = held.get(id)
    if (found !== undefined || definition.lookup === null) return found
    const lookup = read(definition, definition.lookup)
    const ids = [...held.values()].filter((r) => lookup(definition.document(r)) === id).map((r) => r.id)
    return held.get(ids.sort(compareCodePoints)[0] ?? '')
  }

  /** The record as reads show it: its view over the needs its definition declares, with the parts asked for. */
  shown(definition: Definition, tenantId: string, seeded: Seeded, request?: GetRequest): Seeded {
    let record = structuredClone(definition.document(seeded))
    // The view `get` applies: a versioned collection's (rules, reports) is shown by its writes instead.
    const view = viewOfGet(definition.view)
    if (view !== null) {
      const needs = Object.entries(view.needs).map(([name, need]) => [name, this.gather(tenantId, seeded, need)])
      record = view.show(record, Object.fromEntries(needs)) as Seeded
    }
    const include = (request?.include ?? {}) as Record<string, number | true | undefined>
    for (const part of Object.values(definition.parts)) {
      const wanted = include[part.field]
      if (wanted === undefined) continue
      const value = structuredClone(part.read(seeded))
      record[part.field] = wanted === true || !Array.isArray(value) ? value : value.slice(0, wanted)
    }
    return record
  }

  /** A page of the documents the request keeps, in its order (ties by id), from its page or after its cursor. */
  list(definition: Definition, tenantId: string, request: ListRequest): { items: Seeded[]; totalCount: number } {
    const kept = [...this.of(tenantId, definition.name).values()]
      .map((seeded) => definition.document(seeded))
      .filter((doc) => matches(definition, request, doc))
      .map((doc) => ({ doc, at: keysetOf(definition as never, request.order, doc as never) }))
      .sort((a, b) => compareKeysets(request.order, a.at, b.at))
    const { after } = request
    const start =
      after === undefined
        ? (request.page - 1) * request.limit
        : kept.filter((entry) => compareKeysets(request.order, entry.at, after) <= 0).length
    const items = kept.slice(start, start + request.limit).map((entry) => structuredClone(entry.doc))
    return { items, totalCount: kept.length }
  }

  clear(): void {
    this.tenants.clear()
  }

  /** One need of a view: the children kept in the record's field, or a count of another collection. */
  private gather(tenantId: string, seeded: Seeded, need: Exclude<ViewNeed, NamesNeed>): unknown {
    if ('children' in need) return structuredClone(seeded[need.children.parent!.field] ?? [])
    const counted = definitionOf(need.count as KeyedCollection)
    const by = read(counted, need.by)
    return [...this.of(tenantId, counted.name).values()].filter((r) => by(counted.document(r)) === seeded.id).length
  }
}

/** Whether a document passes the request's filters and search. */
function matches(definition: Definition, request: ListRequest, doc: Seeded): boolean {
  for (const [name, value] of Object.entries(request.filters)) {
    const filter = definition.filters[name]!
    const x = read(definition, filter.column)(doc)
    if (filter.op === 'equals' && x !== value) return false
    if (filter.op === 'equalsFolded' && foldedValue(x) !== foldedValue(value)) return false
    if (filter.op === 'atLeast' && (x === null || x < value)) return false
    if (filter.op === 'atMost' && (x === null || x > value)) return false
  }
  if (request.search === undefined || definition.search === null) return true
  const term = foldCase(request.search)
  return definition.search.columns.some((column) => foldedValue(read(definition, column)(doc))?.includes(term) === true)
}

/**
 * A store keeping its records in Maps, by tenant, collection and id: its records part, and the
 * memory store's other parts. `eventRetentionMs` is the memory store's, which keeps the events feed.
 *
 * @example
 * const api = createPublicApi({ store: createMapStore(), keyResolver })
 */
export function createMapStore(options: { eventRetentionMs?: number } = {}): Store {
  const rest = createMemoryStore(options)
  const held = new MapRecords()
  const store: Store = {
    ...rest,
    ...mapRecords(held, rest),
    // Webhook endpoints are records like any other (written by `replaceVersioned`); deleting one is the
    // webhook part's, which takes its dispatch state and attempts with it: the Maps' copy goes too.
    async deleteWebhookEndpoint(tenantId, id) {
      held.of(tenantId, webhookEndpoints.name).delete(id)
      return rest.deleteWebhookEndpoint(tenantId, id)
    },
    async close() {
      held.clear()
      await rest.close()
    },
  }
  return store
}

/**
 * The records part over `held`. Each write is made to `rest` (the memory store, whose feed records
 * its events) first, and then here, reading the record afresh: between the awaits another write may
 * have changed it.
 */
function mapRecords(held: MapRecords, rest: Store): RecordsPort {
  const records = (tenantId: string, name: string) => held.of(tenantId, name)
  return {
    async get(collection, tenantId, id, request) {
      const definition = definitionOf(collection)
      const seeded = held.find(definition, tenantId, id)
      return (seeded === undefined ? null : held.shown(definition, tenantId, seeded, request as GetRequest)) as never
    },

    async list(collection, tenantId, request) {
      return held.list(definitionOf(collection), tenantId, request) as never
    },

    async patch(collection, tenantId, id, patch, updatedAt, write) {
      if ((await rest.patch(collection, tenantId, id, patch, updatedAt, write)) === null) return null
      const all = records(tenantId, collection.name)
      const current = all.get(id)
      if (current === undefined) return null // removed meanwhile
      const next = { ...current, ...patch, updatedAt }
      all.set(id, next)
      return held.shown(definitionOf(collection), tenantId, next) as never
    },

    async addChild(child, tenantId, parentId, item, write) {
      if (!(await rest.addChild(child, tenantId, parentId, item, write))) return false
      // The child's definition says where it lives: a field of its parent's records, and what it touches there.
      const { collection, field, touches } = child.parent
      const all = records(tenantId, collection)
      const current = all.get(parentId)
      if (current === undefined) return false // removed meanwhile
      const next: Seeded = { ...current, [field]: [...((current[field] as unknown[]) ?? []), structuredClone(item)] }
      for (const [touched, from] of Object.entries(touches ?? {}))
        next[touched] = (item as Record<string, unknown>)[from]
      all.set(parentId, next)
      return true
    },

    async delete(collection, tenantId, id, write) {
      if (!(await rest.delete(collection, tenantId, id, write))) return false
      records(tenantId, collection.name).delete(id)
      return true
    },

    async findNames(collection, tenantId, ids) {
      const all = records(tenantId, collection.name)
      return ids.flatMap((id) => {
        const found = all.get(id)
        return found === undefined ? [] : [{ id, name: (found.name as string | null | undefined) ?? null }]
      })
    },

    async replaceVersioned(collection, tenantId, record, expectedVersion, write) {
      const all = records(tenantId, collection.name)
      if (expectedVersion !== null && all.get(record.id)?.version !== expectedVersion) return false
      if (!(await rest.replaceVersioned(collection, tenantId, record, expectedVersion, write))) return false
      all.set(record.id, structuredClone(record) as Seeded)
      return true
    },

    async seed(tenantId, data, options) {
      const normalized = normalizeSeed(data) as unknown as Record<string, Seeded[]>
      await rest.seed(tenantId, data, options)
      for (const definition of SEEDED_COLLECTIONS)
        for (const seeded of normalized[definition.name] ?? [])
          records(tenantId, definition.name).set(seeded.id, seeded)
    },

    async remove(tenantId, ids) {
      const removal = normalizeRemoval(ids) as Record<string, string[]>
      await rest.remove(tenantId, ids)
      for (const definition of SEEDED_COLLECTIONS)
        for (const id of removal[definition.name] ?? []) records(tenantId, definition.name).delete(id)
    },
  }
}
