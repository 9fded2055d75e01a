/**
 * What a stored collection is, stated once for every store: its table, the columns kept beside
 * each record's JSON document, and how lists sort, filter and search it. The memory store derives
 * its comparators and predicates from a definition, the SQL store its rows, WHERE and ORDER BY clauses;
 * the migrations test checks every definition against the migrated database. This file depends on no
 * store and no HTTP code, so both may depend on it.
 */
import type { GenericSchema } from 'valibot'
import type { AnyCollectionView } from './collection-view.js'
import { foldCase } from './ordering.js'
import type { Scope } from './scopes.js'
import { completeList, type ListInput, type ListSurface, type SurfaceOf } from './list-surface.js'

export {
  type AnyCollectionView,
  type ChildrenNeed,
  type CollectionView,
  type CountNeed,
  defineView,
  type GetView,
  namedIds,
  type Names,
  type NamesNeed,
  type NeedFor,
  type NeedSource,
  type ViewNeed,
  viewOfGet,
} from './collection-view.js'

/** A column's SQL type, mapped to each engine's own by the migrations. */
export type ColumnType = 'text' | 'real' | 'integer' | 'boolean' | 'bigint'

/** A value a column holds, as read from a record. */
export type ColumnValue = string | number | boolean | null

/** A column copied from each record, for lists to filter, sort or search on. */
export interface ColumnDefinition<D> {
  /** The SQL column. */
  readonly name: string
  readonly type: ColumnType
  readonly nullable: boolean
  /** The record's value (what the SQL row holds and what the memory store compares). */
  readonly read: (record: D) => ColumnValue
  /** The record field this column copies, when it copies one: sorts name fields. */
  readonly field: string | undefined
  /** A case-folded copy is kept too, in `<name>_f`, for case-insensitive equality and search. */
  readonly folded: boolean
}

/** A key column after `tenant_id`: its value is given by the store (`id` by the record). */
export interface KeyColumn {
  readonly name: string
  readonly type: ColumnType
}

/**
 * How a filter compares its column: `equals` (a boolean column compares booleans), `equalsFolded`
 * (the folded copy with the folded value: case-insensitive equality), `atLeast` (>=), `atMost` (<=).
 * A null column never matches.
 */
export type FilterOp = 'equals' | 'equalsFolded' | 'atLeast' | 'atMost'

/** A list query parameter and the column it filters. */
export interface ListFilter {
  readonly column: string
  readonly op: FilterOp
  /**
   * True for a filter of low selectivity (a boolean, a short enum) that has no index of its own:
   * rows are tested one by one along the sort's index. Every other filter column is indexed.
   */
  readonly scan?: boolean
}

/** Search: a case-insensitive substring of any of these columns' folded copies. */
export interface ListSearch {
  readonly columns: readonly string[]
  /** Served by a trigram index (SQLite FTS5, Postgres pg_trgm) rather than a scan of the tenant's rows. */
  readonly trigram: boolean
}

/** One term of an order; ties are always broken by `id` ascending after the last term. */
export interface OrderTerm {
  readonly column: string
  readonly descending: boolean
}

/**
 * A part of the seeded record kept in its own column as JSON text (read whole, never compared): the
 * record field it fills when a read asks for it (`GetRequest.include`, src/ports/store.ts), and its
 * value as stored. A list part (a ticket's notes) is stored in the order reads give its first items.
 */
export interface PartDefinition<S, F extends string = string> {
  readonly field: F
  readonly read: (record: S) => unknown
}

/**
 * An index: its columns in order, `'<column> DESC'` for a descending one. Every index of a tenant's
 * records leads with `tenant_id`.
 */
export type IndexColumns = readonly string[]

/**
 * A collection's place in the events feed (docs/extensions.md, section 3): the resource type its
 * events name, and the scope that reads them (its area's read scope, or `.write` where the area
 * has none).
 */
export interface CollectionEvents {
  readonly resource: string
  readonly readScope: Scope
}

