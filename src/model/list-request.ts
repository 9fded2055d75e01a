/**
 * What a store is asked for a list: the filters given, the search, the order, the page and the
 * cursor's position, in the collection's own terms. The operation layer builds it once per request
 * from the collection's definition and the validated query ({@link listRequest}); stores read only
 * this, never the contract's query parameters, so the two ways the contract names a sort are read
 * here and nowhere else.
 */
import type { CollectionDefinition, OrderTerm } from './collection.js'
import type { Keyset } from './keyset.js'
import { type ListSurface, SORT_PARAMS } from './list-surface.js'

/** The value a list filter compares its column with (validated: a string, a number or a boolean). */
export type FilterValue = string | number | boolean

/**
 * A list of one collection, as a store receives it.
 *
 * @example
 * const request: ListRequest = {
 *   filters: { status: 'active' }, search: undefined, order: users.order, page: 1, limit: 25, after: undefined,
 * }
 */
export interface ListRequest {
  /** The filters the query gives, by name (the keys of the collection's `filters`), with their values. */
  readonly filters: Readonly<Record<string, FilterValue>>
  /** A case-insensitive substring of any of the collection's `search` columns; undefined when none is asked. */
  readonly search: string | undefined
  /**
   * The order, ties by `id` ascending after the last term: a `sortOrder` array or the collection's
   * fixed `order`, the same array for the same order, so a store may key what it derives from it.
   */
  readonly order: readonly OrderTerm[]
  /** From 1; ignored when `after` is given. */
  readonly page: number
  readonly limit: number
  /** A cursor's position: the page is then the first `limit` records strictly after it. */
  readonly after: Keyset | undefined
}

/**
 * What {@link listRequest} reads of a definition: its list facts, and its surface for the spelling of its sort
 * and the name of its search (a list without one, such as webhook endpoints', has neither).
 */
export type ListDefinition = Pick<
  CollectionDefinition<never, never>,
  'name' | 'sorts' | 'filters' | 'search' | 'order'
> & {
  readonly list?: Pick<ListSurface, 'sort' | 'searchParam'>
}

/** What {@link listRequest} reads of a validated list query: its page, and its other parameters by name. */
export interface PagedQuery {
  readonly page: number
  readonly limit: number
  readonly [param: string]: unknown
}

/**
 * The request of a list of `collection` for the validated `query`: the filters of `collection` it gives, its
 * search, and its order. A list with sorts names its sort the way its surface spells it (one of the
 * contract's two: `sortColumn` + `sortDesc` or `sortBy` + `sortOrder`, src/model/list-surface.ts), read
 * here, the one place; a list without sorts has the definition's fixed `order`.
 *
 * @example
 * listRequest(users, { page: 1, limit: 25, sortColumn: 'email', sortDesc: false, status: 'active' })
 * // { filters: { status: 'active' }, search: undefined, order: [{ column: 'email', descending: false }], ... }
 */
export function listRequest(collection: ListDefinition, query: PagedQuery, after?: Keyset): ListRequest {
  const q = query
  const filters: Record<string, FilterValue> = {}
  for (const name in collection.filters) {
    const value = q[name]
    if (value !== undefined) filters[name] = value as FilterValue
  }
  return {
    filters,
    search: searchOf(collection, q),
    order: orderOf(collection, q),
    page: query.page,
    limit: query.limit,
    after,
  }
}

/** The search a query asks of `collection`, under its search parameter. */
function searchOf(collection: ListDefinition, q: Readonly<Record<string, unknown>>): string | undefined {
  const param = collection.list?.searchParam
  if (collection.search === null || param == null) return undefined
  const value = q[param]
  return typeof value === 'string' ? value : undefined
}

/** The order a query asks of `collection`: its sort as its surface spells it (or its default), or the fixed order. */
function orderOf(collection: ListDefinition, q: Readonly<Record<string, unknown>>): readonly OrderTerm[] {
  const sort = collection.list?.sort
  if (sort == null) return collection.order
  const by = q[SORT_PARAMS[sort.direction]] ?? sort.defaultSort.by
  const direction = q[sort.direction]
  const descending =
    direction === undefined
      ? sort.defaultSort.descending
      : sort.direction === 'sortDesc'
        ? direction === true
        : direction === 'desc'
  return sortOrder(collection, String(by), descending)
}

const sortOrders = new WeakMap<object, Map<string, readonly [readonly OrderTerm[], readonly OrderTerm[]]>>()

/**
 * The order of a list sorted by `sort` (an API sort name of `collection`): one array per sort and
 * direction, the same each time, so that stores may key what they derive from an order by it.
 *
 * @example
 * sortOrder(users, 'created_at', true) // [{ column: 'created_at', descending: true }]
 */
export function sortOrder(
  collection: Pick<CollectionDefinition<never, never>, 'name' | 'sorts'>,
  sort: string,
  descending: boolean,
): readonly OrderTerm[] {
  let bySort = sortOrders.get(collection)
  if (bySort === undefined) sortOrders.set(collection, (bySort = new Map()))
  let both = bySort.get(sort)
  if (both === undefined) {
    const column = collection.sorts[sort]
    if (column === undefined) throw new TypeError(`${collection.name}: no sort ${sort}`)
    both = [[{ column, descending: false }], [{ column, descending: true }]]
    bySort.set(sort, both)
  }
  return both[descending ? 1 : 0]
}
