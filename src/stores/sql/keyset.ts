/**
 * The keyset condition of a cursor page (docs/extensions.md, section 1), derived from the order's
 * terms. "Strictly after (v1..vn, id)" in an order with nulls last is a disjunction; written as one
 * OR it defeats the index (the planner scans the tenant), so it is split into range conditions, each
 * a prefix of equalities and one range on the next term, that each seek the sort's index
 * (`tenant_id, column, id`, made for every sort by the model) and come in the order they cover:
 * the page is read segment by segment until it is full.
 */
import { sql, type RawBuilder } from 'kysely'
import { type ColumnValue, columnOf, type CollectionDefinition, type OrderTerm } from '../../model/collection.js'
import type { Keyset } from '../../model/keyset.js'
import { quote } from './context.js'
import type { Engine } from './engine.js'

/**
 * The conditions whose rows, read in order one after another, are the rows strictly after `after`.
 *
 * @example
 * // created_at DESC, id: [created_at = v AND id > i], [created_at < v], [created_at IS NULL]
 * keysetSegments(engine, tickets, sortOrder(tickets, 'created_date', true), after)
 */
export function keysetSegments(
  engine: Engine,
  collection: Pick<CollectionDefinition<never, never>, 'name' | 'columns'>,
  terms: readonly OrderTerm[],
  after: Keyset,
): RawBuilder<unknown>[] {
  const bind = (term: OrderTerm, value: ColumnValue) =>
    typeof value === 'boolean'
      ? engine.fragments.bool(value)
      : columnOf(collection, term.column).type === 'text'
        ? String(value)
        : value
  const equal = (k: number) =>
    terms.slice(0, k).map((term, i) => {
      const value = after.values[i] ?? null
      const name = sql.raw(quote(term.column))
      return value === null ? sql`${name} IS NULL` : sql`${name} = ${bind(term, value)}`
    })
  const segments: RawBuilder<unknown>[][] = [[...equal(terms.length), sql`id > ${after.id}`]]
  for (let k = terms.length - 1; k >= 0; k--) {
    const term = terms[k]!
    const value = after.values[k] ?? null
    // After a null only nulls follow, and those tie on this term: the deeper segments hold them.
    if (value === null) continue
    const name = sql.raw(quote(term.column))
    segments.push([
      ...equal(k),
      term.descending ? sql`${name} < ${bind(term, value)}` : sql`${name} > ${bind(term, value)}`,
    ])
    if (columnOf(collection, term.column).nullable) segments.push([...equal(k), sql`${name} IS NULL`])
  }
  return segments.map((parts) => sql.join(parts, sql` AND `))
}
