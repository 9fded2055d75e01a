/**
 * A collection's list surface: how its list reads on the wire. Its sorts with their API names, the default
 * sort and how the contract spells its direction, and every other query parameter (a filter, the search, or a
 * parameter neither), each with its valibot parser. The definition's `sorts`, `filters`, `search` and `order`
 * (what stores read), the list's query schema ({@link listQuerySchema}), and from it the OpenAPI parameters,
 * the MCP input schema and the typed client's query types all derive from it (ARCHITECTURE.md, "One
 * declaration, many uses").
 */
import * as v from 'valibot'
import type { FilterOp, ListFilter, ListSearch, OrderTerm } from './collection.js'
import { booleanParam, enumParam, paginationQuery, sortOrderParam } from './shared.js'

/** A query parameter's parser (src/model/shared.ts): a string in, its typed value out, described. */
export type ParamSchema = v.GenericSchema<string, unknown>

/** A query parameter that filters the list: its parser and the column it compares. */
export interface FilterParam<S extends ParamSchema = ParamSchema> {
  readonly kind: 'filter'
  readonly schema: S
  readonly filter: ListFilter
}

/** The query parameter that searches the list: its parser and the columns it searches. */
export interface SearchParam<S extends ParamSchema = ParamSchema> {
  readonly kind: 'search'
  readonly schema: S
  readonly search: ListSearch
}

/** A query parameter that neither filters nor searches: its entry in the query schema, as written. */
export interface OtherParam<E extends v.GenericSchema = v.GenericSchema> {
  readonly kind: 'other'
  readonly entry: E
}

/** A list query parameter besides paging and sorting. */
export type ListParam = FilterParam | SearchParam | OtherParam

/** A list's query parameters besides paging and sorting, by name, in the order the document lists them. */
export type ListParams = Readonly<Record<string, ListParam>>

/**
 * The contract's two spellings of a sort (docs/contract.md): `sortColumn` with `sortDesc=true|false`
 * (tickets, users), or `sortBy` with `sortOrder=asc|desc` (companies, templates), named by the direction.
 *
 * @example
 * SORT_PARAMS.sortOrder // 'sortBy'
 */
export const SORT_PARAMS = { sortDesc: 'sortColumn', sortOrder: 'sortBy' } as const

/** How a list spells its sort direction on the wire (and so its sort: {@link SORT_PARAMS}). */
export type SortDirection = keyof typeof SORT_PARAMS

/** A list's sorts as its definition states them. `K` is the API sort names, `W` the spelling. */
export interface ListSort<K extends string = string, W extends SortDirection = SortDirection> {
  /** API sort name → the record field it orders by; each field a column's. */
  readonly sorts: Readonly<Record<K, string>>
  /** The order of a list whose query names no sort. */
  readonly defaultSort: { readonly by: NoInfer<K>; readonly descending: boolean }
  readonly direction: W
}

/** A list in one fixed order (ties by id), without sort parameters. */
export interface FixedOrder {
  readonly order: readonly OrderTerm[]
}

/** What a definition says of its list: its sorts or its fixed order, and its other query parameters. */
export type ListInput<P extends ListParams = ListParams> = (ListSort | FixedOrder) & { readonly params?: P }

/** A list surface, completed: its sorts (null for a fixed order) and its other query parameters. */
export interface ListSurface<S extends ListSort | null = ListSort | null, P extends ListParams = ListParams> {
  readonly sort: S
  readonly params: P
  /** The name of the search parameter, null when the list has none. */
  readonly searchParam: string | null
}

/**
 * The surface of a collection without a list: no sorts and no parameters.
 *
 * @example
 * goals.list // NO_LIST: goals are read one at a time
 */
export const NO_LIST: ListSurface<null, Record<never, never>> = { sort: null, params: {}, searchParam: null }

/** The completed surface of what a definition says of its list. */
export type SurfaceOf<L> =
  L extends ListSort<infer K, infer W>
    ? ListSurface<ListSort<K, W>, L extends { params: infer P extends ListParams } ? P : Record<never, never>>
    : L extends { params: infer P extends ListParams }
      ? ListSurface<null, P>
      : ListSurface<null, Record<never, never>>

/**
 * A filter parameter: `schema` parses the query value, which `op` compares with `column`.
 *
 * @example
 * filter(uuidParam('Only users of this company.'), 'company_id', 'equals')
 * filter(booleanParam('Primary admins only, or everyone else.'), 'is_primary_admin', 'equals', { scan: true })
 */
