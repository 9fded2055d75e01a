/**
 * `get` on the SQL store, derived from the collection's definition: one statement reads the record's
 * document, the parts asked for (`parts`, by the field each fills), and what its view needs
 * (`view.needs`: a count as a subquery, children as rows of the same statement, so that the record
 * and its children come from one snapshot); the view's `show` then computes what reads show. A
 * collection with a `lookup` column is read by it when no record has the id. Each statement is
 * written once per collection and shape, and compiled once (`ctx.compiled`, over the tenant and the id).
 */
import { type RawBuilder, sql } from 'kysely'
import { type CollectionDefinition, type ViewNeed, viewOfGet } from '../../model/collection.js'
import type { GetRequest, Store } from '../../ports/store.js'
import { type CompiledStatement, ofTenant, parse, type SqlContext } from './context.js'
import { quote } from './migrations/index.js'
import { isVersioned, type KnownTexts } from './versioned.js'

/** What `get` reads of a definition. */
type RecordDefinition = Pick<
  CollectionDefinition<never, never>,
  'name' | 'table' | 'columns' | 'parts' | 'lookup' | 'view'
>

/** One shape of a collection's read: its statement and how to read its rows. */
interface RecordStatement {
  /** The statement over the tenant and the id asked for. */
  read: CompiledStatement
  /** The parts it reads: the column's alias in the row and the field it fills. */
  parts: readonly { alias: string; field: string }[]
  /** The view's needs: a count's alias, or a child collection's `kind` in the rows. */
  needs: readonly { name: string; count?: string; kind?: number }[]
  /** Whether rows of children follow the record's (then each row has a `kind`: 0 for the record). */
  union: boolean
}

/** A row of a record statement. */
type Row = Record<string, unknown> & { doc: string; kind?: unknown; version?: unknown }

/**
 * The statement of `collection`'s record found by id (or by its lookup column, `byLookup`), with the part
 * columns `parts` (column names) and the needs of its view.
 */
function recordStatement(
  ctx: SqlContext,
  collection: RecordDefinition,
  byLookup: boolean,
  parts: readonly string[],
): RecordStatement {
  const needs = Object.entries(viewOfGet(collection.view)?.needs ?? {})
  const name = (column: string) => sql.raw(quote(column))
  const columns: RawBuilder<unknown>[] = [sql`r.doc AS doc`]
  if (isVersioned(collection)) columns.push(sql`r.version AS version`)
  const partAliases = parts.map((column, i) => {
    columns.push(sql`r.${name(column)} AS ${sql.raw(`p${i}`)}`)
    return { alias: `p${i}`, field: collection.parts[column]!.field }
  })
  const children: Extract<ViewNeed, { children: unknown }>[] = []
  const needAliases = needs.map(([needName, need], i) => {
    if ('children' in need) {
      children.push(need)
      return { name: needName, kind: children.length }
    }
    // Correlated: the counted rows are the record's tenant's (`c.tenant_id = r.tenant_id`).
    columns.push(
      sql`(SELECT count(*) FROM ${ctx.table(need.count.table)} c
           WHERE ${ofTenant(sql.raw('r.tenant_id'), 'c')} AND c.${name(need.by)} = r.id) AS ${sql.raw(`n${i}`)}`,
    )
    return { name: needName, count: `n${i}` }
  })
  // Each child collection's rows follow the record's, in its key order after the parent's id.
  const orders = children.map((need) => need.children.key.slice(1).map((k) => k.name))
  const orderAliases = orders.flatMap((keys, i) => keys.map((_, j) => sql.raw(`o${i}_${j}`)))
  const read = ctx.compiled(2, ([tenant, id]) => {
    // The record's id: the one asked for, or the smallest id whose lookup column equals it. Ordered by
    // an expression of the id, not the id: SQLite (no statistics) would walk the tenant's rows in the
    // primary key's order instead of seeking the lookup column's index, a cost that grows with the
    // tenant (bench/README.md#measurements-behind-the-code); the few rows that share a lookup value are then sorted.
    const lookup = name(collection.lookup ?? 'id')
    const target = byLookup
      ? sql`(SELECT id FROM ${ctx.table(collection.table)} WHERE ${ofTenant(tenant)} AND ${lookup} = ${id}
             ORDER BY id || '' LIMIT 1)`
      : id
    const head = sql`FROM ${ctx.table(collection.table)} r WHERE ${ofTenant(tenant, 'r')} AND r.id = ${target}`
    if (children.length === 0) return sql`SELECT ${sql.join(columns)} ${head}`
    // Each branch has every column, NULL where it is another branch's.
    const nulls = (count: number) => Array.from({ length: count }, () => sql`NULL`)
    const branches = [
      sql`SELECT 0 AS kind, ${sql.join([...columns, ...orderAliases.map((alias) => sql`NULL AS ${alias}`)])} ${head}`,
    ]
    children.forEach((need, i) => {
      const own = orders[i]!.map((k) => sql`c.${name(k)}`)
      const before = orders.slice(0, i).flat().length
      const values = [
        ...nulls(columns.length - 1),
        ...nulls(before),
        ...own,
        ...nulls(orderAliases.length - before - own.length),
      ]
      branches.push(
        sql`SELECT ${sql.lit(i + 1)}, c.doc, ${sql.join(values)} FROM ${ctx.table(need.children.table)} c
            WHERE ${ofTenant(tenant, 'c')} AND c.${name(need.by)} = ${target}`,
      )
    })
    return sql`${sql.join(branches, sql` UNION ALL `)} ORDER BY ${sql.join([sql`kind`, ...orderAliases])}`
  })
  return { read, parts: partAliases, needs: needAliases, union: children.length > 0 }
}