/** Where a collection's records are seeded when it has no seed key of its own: a field of another's records. */
export interface CollectionParent {
  readonly collection: string
  readonly field: string
  /** The parent's fields `store.addChild` sets from the child's (a budget's `updatedAt` from `createdAt`). */
  readonly touches?: Readonly<Record<string, string>>
}

/**
 * The facts of a collection its type keeps literal: its name, events and parent (so that the seed keys,
 * event resource types and read scopes derived from `COLLECTIONS`, src/model/index.ts, are literal
 * unions), its view, the fields its parts fill, and its seed schema (so that the seed types derived
 * from it, `SeedData`, are exact; null for a collection hosts do not seed). Each is the type of the
 * definition's field of that name (`parts`: the fields they fill).
 */
export interface CollectionFacts {
  readonly name: string
  readonly event: CollectionEvents | null
  readonly parent: CollectionParent | null
  readonly view: AnyCollectionView | null
  readonly parts: string
  readonly seed: GenericSchema | null
}

/**
 * A stored collection. `D` is the record as its document holds it (what reads return), `S` the
 * record as seeded when parts of it are kept elsewhere (a ticket's notes, a template's structure),
 * `T` its literal facts ({@link CollectionFacts}).
 */
export interface CollectionDefinition<D, S = D, T extends CollectionFacts = CollectionFacts> {
  /** The collection's name: its key in seed data and in `store.remove` (unless it has a parent or no seed). */
  readonly name: T['name']
  /** Its events, or null when the feed has none (report types are not a resource of the feed). */
  readonly event: T['event']
  /**
   * The collection whose seed records carry this one's records, and in which field (a budget's
   * `lineItems`): it has no seed key of its own and is removed with its parent. Null for a
   * collection seeded under its name.
   */
  readonly parent: T['parent']
  /**
   * The schema of its records as `store.seed` takes them (src/model/seed-schema.ts): lenient where
   * the response schema is strict, less the fields the API computes, with the parts kept apart (a
   * ticket's notes). A collection with a parent is validated by it inside its parent's records.
   * Null when only the API writes it (webhook endpoints): no seed key, and no `store.seed` or `remove`.
   */
  readonly seed: T['seed']
  /** At most this many records per tenant (counted and refused atomically by the versioned insert), or null. */
  readonly maxPerTenant: number | null
  /**
   * The lists inside a seeded record that are not collections of their own (a ticket's notes, a
   * goal's tasks): a seed keeps the last copy of each id in them, as in the collection itself.
   */
  readonly nested: readonly string[]
  readonly table: string
  /** The key after `tenant_id`. */
  readonly key: readonly KeyColumn[]
  /** Columns copied from the document, in order; folded copies follow them in the same order. */
  readonly columns: readonly ColumnDefinition<D>[]
  /** The document of a seeded record (the record itself unless parts are kept apart). */
  readonly document: (record: S) => D
  /** Columns holding parts of the seeded record as JSON text, by column name; each names the field it fills. */
  readonly parts: Readonly<Record<string, PartDefinition<S, T['parts']>>>
  /**
   * A column holding a second key that `get` falls back to when no record has the id asked for: the
   * record with the smallest id whose column equals it (a ticket's number, which can repeat across
   * PSA providers). Null when records are found by id only.
   */
  readonly lookup: string | null
  /** API sort name → column (from `list`). */
  readonly sorts: Readonly<Record<string, string>>
  /** List query parameter → the filter it applies (from `list`). */
  readonly filters: Readonly<Record<string, ListFilter>>
  /** The list's search (from `list`). */
  readonly search: ListSearch | null
  /** The fixed order of a list without sorts (empty when the list has sorts, or no list). */
  readonly order: readonly OrderTerm[]
  /**
   * How its list reads on the wire (src/model/list-surface.ts): its sort parameters and its other query
   * parameters with their parsers, from which the list's query schema derives (`listQuerySchema`).
   */
  readonly list: ListSurface
  /** Every index: an ascending and a descending one per sort column (ties by id), then the others. */
  readonly indexes: readonly IndexColumns[]
  /** What reads show, when they show more or less than the stored record. */
  readonly view: T['view']
  /** The fields `store.patch` may change (a budget's, from its update body); none when empty. */
  readonly patchable: readonly string[]
}

