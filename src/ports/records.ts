/**
 * The records part of the store port: the records of the collections of `src/model/`, read and
 * written generically, each collection served from its definition (docs/stores.md, "Your own
 * store"). Nothing in it names a collection: what a write needs to know of one (a child's parent and
 * the parent fields it touches, the fields a patch may change) is declared on its definition and
 * checked by src/model/record-writes.ts. Every write records its events in the same transaction.
 */
import type { NamesNeed } from '../model/collection-view.js'
import type { CollectionParent } from '../model/collection.js'
import type { WriteContext } from '../model/events.js'
import type { AnyCollection, KeyedCollection, SeededCollection } from '../model/index.js'
import type { ListRequest } from '../model/list-request.js'
import type { RemoveIds } from '../model/removal.js'
import type { SeedData } from '../model/seed.js'

/** One page of a list: the items of the requested page and the exact count of all matches. */
export interface ListResult<T> {
  items: T[]
  totalCount: number
}

/** A `{ id, name }` pair. */
export interface NamedRef {
  id: string
  name: string | null
}

/** The record a collection's document holds: what lists return (a report template without its structure). */
export type DocumentOf<C> = C extends { readonly document: (record: never) => infer D } ? D : never

/** Whether a view needs names (then `get` does not apply it: `viewOfGet`, src/model/collection-view.ts). */
type NeedsNames<W> = W extends { readonly needs: infer N }
  ? [Extract<N[keyof N], NamesNeed>] extends [never]
    ? false
    : true
  : false

/**
 * The record as `get` shows it: its collection's `view` applied when it has one that needs no names
 * (a budget's totals), else its document (a rule as stored, for its compare-and-set).
 */
export type Shown<C> = C extends { readonly view: infer W extends { show(record: never, needs: never): unknown } }
  ? NeedsNames<W> extends true
    ? DocumentOf<C>
    : ReturnType<W['show']>
  : DocumentOf<C>

/** The fields the parts of a collection fill (a ticket's `notes`, a template's `templateStructure`). */
export type PartField<C> = C extends { readonly parts: Readonly<Record<string, { readonly field: infer F }>> }
  ? F & string
  : never

type SeededOf<C> = C extends { readonly document: (record: infer S) => unknown } ? S : never

/** The parts a `get` may add, by field: each present only when asked for. */
export type Included<C> = { [F in PartField<C> & keyof SeededOf<C>]?: SeededOf<C>[F] }

/**
 * What a `get` adds to the record: the parts kept apart (the collection's `parts`), by the field each
 * fills. A number keeps at most that many of a list part's first items (a ticket's notes, stored
 * newest first), `true` the whole part. Parts not asked for are absent from the record.
 *
 * @example
 * await store.get(tickets, tenantId, '1042', { include: { notes: 25 } })
 */
export interface GetRequest<C = KeyedCollection> {
  readonly include?: [PartField<C>] extends [never] ? never : { readonly [F in PartField<C>]?: number | true }
}

/**
 * A collection replaced by compare-and-set on its records' `version` (automation rules, reports,
 * webhook endpoints): those whose records carry a numeric `version` (kept in a `version` column).
 */
export type VersionedCollection = Extract<
  KeyedCollection,
  { readonly document: (record: never) => { readonly version: number } }
>

/**
 * A collection kept under another's records (budget line items under budgets): what `addChild` adds
 * to, its definition's `parent` saying where.
 */
export type ChildCollection = Extract<AnyCollection, { readonly parent: CollectionParent }>

/**
 * A collection whose records carry a `name`, the field `findNames` reads (as a view's names need
 * does: `NamesNeed`, src/model/collection-view.ts): companies, report types, planner item types, ...
 */
export type NamedCollection = Extract<
  SeededCollection,
  { readonly document: (record: never) => { readonly name: string | null } }
>

/**
 * The fields `patch` is given: any of the document's but `id`. Which of them a collection allows is
 * its definition's `patchable`; any other is a `TypeError` (src/model/record-writes.ts).
 */
export type RecordPatch<C> = { readonly [F in Exclude<keyof DocumentOf<C>, 'id'>]?: DocumentOf<C>[F] }

/**
 * Options of `store.seed(tenantId, data, options)`.
 *
 * @example
 * await store.seed(tenantId, bigLoad, { events: false })
 */
export interface SeedOptions {
  /**
   * Record an event for every record the seed creates or changes (default true). An initial bulk
   * load may pass false: it is then written without reading what was there before.
   */
  events?: boolean
}