/**
 * The store's `get` over `ctx`: versioned records' texts are remembered in `known` for the
 * compare-and-set (`versioned.ts`).
 *
 * @example
 * const get = recordReader(ctx, knownTexts())
 * await get(tickets, tenantId, '1042', { include: { notes: 25 } })
 */
export function recordReader(ctx: SqlContext, known: KnownTexts): Store['get'] {
  const made = new WeakMap<object, Map<string, RecordStatement>>()

  function statementOf(
    collection: RecordDefinition,
    byLookup: boolean,
    include: Readonly<Record<string, unknown>> | undefined,
  ) {
    const parts =
      include === undefined
        ? []
        : Object.keys(collection.parts).filter((column) => include[collection.parts[column]!.field] !== undefined)
    const key = `${byLookup ? 'L' : 'I'}${parts.join('\u0000')}`
    let byCollection = made.get(collection)
    if (byCollection === undefined) made.set(collection, (byCollection = new Map()))
    let found = byCollection.get(key)
    if (found === undefined) byCollection.set(key, (found = recordStatement(ctx, collection, byLookup, parts)))
    return found
  }

  /** The rows of the record (and its children) found by id or by lookup; empty when there is none. */
  async function rowsOf(statement: RecordStatement, tenantId: string, id: string): Promise<Row[]> {
    const found = await statement.read.rows<Row>([tenantId, id])
    return statement.union && Number(found[0]?.kind) !== 0 ? [] : found
  }

  /** What reads show of the record in `rows` (its head row first). */
  function shown(
    collection: RecordDefinition,
    statement: RecordStatement,
    rows: Row[],
    include: Readonly<Record<string, unknown>>,
  ) {
    const head = rows[0]!
    const view = viewOfGet(collection.view)
    // A record a view extends, or a versioned one (its text changes with every update), is parsed
    // afresh; any other is parsed once and shared while its text is unchanged (`parseDoc`).
    let record: unknown =
      view !== null || head.version !== undefined ? parse<unknown>(head.doc) : ctx.parseDoc<unknown>(head.doc)
    if (view !== null) {
      const needs: Record<string, unknown> = {}
      for (const need of statement.needs) {
        needs[need.name] =
          need.count !== undefined
            ? Number(head[need.count])
            : rows.filter((row) => Number(row.kind) === need.kind).map((row) => parse<unknown>(row.doc))
      }
      record = view.show(record as never, needs as never)
    }
    if (statement.parts.length === 0) return record
    const parts: Record<string, unknown> = {}
    for (const { alias, field } of statement.parts) {
      const value = parse<unknown>(head[alias])
      const limit = include[field]
      parts[field] = typeof limit === 'number' && Array.isArray(value) ? value.slice(0, limit) : value
    }
    return { ...(record as object), ...parts }
  }

  const get = async (collection: RecordDefinition, tenantId: string, id: string, request?: GetRequest<never>) => {
    const include = request?.include as Readonly<Record<string, unknown>> | undefined
    let statement = statementOf(collection, false, include)
    let rows = await rowsOf(statement, tenantId, id)
    if (rows.length === 0 && collection.lookup !== null) {
      statement = statementOf(collection, true, include)
      rows = await rowsOf(statement, tenantId, id)
    }
    const head = rows[0]
    // Versioned collections have no lookup column: a versioned record found is the one with this id.
    if (head?.version !== undefined) known.know(collection.table, tenantId, id, Number(head.version), head.doc)
    else if (head === undefined && isVersioned(collection)) known.forget(collection.table, tenantId, id)
    return head === undefined ? null : shown(collection, statement, rows, include ?? {})
  }
  return get as unknown as Store['get']
}
