/**
 * Helpers of the store-level groups: they call a `Store` directly and name the call in every
 * assertion message, so that a store author reads `list(users, A, {…})` and the ids it returned,
 * not an HTTP body.
 */
import * as v from 'valibot'
import type { AnyOperation } from '../../http/operation.js'
import { type OperationId, operations, type operationsById } from '../../operations/index.js'
import type { Keyset } from '../../model/keyset.js'
import { type ListRequest, listRequest } from '../../model/list-request.js'
import type { SeededCollection } from '../../model/index.js'
import type { ListResult, Store } from '../../ports/store.js'
import type { Row } from './reference.js'

/** The list operations of the registry that list a collection (made by `readList`: they say so, `reads`). */
export type ListMethod = {
  [K in OperationId]: (typeof operationsById)[K] extends { readonly reads: { readonly kind: 'list' } } ? K : never
}[OperationId]

/** A list operation of a collection, as the registry states it. */
export interface ReadList {
  readonly method: ListMethod
  readonly operation: AnyOperation
  /** The collection it lists, its list surface included. */
  readonly collection: SeededCollection
}

/**
 * Every list operation of a collection, in the order of the registry: the kit's list checks loop over these
 * and their collections' list surfaces, so a new list is checked without a line here.
 *
 * @example
 * READ_LISTS.map((list) => list.operation.path) // ['/tickets', '/compliance/templates', ...]
 */
export const READ_LISTS: readonly ReadList[] = operations.flatMap((operation) =>
  operation.reads?.kind === 'list'
    ? [{ method: operation.id as ListMethod, operation, collection: operation.reads.collection }]
    : [],
)

/**
 * The registry's list of `method`.
 *
 * @example
 * readListOf('listUsers').collection // users
 */
export function readListOf(method: ListMethod): ReadList {
  const found = READ_LISTS.find((list) => list.method === method)
  if (found === undefined) throw new Error(`No list operation ${method} made by readList`)
  return found
}

/**
 * Names a store call the way a store author would write it; fixture tenants read as `A` and `B`.
 *
 * @example
 * callLabel('get(tickets)', 'A', '1042') // get(tickets)(A, "1042")
 */
export function callLabel(method: string, tenant: string, ...args: unknown[]): string {
  const shown = args.map((arg) => (arg instanceof Date ? `new Date('${arg.toISOString()}')` : JSON.stringify(arg)))
  return `${method}(${[tenant, ...shown].join(', ')})`
}

/**
 * The validated query a list method receives for a URL query string: the list operation's own
 * query schema parses it, so the store sees exactly what the pipeline would hand it.
 *
 * @example
 * listQuery('listUsers', 'sortColumn=email&sortDesc=true') // { page: 1, limit: 25, sortColumn: 'email', … }
 */
export function listQuery(method: ListMethod, query: string): Record<string, unknown> {
  const { operation } = readListOf(method)
  if (operation.query === undefined) throw new Error(`No list operation ${method} with a query schema`)
  return v.parse(operation.query, Object.fromEntries(new URLSearchParams(query))) as Record<string, unknown>
}

/** A list called by its operation's id, with a query from {@link listQuery}. */
export type ListCall = (tenantId: string, query: Record<string, unknown>) => Promise<ListResult<Row>>

/**
 * The `ListRequest` the operation layer builds for a validated list query (and a cursor's position).
 *
 * @example
 * requestOf('listUsers', listQuery('listUsers', 'sortColumn=email')) // { filters: {}, order: [...], ... }
 */
export function requestOf(method: ListMethod, query: Record<string, unknown>): ListRequest {
  const { page, limit, after } = query as { page: number; limit: number; after?: Keyset }
  return listRequest(readListOf(method).collection, { ...query, page, limit }, after)
}

/**
 * Lists the collection of a list operation: `store.list` with the request the operation would
 * build from `query` (see {@link listQuery}; an `after` in it is a cursor's position).
 *
 * @example
 * const result = await lister(store, 'listUsers')(tenantId, listQuery('listUsers', 'limit=100'))
 */
export function lister(store: Store, method: ListMethod): ListCall {
  const { collection } = readListOf(method)
  return (tenantId, query) => store.list(collection, tenantId, requestOf(method, query)) as Promise<ListResult<Row>>
}

/**
 * Names a list call the way a store author would write it: `list(users, A, {request})`.
 *
 * @example
 * listLabel('listUsers', 'A', listQuery('listUsers', 'sortColumn=email')) // list(users, A, {"filters":{},…})
 */
export function listLabel(method: ListMethod, tenant: string, query: Record<string, unknown>): string {
  return `list(${readListOf(method).collection.name}, ${tenant}, ${JSON.stringify(requestOf(method, query))})`
}

/**
 * Every list operation whose collection the store lists.
 *
 * @example
 * for (const method of LIST_METHODS) await lister(store, method)(tenantId, listQuery(method, ''))
 */
export const LIST_METHODS: readonly ListMethod[] = READ_LISTS.map((list) => list.method)

/**
 * The problems of `value` against a model schema, one `path: message` each (none when it
 * matches), so that a failure lists every wrong field of the record a store returned.
 *
 * @example
 * expect(shapeProblems(TicketSchema, ticket), 'getTicket(A, …)').toEqual([])
 */
export function shapeProblems(schema: v.GenericSchema, value: unknown): string[] {
  const result = v.safeParse(schema, value)
  return result.success ? [] : result.issues.map((issue) => `${v.getDotPath(issue) ?? '(record)'}: ${issue.message}`)
}