/** What {@link defineCollection} takes: the definition, with defaults, and sorts naming fields. */
export interface CollectionInput<D, S, T extends CollectionFacts, L extends ListInput | undefined> {
  name: T['name']
  table: string
  event: T['event']
  /** Null: hosts do not seed it (only the API writes it). */
  seed: T['seed']
  /** Default: no maximum. */
  maxPerTenant?: number
  /** Default: null (seeded under `name`). */
  parent?: T['parent']
  /** Default: none. */
  nested?: readonly (keyof S & string)[]
  /** Default: `id` (text), read from the record. */
  key?: readonly KeyColumn[]
  columns?: readonly ColumnDefinition<D>[]
  document?: (record: S) => D
  parts?: Record<string, PartDefinition<S, T['parts']>>
  /** Default: none (found by id only). */
  lookup?: string
  /**
   * Default: no list. Its sorts (API sort name → the record field it orders by), default sort and the
   * spelling of its direction, or its fixed order; and its other query parameters (filters, search).
   */
  list?: L
  /** The indexes besides those of the sorts, which are added. */
  indexes?: readonly IndexColumns[]
  /** Default: none (reads return the record as stored). */
  view?: T['view']
  /** Default: none (`store.patch` refuses the collection). */
  patchable?: readonly (keyof D & string)[]
}

/** The key of most collections: the record's `id`. */
export const ID_KEY: readonly KeyColumn[] = [{ name: 'id', type: 'text' }]

/**
 * A column copied from a record field, or computed by `read` when `field` names none.
 *
 * @example
 * column('created_at', 'text', { field: 'createdAt' })
 * column('role_id', 'text', { nullable: true, read: (u: User) => u.role?.id ?? null })
 */
export function column<D>(
  name: string,
  type: ColumnType,
  options: { field?: keyof D & string; read?: (record: D) => ColumnValue; nullable?: boolean; folded?: boolean },
): ColumnDefinition<D> {
  const { field } = options
  const read = options.read ?? (field !== undefined ? (record: D) => record[field] as ColumnValue : undefined)
  if (read === undefined) throw new TypeError(`Column ${name} needs a field or a read function`)
  return { name, type, nullable: options.nullable ?? false, read, field, folded: options.folded ?? false }
}

/**
 * Completes and checks a definition: its list's sorts name record fields and become columns, each with an ascending
 * and a descending index (ties by id); every column a sort, filter, search or order names must
 * exist (folded where compared folded). Curried so that `D` and `S` are given while the name and
 * events stay literal.
 *
 * @example
 * export const companies = defineCollection<Company>()({
 *   name: 'companies',
 *   table: 'companies',
 *   event: { resource: 'company', readScope: 'companies.read' },
 *   seed: seedSchemaOf(CompanySchema), // src/model/seed-schema.ts
 *   columns: [column('name', 'text', { field: 'name' })],
 *   // API sort name → field; `sortBy=name&sortOrder=asc` by default (src/model/list-surface.ts)
 *   list: { sorts: { name: 'name' }, defaultSort: { by: 'name', descending: false }, direction: 'sortOrder' },
 * })
 */
export function defineCollection<D, S = D>() {
  return <
    const N extends string,
    const E extends CollectionEvents | null,
    const P extends CollectionParent | null = null,
    W extends AnyCollectionView | null = null,
    const R extends string = never,
    Z extends GenericSchema | null = GenericSchema,
    const L extends ListInput | undefined = undefined,
  >(
    input: CollectionInput<D, S, { name: N; event: E; parent: P; view: W; parts: R; seed: Z }, L>,
  ): WithList<CollectionDefinition<D, S, { name: N; event: E; parent: P; view: W; parts: R; seed: Z }>, L> =>
    // The surface completeList makes is the one its input's type says (SurfaceOf).
    completeDefinition(input) as WithList<
      CollectionDefinition<D, S, { name: N; event: E; parent: P; view: W; parts: R; seed: Z }>,
      L
    >
}