/**
 * The records part of the {@link Store}: reads of any collection from its definition, the generic
 * writes the API makes (each recording its events, with the actor and request of `write`, in the
 * same transaction as the change), and the host's `seed` and `remove`. Every method is tenant-scoped.
 * A write the definition does not allow (`patch` of a field not in `patchable`, `addChild` to a
 * collection without a parent, `delete` or `patch` of a child collection) rejects with a `TypeError`.
 *
 * @example
 * const store: Store = { ...createMemoryStore(), ...myRecords } // records of your own, the other parts ours
 */
export interface RecordsPort {
  /**
   * The record `id` of `collection` as reads show it (its `view` applied to the record and the needs
   * the view declares, gathered by the store; a view that needs names is not applied: `viewOfGet`),
   * with the parts `request.include` asks for; null when
   * there is none. A collection with a `lookup` column falls back, when no record has the id, to the
   * record with the smallest id whose lookup column equals it (a ticket by its number).
   */
  get<C extends KeyedCollection>(
    collection: C,
    tenantId: string,
    id: string,
    request?: GetRequest<C>,
  ): Promise<(Shown<C> & Included<C>) | null>
  /**
   * A page of `collection`'s documents that match `request`'s filters (each compares its column as
   * the definition says; a null column never matches) and search (a case-insensitive substring of a
   * search column, in which `%`, `_` and `\` match themselves), in `request.order`: strings by code
   * point, nulls last in both directions, ties by `id` ascending. With `after`, the first `limit`
   * records strictly after it (`page` ignored), found by seeking; `totalCount` counts every match.
   */
  list<C extends KeyedCollection>(
    collection: C,
    tenantId: string,
    request: ListRequest,
  ): Promise<ListResult<DocumentOf<C>>>
  /**
   * Applies the supplied fields of `patch` (each one of the definition's `patchable`; `null` clears)
   * and sets `updatedAt`; returns the record as `get` shows it, or null when there is none. Its
   * event is the change, as for any write.
   */
  patch<C extends SeededCollection>(
    collection: C,
    tenantId: string,
    id: string,
    patch: RecordPatch<C>,
    updatedAt: string,
    write?: WriteContext,
  ): Promise<Shown<C> | null>
  /**
   * Appends a complete `item` to the children of the record `parentId` of the child's parent
   * collection (`child.parent`), and sets the parent's fields its `touches` name from the item (a
   * budget's `updatedAt` from the item's `createdAt`), in one transaction; records the item's
   * `created` event. False when there is no such parent record.
   */
  addChild<C extends ChildCollection>(
    child: C,
    tenantId: string,
    parentId: string,
    item: DocumentOf<C>,
    write?: WriteContext,
  ): Promise<boolean>
  /**
   * Deletes the record `id` of `collection` (and its children), recording its `deleted` event;
   * false when there was no such record.
   */
  delete<C extends SeededCollection>(
    collection: C,
    tenantId: string,
    id: string,
    write?: WriteContext,
  ): Promise<boolean>
  /** Those of `ids` that are records of `collection`, as `{ id, name }`, in any order. */
  findNames<C extends NamedCollection>(collection: C, tenantId: string, ids: readonly string[]): Promise<NamedRef[]>
  /**
   * Compare-and-set: stores `record` only if the stored record's `version` is `expectedVersion`;
   * false otherwise (or when it is gone). `expectedVersion` null stores a new record (its id is
   * fresh): true, unless the collection's `maxPerTenant` records are there already (counted and
   * inserted in one atomic step): false. A new webhook endpoint starts its dispatch in the same step.
   */
  replaceVersioned<C extends VersionedCollection>(
    collection: C,
    tenantId: string,
    record: DocumentOf<C>,
    expectedVersion: number | null,
    write?: WriteContext,
  ): Promise<boolean>
  /**
   * Loads records of one tenant, in the response shapes of the contract (see {@link SeedData}).
   * Derived fields are recomputed whatever the seed says; seeding an id again replaces the record, and
   * an id given twice in one batch keeps its last copy (`normalizeSeed` drops the others). Records
   * an event for every record it creates or changes, unless `options.events` is false.
   */
  seed(tenantId: string, data: SeedData, options?: SeedOptions): Promise<void>
  /**
   * Removes records of one tenant, in one transaction (how a host mirrors deletions): `ids` keyed
   * like seed data. Unknown ids are ignored; removing a budget removes its line items. Throws a
   * `TypeError` (validate with `normalizeRemoval`) for a key that is not a seed key.
   */
  remove(tenantId: string, ids: RemoveIds): Promise<void>
}