export function filter<S extends ParamSchema>(
  schema: S,
  column: string,
  op: FilterOp,
  options: { scan?: boolean } = {},
): FilterParam<S> {
  return { kind: 'filter', schema, filter: options.scan ? { column, op, scan: true } : { column, op } }
}

/**
 * The search parameter: a case-insensitive substring of any of `columns` (their folded copies),
 * served by a trigram index when `trigram` is set.
 *
 * @example
 * search(textParam(255, 'Case-insensitive substring of the title.'), ['title'], { trigram: true })
 */
export function search<S extends ParamSchema>(
  schema: S,
  columns: readonly string[],
  options: { trigram?: boolean } = {},
): SearchParam<S> {
  return { kind: 'search', schema, search: { columns, trigram: options.trigram ?? false } }
}

/**
 * A query parameter that neither filters nor searches (the handler reads it): its schema entry as is.
 *
 * @example
 * otherParam(v.optional(booleanParam('Include the totals.'), 'false'))
 */
export function otherParam<E extends v.GenericSchema>(entry: E): OtherParam<E> {
  return { kind: 'other', entry }
}

/** What a definition's list states for stores: sorts (API name → column), filters, search and fixed order. */
export interface ListFacts {
  readonly sorts: Readonly<Record<string, string>>
  readonly filters: Readonly<Record<string, ListFilter>>
  readonly search: ListSearch | null
  readonly order: readonly OrderTerm[]
  readonly list: ListSurface
}

/**
 * What stores read of a list, from what its definition says: `columnOfField` finds the column that copies a
 * sort's field (the caller checks that filters and search name columns).
 *
 * @example
 * completeList('companies', { sorts: { name: 'name' }, defaultSort: { by: 'name', descending: false },
 *   direction: 'sortOrder' }, (field) => (field === 'name' ? 'name' : undefined)).sorts // { name: 'name' }
 */
export function completeList(
  name: string,
  input: ListInput | undefined,
  columnOfField: (field: string) => string | undefined,
): ListFacts {
  if (input === undefined) return { sorts: {}, filters: {}, search: null, order: [], list: NO_LIST }
  const params: ListParams = input.params ?? {}
  const filters: Record<string, ListFilter> = {}
  let found: { param: string; search: ListSearch } | null = null
  for (const [param, entry] of Object.entries(params)) {
    if (entry.kind === 'filter') filters[param] = entry.filter
    else if (entry.kind === 'search') {
      if (found !== null) throw new TypeError(`${name}: two search parameters, ${found.param} and ${param}`)
      found = { param, search: entry.search }
    }
  }
  const common = { filters, search: found?.search ?? null }
  if ('order' in input) {
    const list: ListSurface = { sort: null, params, searchParam: found?.param ?? null }
    return { ...common, sorts: {}, order: input.order, list }
  }
  const sorts: Record<string, string> = {}
  for (const [api, field] of Object.entries<string>(input.sorts)) {
    const column = columnOfField(field)
    if (column === undefined) throw new TypeError(`${name}: sort ${api} orders by ${field}, which no column copies`)
    sorts[api] = column
  }
  if (!Object.hasOwn(sorts, input.defaultSort.by))
    throw new TypeError(`${name}: the default sort ${input.defaultSort.by} is not a sort`)
  const sort: ListSort = { sorts: input.sorts, defaultSort: input.defaultSort, direction: input.direction }
  return { ...common, sorts, order: [], list: { sort, params, searchParam: found?.param ?? null } }
}

type EnumParamOf<K extends string> = ReturnType<typeof enumParam<readonly [K, ...K[]]>>
type BooleanParam = ReturnType<typeof booleanParam>

/** The sort entries of a list's query schema, in the spelling its surface states. */
type SortEntries<S> =
  S extends ListSort<infer K, 'sortDesc'>
    ? { sortColumn: v.OptionalSchema<EnumParamOf<K>, string>; sortDesc: v.OptionalSchema<BooleanParam, string> }
    : S extends ListSort<infer K, 'sortOrder'>
      ? {
          sortBy: v.OptionalSchema<EnumParamOf<K>, string>
          sortOrder: v.OptionalSchema<EnumParamOf<'asc' | 'desc'>, string>
        }
      : Record<never, never>

