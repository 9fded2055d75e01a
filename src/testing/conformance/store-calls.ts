/**
 * Helpers of the store-level groups: they call a `Store` directly and name the call in every
 * assertion message, so that a store author reads `list(users, A, {…})` and the ids it returned,
 * not an HTTP body.
 */
import * as v from 'valibot'
import { operations } from '../../operations/index.js'
import {
  companies,
  complianceTemplates,
  meetingTypes,
  reportTemplates,
  tickets,
  trainingEnrollments,
  users,
} from '../../model/index.js'
import type { Keyset } from '../../model/keyset.js'
import { type ListRequest, listRequest } from '../../model/list-request.js'
import type { SeededCollection } from '../../model/index.js'
import type { ListResult, Store } from '../../ports/store.js'
import type { ListMethod } from './list-sorts.js'
import type { Row } from './reference.js'

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
  const operation = operations.find((candidate) => candidate.id === method)
  if (operation?.query === undefined) throw new Error(`No list operation ${method} with a query schema`)
  return v.parse(operation.query, Object.fromEntries(new URLSearchParams(query))) as Record<string, unknown>
}

/** A list called by its operation's id, with a query from {@link listQuery}. */
export type ListCall = (tenantId: string, query: Record<string, unknown>) => Promise<ListResult<Row>>

/**
 * The collection each list operation lists (a list operation's handler is `listPage(context, collection)`).
 *
 * @example
 * LIST_COLLECTIONS.listUsers // users
 */
export const LIST_COLLECTIONS: Readonly<Record<ListMethod, SeededCollection>> = {
  listTickets: tickets,
  listUsers: users,
  listComplianceTemplates: complianceTemplates,
  listReportTemplates: reportTemplates,
  listCompanies: companies,
  listMeetingTypes: meetingTypes,
  listTrainingEnrollments: trainingEnrollments,
}

/**
 * The `ListRequest` the operation layer builds for a validated list query (and a cursor's position).
 *
 * @example
 * requestOf('listUsers', listQuery('listUsers', 'sortColumn=email')) // { filters: {}, order: [...], ... }
 */
export function requestOf(method: ListMethod, query: Record<string, unknown>): ListRequest {
  const { page, limit, after } = query as { page: number; limit: number; after?: Keyset }
  return listRequest(LIST_COLLECTIONS[method], { ...query, page, limit }, after)
}

/**
 * Lists the collection of a list operation: `store.list` with the request the operation would
 * build from `query` (see {@link listQuery}; an `after` in it is a cursor's position).
 *
 * @example
 * const result = await lister(store, 'listUsers')(tenantId, listQuery('listUsers', 'limit=100'))
 */
export function lister(store: Store, method: ListMethod): ListCall {
  const collection = LIST_COLLECTIONS[method]
  return (tenantId, query) => store.list(collection, tenantId, requestOf(method, query)) as Promise<ListResult<Row>>
}

/**
 * Names a list call the way a store author would write it: `list(users, A, {request})`.
 *
 * @example
 * listLabel('listUsers', 'A', listQuery('listUsers', 'sortColumn=email')) // list(users, A, {"filters":{},…})
 */
export function listLabel(method: ListMethod, tenant: string, query: Record<string, unknown>): string {
  return `list(${LIST_COLLECTIONS[method].name}, ${tenant}, ${JSON.stringify(requestOf(method, query))})`
}

/**
 * Every list operation whose collection the store lists.
 *
 * @example
 * for (const method of LIST_METHODS) await lister(store, method)(tenantId, listQuery(method, ''))
 */
export const LIST_METHODS = Object.keys(LIST_COLLECTIONS) as readonly ListMethod[]

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
