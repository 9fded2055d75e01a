/**
 * `store.get` as the generic checks call it, for any seeded collection: bare, or with every part its
 * definition declares (a ticket's notes, a template's structure), and by the second key of a collection
 * with a `lookup` column (a ticket's number), read from the record as the store returned it.
 */
import type { SeededCollection } from '../../model/index.js'
import type { GetRequest, Store } from '../../ports/store.js'

/**
 * The request that includes every part of `collection` whole (none for a collection without parts).
 *
 * @example
 * withEveryPart(tickets) // { include: { notes: true } }
 */
export function withEveryPart(collection: SeededCollection): GetRequest<SeededCollection> {
  const fields = Object.values(collection.parts).map((part) => part.field)
  return fields.length === 0 ? {} : { include: Object.fromEntries(fields.map((field) => [field, true])) }
}

/**
 * `store.get` of any seeded collection, as a plain record (null when not found).
 *
 * @example
 * await getRecord(store, tickets, tenantId, id, withEveryPart(tickets))
 */
export async function getRecord(
  store: Store,
  collection: SeededCollection,
  tenantId: string,
  id: string,
  request: GetRequest<SeededCollection> = {},
): Promise<Record<string, unknown> | null> {
  return (await store.get(collection, tenantId, id, request)) as Record<string, unknown> | null
}

/**
 * The value of a record's `lookup` column (a ticket's number), or null for a collection without one.
 *
 * @example
 * lookupValue(tickets, ticket) // 'A-1001'
 */
export function lookupValue(collection: SeededCollection, record: Record<string, unknown>): string | null {
  if (collection.lookup === null) return null
  const columns: readonly { readonly name: string; readonly field: string | undefined }[] = collection.columns
  const field = columns.find((column) => column.name === collection.lookup)?.field
  if (field === undefined) throw new TypeError(`${collection.name}: the lookup column copies no record field`)
  return String(record[field])
}
