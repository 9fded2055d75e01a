/**
 * What a store is asked for a list: the filters given, the search, the order, the page and the
 * cursor's position, in the collection's own terms. The operation layer builds it once per request
 * from the collection's definition and the validated query ({@link listRequest}); stores read only
 * this, never the contract's query parameters, so the two ways the contract names a sort are read
 * here and nowhere else.
 */
import { type CollectionDefinition, type OrderTerm, sortOrder } from './collection.js'
import type { Keyset } from './keyset.js'

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

/** What {@link listRequest} reads of a definition. */
export type ListDefinition = Pick<CollectionDefinition<never, never>, 'name' | 'sorts' | 'filters' | 'search' | 'order'>

/** What {@link listRequest} reads of a validated list query: its page, and its other parameters by name. */
export interface PagedQuery {
  readonly page: number
  readonly limit: number
  readonly [param: string]: unknown
}

/**
 * The request of a list of `collection` for the validated `query`: the filters of `collection` it gives, its
 * `search`, and its order. A list with sorts names its sort one of the contract's two ways,
 * `sortColumn` + `sortDesc` (tickets, users) or `sortBy` + `sortOrder` (companies, templates): both
 * are read here, the one place; a list without sorts has the definition's fixed `order`.
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
    search: collection.search !== null && typeof q.search === 'string' ? q.search : undefined,
    order: orderOf(collection, q),
    page: query.page,
    limit: query.limit,
    after,
  }
}

/** The order a query asks of `collection`: its sort, named either way, or the fixed order. */
function orderOf(collection: ListDefinition, q: Readonly<Record<string, unknown>>): readonly OrderTerm[] {
  const sort = q.sortColumn ?? q.sortBy
  if (sort === undefined) {
    if (collection.order.length === 0 && Object.keys(collection.sorts).length > 0)
      throw new TypeError(`${collection.name}: the list query names no sort`)
    return collection.order
  }
  const descending = q.sortDesc === undefined ? q.sortOrder === 'desc' : q.sortDesc === true
  return sortOrder(collection, String(sort), descending)
}