/** The query schema entry of one parameter: a filter or the search is optional, another as written. */
type ParamEntry<T> = T extends FilterParam<infer S> | SearchParam<infer S>
  ? v.OptionalSchema<S, undefined>
  : T extends OtherParam<infer E>
    ? E
    : never

/** The entries of the query schema of a list with surface `L`. */
export type ListQueryEntries<L extends ListSurface> = typeof paginationQuery &
  SortEntries<L['sort']> & { -readonly [N in keyof L['params']]: ParamEntry<L['params'][N]> }

type Flat<T> = { [K in keyof T]: T[K] }
type QueryObject<L extends ListSurface> = v.StrictObjectSchema<Flat<ListQueryEntries<L>>, undefined>

/**
 * A list's query schema: it parses the query string into typed values with their defaults, and carries its
 * entries (one per parameter, in order), which the OpenAPI document reads.
 */
export type ListQuerySchema<L extends ListSurface> = v.GenericSchema<
  v.InferInput<QueryObject<L>>,
  v.InferOutput<QueryObject<L>>,
  v.InferIssue<QueryObject<L>> | v.CheckIssue<Record<string, unknown>>
> & { readonly entries: Flat<ListQueryEntries<L>> }

const queries = new WeakMap<object, v.GenericSchema>()

/**
 * The query schema of `collection`'s list, derived from its surface: `page`, `limit` and `cursor`, its sort
 * and direction (with the default sort) in the spelling it states, then its parameters in order. A range of
 * two filters on one column (`atLeast` and `atMost`: a ticket's `dateFrom` and `dateTo`) whose bounds cross
 * is a 400 on its lower bound, not an empty page (docs/api-behaviour.md, Lists).
 *
 * @example
 * export const UserListQuerySchema = listQuerySchema(users)
 * v.parse(UserListQuerySchema, { sortColumn: 'email' }) // { page: 1, limit: 25, sortColumn: 'email', ... }
 */
export function listQuerySchema<L extends ListSurface>(collection: { readonly list: L }): ListQuerySchema<L> {
  const known = queries.get(collection)
  if (known !== undefined) return known as ListQuerySchema<L>
  const surface: ListSurface = collection.list
  const entries: Record<string, v.GenericSchema> = { ...paginationQuery }
  const sort = surface.sort
  if (sort !== null) {
    const names = Object.keys(sort.sorts) as [string, ...string[]]
    entries[SORT_PARAMS[sort.direction]] = v.optional(enumParam(names, 'Sort field.'), sort.defaultSort.by)
    entries[sort.direction] =
      sort.direction === 'sortDesc'
        ? v.optional(booleanParam('Sort descending.'), String(sort.defaultSort.descending))
        : sortOrderParam(sort.defaultSort.descending ? 'desc' : 'asc')
  }
  for (const [name, param] of Object.entries(surface.params))
    entries[name] = param.kind === 'other' ? param.entry : v.optional(param.schema)
  const object = v.strictObject(entries)
  const ranges = rangesOf(surface.params)
  const schema: v.GenericSchema<unknown, Record<string, unknown>> = ranges.length === 0
    ? object
    : v.pipe(
        object,
        ...ranges.map(([low, high]) =>
          v.forward<Record<string, unknown>, v.CheckIssue<Record<string, unknown>>, [string]>(
            v.check((q) => notAfter(q[low], q[high]), `${low} must not be after ${high}`),
            [low],
          ),
        ),
      )
  queries.set(collection, schema)
  return schema as ListQuerySchema<L>
}

/** Whether a range's bounds are in order (or one is not given). */
function notAfter(low: unknown, high: unknown): boolean {
  if (low === undefined || high === undefined) return true
  return typeof low === 'number' && typeof high === 'number' ? low <= high : String(low) <= String(high)
}

/** The pairs of parameters that bound one column from below and from above. */
function rangesOf(params: ListParams): Array<[low: string, high: string]> {
  const filters = Object.entries(params).flatMap(([name, p]) =>
    p.kind === 'filter' ? [[name, p.filter] as const] : [],
  )
  return filters.flatMap(([low, f]) =>
    f.op !== 'atLeast'
      ? []
      : filters
          .filter(([, g]) => g.op === 'atMost' && g.column === f.column)
          .map(([high]): [string, string] => [low, high]),
  )
}
