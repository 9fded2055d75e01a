/**
 * Helpers of the store-level groups: they call a `Store` directly and name the call in every
 * assertion message, so that a store author reads `listUsers(A, {…})` and the ids it returned,
 * not an HTTP body.
 */
import * as v from 'valibot'
import { operations } from '../../operations/index.js'
import type { ListMethod } from './lists-and-ordering.js'

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