/** A definition whose list surface keeps the literal types of what it was given (its sort names, its parameters). */
export type WithList<C extends { readonly list: ListSurface }, L> = Omit<C, 'list'> & { readonly list: SurfaceOf<L> }

function completeDefinition<D, S, T extends CollectionFacts>(
  input: CollectionInput<D, S, T, ListInput | undefined>,
): CollectionDefinition<D, S, T> {
  const columns = input.columns ?? []
  const byName = new Map(columns.map((c) => [c.name, c]))
  const need = (name: string, folded = false): string => {
    const found = byName.get(name)
    if (found === undefined) throw new TypeError(`${input.name}: no column ${name}`)
    if (folded && !found.folded) throw new TypeError(`${input.name}: column ${name} keeps no folded copy`)
    return name
  }
  const list = completeList(input.name, input.list, (field) => columns.find((c) => c.field === field)?.name)
  const sorts = list.sorts
  for (const filter of Object.values(list.filters)) need(filter.column, filter.op === 'equalsFolded')
  for (const name of list.search?.columns ?? []) need(name, true)
  for (const term of list.order) need(term.column)
  if (input.lookup !== undefined) need(input.lookup)
  // Enforced by the versioned insert, the one insert through the port: a limited collection is versioned.
  const max = input.maxPerTenant
  if (max !== undefined && !(Number.isSafeInteger(max) && max > 0 && need('version')))
    throw new TypeError(`${input.name}: maxPerTenant must be a positive integer`)
  const fields = Object.values(input.parts ?? {}).map((part) => part.field)
  if (new Set(fields).size !== fields.length) throw new TypeError(`${input.name}: two parts fill one field`)
  return {
    name: input.name,
    event: input.event,
    parent: input.parent ?? (null as T['parent']),
    seed: input.seed,
    maxPerTenant: input.maxPerTenant ?? null,
    nested: input.nested ?? [],
    table: input.table,
    key: input.key ?? ID_KEY,
    columns,
    // Without `document`, S is D (`defineCollection<D>()` defaults S to D); the types cannot say so.
    document: input.document ?? ((record: S) => record as unknown as D),
    parts: input.parts ?? {},
    lookup: input.lookup ?? null,
    sorts,
    filters: list.filters,
    search: list.search,
    order: list.order,
    list: list.list,
    indexes: [
      ...[...new Set(Object.values(sorts))].flatMap((c) => [
        ['tenant_id', c, 'id'],
        ['tenant_id', `${c} DESC`, 'id'],
      ]),
      ...(input.indexes ?? []),
    ],
    view: input.view ?? (null as T['view']),
    patchable: input.patchable ?? [],
  }
}

/**
 * The column `name` of `collection`; throws when there is none.
 *
 * @example
 * columnOf(tickets, 'created_at').read(ticket)
 */
export function columnOf<D>(
  collection: Pick<CollectionDefinition<D, unknown>, 'name' | 'columns'>,
  name: string,
): ColumnDefinition<D> {
  const found = collection.columns.find((c) => c.name === name)
  if (found === undefined) throw new TypeError(`${collection.name}: no column ${name}`)
  return found
}

/**
 * The SQL name of a column's folded copy.
 *
 * @example
 * foldedName('title') // 'title_f'
 */
export function foldedName(column: string): string {
  return `${column}_f`
}

/**
 * The folded copy of a column's value, as stored beside it.
 *
 * @example
 * foldedValue('VPN Drops') // 'vpn drops'
 */
export function foldedValue(value: ColumnValue): string | null {
  return value === null ? null : foldCase(String(value))
}
