/**
 * One tenant of the memory store: a {@link Collection} per keyed collection of `COLLECTIONS`,
 * the records of each child collection (budget line items) by their parent's id, and what a read
 * shows of a record: its view applied to the needs its definition declares, gathered from these maps.
 * Nothing here names a collection: everything is read from the definitions (src/model/).
 */
import {
  type AnyCollectionView,
  columnOf,
  type CountNeed,
  namedIds,
  type Names,
  type NamesNeed,
  type ViewNeed,
  viewOfGet,
} from '../../model/collection.js'
import { COLLECTIONS, KEYED_COLLECTIONS, type KeyedCollection } from '../../model/index.js'
import type { GetRequest } from '../../ports/store.js'
import { deepFreeze } from '../../model/frozen-records.js'
import { EventLog } from '../event-feed.js'
import { definitionOf, type ErasedDefinition } from '../typed-records.js'
import { Collection, type Doc, type Entry, type MemoryDefinition } from './collection.js'
import type { IdempotencyEntry } from './idempotency.js'

/** A collection kept under another's records (its `parent`): budget line items under budgets. */
type ChildCollection = Extract<(typeof COLLECTIONS)[number], { readonly parent: { readonly field: string } }>

/** The child collections, as `{ name, parent }`. */
const CHILD_COLLECTIONS: readonly ChildCollection[] = COLLECTIONS.filter((c): c is ChildCollection => c.parent !== null)

/**
 * The children of each collection's records: for each parent's name, its child collections' names
 * and the parent record field that seeds them (a budget's `lineItems`).
 */
const CHILDREN_OF = new Map<string, readonly { name: string; field: string }[]>(
  KEYED_COLLECTIONS.map((definition) => [
    definition.name,
    CHILD_COLLECTIONS.filter((child) => child.parent.collection === definition.name).map((child) => ({
      name: child.name,
      field: child.parent.field,
    })),
  ]),
)

/** A definition as the tenant reads it beside what its collection reads: parts, view, and seeding. */
type TenantDefinition = MemoryDefinition &
  Pick<ErasedDefinition, 'parts' | 'document'> & {
    readonly view: AnyCollectionView | null
  }

/** A collection's definition as this file reads it. */
export function tenantDefinition(collection: KeyedCollection): TenantDefinition {
  return definitionOf(collection)
}

/** Each view's needs as entries, made once per view. */
const needEntries = new WeakMap<object, readonly (readonly [string, ViewNeed])[]>()

/** The data of one tenant. */
export class TenantData {
  private readonly collections = new Map<string, Collection>()
  /** For each child collection's name, the frozen documents of each parent's children, oldest first. */
  private readonly children = new Map<string, Map<string, readonly Doc[]>>()
  readonly idempotency = new Map<string, IdempotencyEntry>()
  readonly feed: EventLog

  /** An empty tenant, or a fork of `base`: see {@link fork}. */
  constructor(base?: TenantData) {
    for (const definition of KEYED_COLLECTIONS) {
      // What only the API writes (webhook endpoints) is not forked: its dispatch state stays with its store.
      const found = definition.seed === null ? undefined : base?.collections.get(definition.name)
      this.collections.set(
        definition.name,
        found === undefined ? new Collection(tenantDefinition(definition)) : found.fork(),
      )
    }
    for (const child of CHILD_COLLECTIONS) {
      // Copied, not shared: addChild appends in place. A parent's children are few, the parents few too.
      const found = base?.children.get(child.name)
      this.children.set(child.name, new Map([...(found ?? [])].map(([id, items]) => [id, [...items]])))
    }
    for (const [key, entry] of base?.idempotency ?? []) this.idempotency.set(key, { ...entry })
    this.feed = base === undefined ? new EventLog() : base.feed.fork()
  }

  /**
   * A copy of this tenant that neither this one's later writes nor its own reach the other: its
   * collections share their maps until written ({@link Collection.fork}), the events and frozen
   * records are shared (the events are frozen first), the children and idempotency keys copied.
   * The collections hosts do not seed (webhook endpoints) start empty.
   */
  fork(): TenantData {
    return new TenantData(this)
  }

  /** The collection of `definition` (any collection kept by id). */
  collection(definition: { readonly name: string }): Collection {
    return this.collections.get(definition.name)!
  }

  /** The children of `parentId` in the child collection `name`, oldest first. */
  childrenOf(name: string, parentId: string): readonly Doc[] {
    return this.children.get(name)!.get(parentId) ?? []
  }

  /** Replaces the children of `parentId` in `name` (frozen, in order); null forgets them. */
  private setChildren(name: string, parentId: string, items: readonly Doc[] | null): void {
    if (items === null) this.children.get(name)!.delete(parentId)
    else this.children.get(name)!.set(parentId, items)
  }

