/**
 * Lists on SQL, derived from the collection definitions and a `ListRequest`: WHERE from the request's
 * filters and search as the collection compares them, ORDER BY from the request's order, and pages with
 * their exact count (cached per tenant generation where the schema keeps one, `generationTable` in schema.ts:
 * a steady-state page of tickets is then one statement).
 */
import { sql, type RawBuilder } from 'kysely'
import { foldCase } from '../../model/ordering.js'
import {
  type CollectionDefinition,
  type ColumnDefinition,
  columnOf,
  type FilterOp,
  foldedName,
  type OrderTerm,
} from '../../model/collection.js'
import type { ListRequest } from '../../model/list-request.js'
import type { ListResult } from '../../ports/store.js'
import { ofTenant, quote, type SqlContext, tenantColumn } from './context.js'
import { keysetSegments } from './keyset.js'
import { ftsOf, generationTable } from './schema.js'

/** What lists read of a collection. */
type SqlListDefinition = Pick<
  CollectionDefinition<never, never>,
  'name' | 'table' | 'columns' | 'filters' | 'search' | 'order'
>

/** A filter with its column looked up and the column's name (its folded copy's, compared folded) as SQL. */
interface Filter {
  param: string
  column: ColumnDefinition<never>
  op: FilterOp
  ref: RawBuilder<unknown>
}

/** A collection's filters, made once per collection. */
const filtersByCollection = new WeakMap<object, Filter[]>()

function filtersOf(collection: SqlListDefinition): Filter[] {
  let found = filtersByCollection.get(collection)
  if (found === undefined) {
    found = Object.entries(collection.filters).map(([param, f]) => {
      const column = columnOf(collection, f.column)
      const ref = sql.raw(quote(f.op === 'equalsFolded' ? foldedName(column.name) : column.name))
      return { param, column, op: f.op, ref }
    })
    filtersByCollection.set(collection, found)
  }
  return found
}

/**
 * The conditions of a list `request` on `collection` (the tenant's is the caller's): its search first, then
 * its filters in the collection's order.
 *
 * @example
 * const where = [ofTenant(tenantId), ...listConditions(ctx, users, request)]
 */
export function listConditions(
  ctx: SqlContext,
  collection: SqlListDefinition,
  request: Pick<ListRequest, 'filters' | 'search'>,
): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = []
  if (collection.search !== null && request.search !== undefined) {
    const term = foldCase(request.search)
    const fts = ftsOf(collection) ?? undefined
    const matches = collection.search.columns.map((c) => {
      const folded = foldedName(c)
      return ctx.engine.fragments.contains(folded, term, fts?.column === folded ? fts : undefined)
    })
    where.push(matches.length === 1 ? matches[0]! : sql`(${sql.join(matches, sql` OR `)})`)
  }
  for (const { param, column, op, ref: name } of filtersOf(collection)) {
    const value = request.filters[param]
    if (value === undefined) continue
    if (op === 'equals')
      where.push(sql`${name} = ${column.type === 'boolean' ? ctx.engine.fragments.bool(Boolean(value)) : value}`)
    else if (op === 'equalsFolded') where.push(sql`${name} = ${foldCase(String(value))}`)
    else if (op === 'atLeast') where.push(sql`${name} >= ${value}`)
    else where.push(sql`${name} <= ${value}`)
  }
  return where
}

/**
 * ORDER BY `terms`, ties by id. Nulls go last both ways: NULLS LAST on a descending term or a
 * nullable column (it matches the Postgres indexes, made NULLS LAST); an ascending NOT NULL term
 * needs none, and SQLite reads several such terms off its index only without it.
 *
 * @example
 * orderSql(users, sortOrder(users, 'created_at', true)) // "created_at" DESC NULLS LAST, id ASC
 */
export function orderSql(collection: SqlListDefinition, terms: readonly OrderTerm[]): RawBuilder<unknown> {
  let made = orders.get(terms)
  if (made === undefined) {
    const parts = terms.map(({ column, descending }) => {
      const nullsLast = descending || columnOf(collection, column).nullable ? ' NULLS LAST' : ''
      return `${quote(column)} ${descending ? 'DESC' : 'ASC'}${nullsLast}`
    })
    made = sql.raw([...parts, 'id ASC'].join(', '))
    orders.set(terms, made)
  }
  return made
}

