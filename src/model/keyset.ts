/**
 * Keyset positions in a list's total order (docs/extensions.md, section 1): the sort values of a
 * record, then its id. A cursor carries the position of the last record of a page; the next page
 * holds the records strictly after it, which each store finds by seeking (never by an offset).
 */
import { type CollectionDefinition, type ColumnValue, columnOf, type OrderTerm } from './collection.js'
import { compareCodePoints, compareNullsLast } from './ordering.js'

/**
 * Where a record stands in an order: its value of each term (null sorts last in both directions),
 * then its id (ties ascending).
 *
 * @example
 * const after: Keyset = { values: ['2024-05-01T00:00:00.000Z'], id: 't-42' }
 */
export interface Keyset {
  readonly values: readonly ColumnValue[]
  readonly id: string
}

/**
 * The position of `record` in `terms` of `collection`.
 *
 * @example
 * keysetOf(users, sortOrder(users, 'name', false), user) // { values: ['Ada'], id: user.id }
 */
export function keysetOf<D extends { id: string }>(
  collection: Pick<CollectionDefinition<D, never>, 'name' | 'columns'>,
  terms: readonly OrderTerm[],
  record: D,
): Keyset {
  // `?? null`: a nullable field left out of a record reads as undefined, which sorts as null.
  return { values: terms.map((term) => columnOf(collection, term.column).read(record) ?? null), id: record.id }
}

/**
 * Where position `a` stands against `b` in `terms`: negative before, 0 the same, positive after.
 * The stores' own comparison (src/model/ordering.ts): code points, nulls last, then id.
 *
 * @example
 * compareKeysets(terms, keysetOf(collection, terms, record), after) > 0 // the record follows the cursor
 */
export function compareKeysets(terms: readonly OrderTerm[], a: Keyset, b: Keyset): number {
  for (let i = 0; i < terms.length; i++) {
    const c = compareNullsLast(a.values[i], b.values[i], terms[i]!.descending)
    if (c !== 0) return c
  }
  return compareCodePoints(a.id, b.id)
}
