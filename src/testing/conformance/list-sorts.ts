/**
 * The lists with sort options and the lists with one fixed order, as both the HTTP and the
 * store-level groups check them, derived from the registry's list operations (`readList`) and their
 * collections' list surfaces: each sort option's value in a fixture row is read by the column the
 * definition sorts by, for the reference to order by (reference.ts).
 */
import { type ColumnDefinition, columnOf } from '../../model/collection.js'
import { SORT_PARAMS } from '../../model/list-surface.js'
import type { SeededCollection } from '../../model/index.js'
import { fixtureSeed } from './fixtures.js'
import { sortRows, type Row } from './reference.js'
import { type ListMethod, READ_LISTS, type ReadList } from './store-calls.js'

export type { ListMethod } from './store-calls.js'

/** A value a list sorts or filters by. */
export type Value = string | number | boolean | null | undefined

/** A list with sort options, as both the HTTP and the store-level groups check it. */
export interface SortableList {
  name: string
  path: string
  method: ListMethod
  rows: () => Row[]
  sortParam: string
  /** The query of a direction, e.g. `sortDesc=true` or `sortOrder=desc`. */
  direction: (descending: boolean) => string
  sorts: Record<string, (row: Row) => Value>
  defaultSort: { value: string; descending: boolean }
}

/** A list in one fixed order: the reference's order of its fixture rows. */
export interface FixedList {
  name: string
  path: string
  method: ListMethod
  order: () => Row[]
}

/**
 * The rows of a seed key of fixture tenant A, as the reference reads them.
 *
 * @example
 * fixtureRows('tickets')().length // 22
 */
export const fixtureRows = (key: keyof ReturnType<typeof fixtureSeed>) => (): Row[] => fixtureSeed('a')[key] ?? []
/** A row's field `name`. */
export const field = (name: string) => (row: Row) => row[name] as Value
/** A row's field `inner` of its object `name` (null when that is null). */
export const nested = (name: string, inner: string) => (row: Row) =>
  ((row[name] as Record<string, unknown> | null)?.[inner] ?? null) as Value

/**
 * A fixture row's value of `collection`'s column `name`, read as the definition reads it (undefined reads
 * as null, as a store's column holds it).
 *
 * @example
 * columnValue(users, 'role_id')(row) // row.role?.id ?? null
 */
export function columnValue(collection: SeededCollection, name: string): (row: Row) => Value {
  // Fixture rows are the collection's seed records, which its columns read.
  const columns = collection.columns as readonly ColumnDefinition<Row>[]
  const read = columnOf({ name: collection.name, columns }, name).read
  return (row) => read(row) ?? null
}

/**
 * The fixture rows of a list's collection, in tenant A.
 *
 * @example
 * listRows(readListOf('listUsers'))().length
 */
export function listRows(list: ReadList): () => Row[] {
  return fixtureRows(list.collection.name as keyof ReturnType<typeof fixtureSeed>)
}

/** Every list with sort options, each option's value in a row (by the column its definition sorts by). */
export const SORTABLE: SortableList[] = READ_LISTS.flatMap((list): SortableList[] => {
  const { collection } = list
  const sort = collection.list.sort
  if (sort === null) return []
  const spelling = sort.direction
  return [
    {
      name: collection.name,
      path: list.operation.path,
      method: list.method,
      rows: listRows(list),
      sortParam: SORT_PARAMS[spelling],
      direction: (d) => (spelling === 'sortDesc' ? `sortDesc=${d}` : `sortOrder=${d ? 'desc' : 'asc'}`),
      sorts: Object.fromEntries(
        Object.entries(collection.sorts).map(([value, column]) => [value, columnValue(collection, column)]),
      ),
      defaultSort: { value: sort.defaultSort.by, descending: sort.defaultSort.descending },
    },
  ]
})

/**
 * The reference's order of `rows` in `collection`'s fixed order: its first term either way, then the
 * others ascending (what the reference orders by), then id.
 */
function fixedOrder(collection: SeededCollection, rows: Row[]): Row[] {
  const [first, ...then] = collection.order
  if (first === undefined) throw new Error(`${collection.name}: a list without sorts needs a fixed order`)
  if (then.some((term) => term.descending))
    throw new Error(`${collection.name}: the reference orders the terms after the first ascending only`)
  const key = columnValue(collection, first.column)
  return sortRows(
    rows,
    key,
    first.descending,
    then.map((term) => columnValue(collection, term.column)),
  )
}

/** Lists with one fixed order. */
export const FIXED: FixedList[] = READ_LISTS.flatMap((list): FixedList[] => {
  const { collection } = list
  if (collection.list.sort !== null) return []
  const terms = collection.order.map((term) => `${term.column}${term.descending ? ' descending' : ''}`)
  return [
    {
      name: `${collection.name} (${[...terms, 'id'].join(', then ')})`,
      path: list.operation.path,
      method: list.method,
      order: () => fixedOrder(collection, listRows(list)()),
    },
  ]
})

/**
 * The reference's order of a list whose query names no sort: its default sort, or its fixed order.
 *
 * @example
 * defaultOrder('listUsers')(rows) // by created_at, newest first, ties by id
 */
export function defaultOrder(method: ListMethod): (rows: Row[]) => Row[] {
  const sortable = SORTABLE.find((list) => list.method === method)
  if (sortable !== undefined) {
    const { value, descending } = sortable.defaultSort
    return (rows) => sortRows(rows, sortable.sorts[value]!, descending)
  }
  const { collection } = READ_LISTS.find((list) => list.method === method)!
  return (rows) => fixedOrder(collection, rows)
}