/** ORDER BY clauses by their terms (`sortOrder` and fixed orders give the same array each time). */
const orders = new WeakMap<readonly OrderTerm[], RawBuilder<unknown>>()

/**
 * LIMIT and OFFSET written into the statement (validated integers): SQLite plans a page with a
 * known limit better than one with bound ones, and the statement cache keeps the common pages.
 */
function limitOffset(limit: number, offset: number): RawBuilder<unknown> {
  if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(offset))
    throw new TypeError('limit and offset must be integers')
  return sql.raw(`LIMIT ${limit} OFFSET ${offset}`)
}

const and = (parts: RawBuilder<unknown>[]) => sql.join(parts, sql` AND `)

/**
 * Counts are cached per (table, tenant, generation, filters); a generation bumps on every seed or
 * removal of its rows.
 */
const MAX_CACHED_COUNTS = 10_000

/** A page request: by number, or (with `after`) the first `limit` rows after a cursor's position. */
type PageQuery = Pick<ListRequest, 'page' | 'limit'>

/** The pages of one store. */
export interface Pages {
  /**
   * A page of the tenant's records of `collection` that match `request`, in its order (then by id), with
   * its exact count: cached per tenant generation where the table has one (`generationTable`).
   */
  list(collection: SqlListDefinition, tenantId: string, request: ListRequest): Promise<ListResult<unknown>>
}

/** The key of a count: a request's filters and search, whatever their order (which does not change a count). */
function countKey(table: string, tenantId: string, request: ListRequest): string {
  const filters = Object.entries(request.filters).sort(([a], [b]) => (a < b ? -1 : 1))
  return `${table}\u0000${tenantId}\u0000${JSON.stringify([request.search ?? null, filters])}`
}

/**
 * The page's documents, read on `ctx`: by OFFSET, or with `seek` (a cursor's segments, see keyset.ts)
 * one seek per segment: on Postgres all in one statement, on SQLite in order until `limit` rows are read.
 *
 * @example
 * const docs = await readPage(ctx, 'users', and([ofTenant(tenantId)]), order, { page: 1, limit: 25 }, 0, undefined)
 */
async function readPage(
  ctx: SqlContext,
  table: string,
  filter: RawBuilder<unknown>,
  order: RawBuilder<unknown>,
  query: PageQuery,
  offset: number,
  seek: RawBuilder<unknown>[] | undefined,
): Promise<unknown[]> {
  const { table: t, rows, parseDoc } = ctx
  if (seek === undefined) {
    const page = await rows<{ doc: string }>(
      sql`SELECT doc FROM ${t(table)} WHERE ${filter} ORDER BY ${order} ${limitOffset(query.limit, offset)}`,
    )
    return page.map((r) => parseDoc(r.doc))
  }
  if (ctx.engine.capabilities.unionSeeks && seek.length > 1) {
    // One statement, one round trip (engine.ts): each segment is still its own seek of the sort's
    // index, limited like a page; the union, at most a few pages of rows, is put in order once more.
    const limit = limitOffset(query.limit, 0)
    const parts = seek.map(
      (segment) => sql`(SELECT * FROM ${t(table)} WHERE ${filter} AND ${segment} ORDER BY ${order} ${limit})`,
    )
    const page = await rows<{ doc: string }>(
      sql`SELECT doc FROM (${sql.join(parts, sql` UNION ALL `)}) AS segments ORDER BY ${order} ${limit}`,
    )
    return page.map((r) => parseDoc(r.doc))
  }
  const items: unknown[] = []
  for (const segment of seek) {
    if (items.length >= query.limit) break
    const page = await rows<{ doc: string }>(
      sql`SELECT doc FROM ${t(table)} WHERE ${filter} AND ${segment}
          ORDER BY ${order} ${limitOffset(query.limit - items.length, 0)}`,
    )
    for (const r of page) items.push(parseDoc(r.doc))
  }
  return items
}

