/**
 * Helpers of the store-level groups: they call a `Store` directly and name the call in every
 * assertion message, so that a store author reads `listUsers(A, {…})` and the ids it returned,
 * not an HTTP body.
 */
import * as v from 'valibot'
import { operations } from '../../operations/index.js'
import type { ListResult, Store } from '../../ports/store.js'
import type { ListMethod } from './lists-and-ordering.js'
import type { Row } from './reference.js'

/**
 * Names a store call the way a store author would write it; fixture tenants read as `A` and `B`.
 *
 * @example
 * callLabel('listUsers', 'A', { sortColumn: 'email', sortDesc: true }) // listUsers(A, {"sortColumn":"email",…})
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

/** A list method called by name, with a query from {@link listQuery}. */
export type ListCall = (tenantId: string, query: Record<string, unknown>) => Promise<ListResult<Row>>

/**
 * Calls a list method by name. The query comes from the method's own schema (see
 * {@link listQuery}), so widening the method's query type here is sound.
 *
 * @example
 * const result = await lister(store, 'listUsers')(tenantId, listQuery('listUsers', 'limit=100'))
 */
export function lister(store: Store, method: ListMethod): ListCall {
  const fn = store[method] as unknown as ListCall
  return (tenantId, query) => fn.call(store, tenantId, query)
}

/**
 * Every list method of the Store.
 *
 * @example
 * for (const method of LIST_METHODS) await lister(store, method)(tenantId, listQuery(method, ''))
 */
export const LIST_METHODS: readonly ListMethod[] = [
  'listTickets',
  'listUsers',
  'listComplianceTemplates',
  'listReportTemplates',
  'listCompanies',
  'listMeetingTypes',
  'listTrainingEnrollments',
]

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