  /** Stores a seeded record of `definition`: its document, its parts, and its children (copied and frozen). */
  store(definition: TenantDefinition, seeded: Record<string, unknown> & Doc): void {
    const partDefinitions = Object.entries(definition.parts)
    let parts: Record<string, unknown> | null = null
    if (partDefinitions.length > 0) {
      parts = {}
      for (const [column, part] of partDefinitions) parts[column] = part.read(seeded)
    }
    this.collection(definition).set(definition.document(seeded), parts)
    for (const child of CHILDREN_OF.get(definition.name) ?? []) {
      const items = (seeded[child.field] as readonly Doc[] | undefined) ?? []
      this.setChildren(
        child.name,
        seeded.id,
        items.map((item) => deepFreeze(structuredClone(item))),
      )
    }
  }

  /**
   * Appends a child to `parentId`'s in `name` (a frozen copy): kept beside the parent rather than in
   * it, so adding one costs O(1), not a copy and re-freeze of the parent with all its children.
   */
  addChild(name: string, parentId: string, item: Doc): void {
    const all = this.children.get(name)!
    const items = all.get(parentId) as Doc[] | undefined
    const added = deepFreeze(structuredClone(item))
    if (items === undefined) all.set(parentId, [added])
    else items.push(added)
  }

  /** Removes a record of `definition` and its children; false when it was not there. */
  remove(definition: { readonly name: string }, id: string): boolean {
    for (const child of CHILDREN_OF.get(definition.name) ?? []) this.setChildren(child.name, id, null)
    return this.collection(definition).delete(id)
  }

  /** The record as `get` shows it: the view `get` applies to its document and needs, else the document. */
  show(definition: TenantDefinition, entry: Entry): Doc {
    const view = viewOfGet(definition.view)
    if (view === null) return entry.record
    const needs: Record<string, unknown> = {}
    for (const [name, need] of entriesOf(view)) needs[name] = this.gather(need, entry.record)
    return view.show(entry.record, needs) as Doc
  }

  /** The record as a `get` answers it: shown, with the parts `request` includes. */
  answer(definition: TenantDefinition, entry: Entry, request: GetRequest | undefined): Doc {
    const shown = this.show(definition, entry)
    const include = request?.include as Readonly<Record<string, number | true | undefined>> | undefined
    if (include === undefined || entry.parts === null) return shown
    let answer: Record<string, unknown> | null = null
    for (const [column, part] of Object.entries(definition.parts)) {
      const wanted = include[part.field]
      if (wanted === undefined) continue
      const value = entry.parts[column]
      answer ??= { ...shown }
      answer[part.field] = wanted === true || !Array.isArray(value) ? value : value.slice(0, wanted)
    }
    return (answer as Doc | null) ?? shown
  }

  /** The record as seeded: its document with its parts and children in their fields (change detection's state). */
  seeded(definition: TenantDefinition, entry: Entry): Record<string, unknown> {
    const children = CHILDREN_OF.get(definition.name) ?? []
    if (entry.parts === null && children.length === 0) return entry.record as Record<string, unknown>
    const full: Record<string, unknown> = { ...entry.record }
    for (const [column, part] of Object.entries(definition.parts)) full[part.field] = entry.parts?.[column]
    for (const child of children) full[child.field] = this.childrenOf(child.name, entry.id)
    return full
  }

  /** One need of a view for `record`. */
  gather(need: ViewNeed, record: Doc): unknown {
    if ('names' in need) return this.names(need, namedIds(need, record))
    const id = record.id
    return 'children' in need ? this.childrenOf(need.children.name, id) : this.count(need, id)
  }

  /** The names of the records of the need's collection among `ids`. */
  names(need: NamesNeed, ids: readonly string[]): Names {
    const out = new Map<string, string | null>()
    const named = this.collection(need.names)
    for (const id of ids) {
      const found = named.get(id)
      if (found !== undefined)
        out.set(id, ((found as { name?: string | null }).name as string | null | undefined) ?? null)
    }
    return out
  }

  /** How many records of the need's collection have its column equal to `id`. */
  count(need: CountNeed, id: string): number {
    const { read } = columnOf(definitionOf(need.count), need.by)
    let n = 0
    for (const { record } of this.collection(need.count).byId.values()) if (read(record) === id) n += 1
    return n
  }
}

function entriesOf(view: AnyCollectionView): readonly (readonly [string, ViewNeed])[] {
  let found = needEntries.get(view)
  if (found === undefined) needEntries.set(view, (found = Object.entries(view.needs)))
  return found
}