/**
 * The pages of the store of `ctx`, with its count cache.
 *
 * @example
 * const page = await createPages(ctx).list(users, tenantId, listRequest(users, query))
 */
export function createPages(ctx: SqlContext): Pages {
  const { table: t, one } = ctx
  const countCache = new Map<string, { generation: number; count: number }>()

  /** A page of `table` under `where` (the tenant's condition included), in `order`, with its exact count. */
  async function countedPage(
    table: string,
    where: RawBuilder<unknown>[],
    order: RawBuilder<unknown>,
    request: ListRequest,
    seek: RawBuilder<unknown>[] | undefined,
  ): Promise<ListResult<unknown>> {
    const filter = and(where)
    const totalCount = Number(
      (await one<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${t(table)} WHERE ${filter}`))?.n ?? 0,
    )
    const offset = seek === undefined ? (request.page - 1) * request.limit : 0
    // Past the end: no query (and no huge OFFSET reaches SQL).
    if (offset >= totalCount) return { items: [], totalCount }
    return { items: await readPage(ctx, table, filter, order, request, offset, seek), totalCount }
  }

  /**
   * A page of `table` of the tenant under `conditions`, its count cached under the tenant's
   * generation in `generations`. In the steady state one statement reads the page, and reads it
   * only while the stored generation is still the cached one: the tenant it seeks in its index is
   * `(SELECT <tenant> ... AND generation = cached)`, evaluated once, so after a seed it finds
   * nothing at once (a condition beside the seek would be tested row by row, scanning the tenant).
   */
  async function generationPage(
    table: string,
    generations: string,
    tenantId: string,
    conditions: RawBuilder<unknown>[],
    order: RawBuilder<unknown>,
    request: ListRequest,
    seek: RawBuilder<unknown>[] | undefined,
  ): Promise<ListResult<unknown>> {
    const offset = seek === undefined ? (request.page - 1) * request.limit : 0
    const key = countKey(table, tenantId, request)
    const cached = countCache.get(key)
    const where = (tenant: string | RawBuilder<unknown>) => and([ofTenant(tenant), ...conditions])
    if (cached !== undefined && offset < cached.count) {
      const current = sql`(SELECT ${tenantColumn()} FROM ${t(generations)}
        WHERE ${ofTenant(tenantId)} AND generation = ${cached.generation})`
      const page = await readPage(ctx, table, where(current), order, request, offset, seek)
      // No rows: a seed changed the generation (or, after a cursor, nothing follows: checked below).
      if (page.length > 0) return { items: page, totalCount: cached.count }
    }
    const filter = where(tenantId)
    const gen = await one<{ generation: unknown }>(
      sql`SELECT generation FROM ${t(generations)} WHERE ${ofTenant(tenantId)}`,
    )
    if (gen === undefined) return { items: [], totalCount: 0 }
    // Kept as a number (pg returns bigint as text): the steady-state statement binds it against the column.
    const generation = Number(gen.generation)
    let totalCount = cached?.generation === generation ? cached.count : undefined
    if (totalCount === undefined) {
      totalCount = Number(
        (await one<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${t(table)} WHERE ${filter}`))?.n ?? 0,
      )
      if (countCache.size >= MAX_CACHED_COUNTS) countCache.clear()
      // Cached under the generation read before counting: a seed in between only makes it recount later.
      countCache.set(key, { generation, count: totalCount })
    }
    if (offset >= totalCount) return { items: [], totalCount }
    return { items: await readPage(ctx, table, filter, order, request, offset, seek), totalCount }
  }

  return {
    list(collection: SqlListDefinition, tenantId: string, request: ListRequest) {
      const conditions = listConditions(ctx, collection, request)
      const order = orderSql(collection, request.order)
      const { after } = request
      const seek = after === undefined ? undefined : keysetSegments(ctx.engine, collection, request.order, after)
      const generations = generationTable(collection)
      // With a generation, the tenant's condition is generationPage's: it seeks the tenant only while
      // its counted generation is current.
      return generations === null
        ? countedPage(collection.table, [ofTenant(tenantId), ...conditions], order, request, seek)
        : generationPage(collection.table, generations, tenantId, conditions, order, request, seek)
    },
  }
}
