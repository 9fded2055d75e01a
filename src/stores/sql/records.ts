/**
 * `get` on the SQL store, derived from the collection's definition: one statement reads the record's
 * document, the parts asked for (`parts`, by the field each fills), and what its view needs
 * (`view.needs`: a count as a subquery, children as rows of the same statement, so that the record
 * and its children come from one snapshot); the view's `show` then computes what reads show. A
 * collection with a `lookup` column is read by it when no record has the id. Each statement is
 * written once per collection and shape (`template`).
 */
import type { AnyCollectionView, CollectionSpec, ViewNeed } from '../../model/collection.js'
import type { GetRequest, Store } from '../../ports/store.js'
import type { RawBuilder } from 'kysely'
import { PARAM, parse, type SqlContext, template } from './context.js'
import { quote } from './migrations/index.js'
import { isVersioned, type KnownTexts } from './versioned.js'

/** What `get` reads of a definition. */
type RecordSpec = Pick<CollectionSpec<never, never>, 'name' | 'table' | 'columns' | 'parts' | 'lookup' | 'view'>

/** Where a statement's values come from, in order. */
type Slot = 'tenant' | 'id'

/** One shape of a collection's read: its statement and how to read its rows. */
interface RecordStatement {
  /** The statement, bound to the tenant and the id asked for. */
  read: (tenantId: string, id: string) => RawBuilder<unknown>
  /** The parts it reads: the column's alias in the row and the field it fills. */
  parts: readonly { alias: string; field: string }[]
  /** The view's needs: a count's alias, or a child collection's `kind` in the rows. */
  needs: readonly { name: string; count?: string; kind?: number }[]
  /** Whether rows of children follow the record's (then each row has a `kind`: 0 for the record). */
  union: boolean
}

/** A statement written once (`template`), bound to the tenant and the id in the order of `slots`. */
function bound(text: string, slots: readonly Slot[]): RecordStatement['read'] {
  const read = template(text)
  // Most reads take the tenant, then the id: no array of values to build.
  if (slots.length === 2 && slots[0] === 'tenant' && slots[1] === 'id') return (tenantId, id) => read(tenantId, id)
  return (tenantId, id) => read(...slots.map((slot) => (slot === 'tenant' ? tenantId : id)))
}

/** A collection's statements: without parts by id and by lookup, and the others by their shape's key. */
interface Statements {
  plain: readonly [RecordStatement, RecordStatement]
  shaped: Map<string, RecordStatement>
}

/** A row of a record statement. */
type Row = Record<string, unknown> & { doc: string; kind?: unknown; version?: unknown }

/**
 * The statement of `spec`'s record found by id (or by its lookup column, `byLookup`), with the part
 * columns `parts` (column names) and the needs of its view.
 */
function recordStatement(
  ctx: SqlContext,
  spec: RecordSpec,
  byLookup: boolean,
  parts: readonly string[],
): RecordStatement {
  const table = ctx.tableName(spec.table)
  const needs = Object.entries<ViewNeed>(spec.view?.needs ?? {})
  // The record's id: the one asked for, or the smallest id whose lookup column equals it. Ordered by
  // an expression of the id, not the id: SQLite (no statistics) would walk the tenant's rows in the
  // primary key's order instead of seeking the lookup column's index (3 ms against 0.03 ms at 10,000
  // tickets); the few rows that share a lookup value are then sorted.
  const lookup = `tenant_id = ${PARAM} AND ${quote(spec.lookup ?? 'id')} = ${PARAM}`
  const target = byLookup ? `(SELECT id FROM ${table} WHERE ${lookup} ORDER BY id || '' LIMIT 1)` : PARAM
  const targetSlots: Slot[] = byLookup ? ['tenant', 'id'] : ['id']
  const columns = ['r.doc AS doc']
  if (isVersioned(spec)) columns.push('r.version AS version')
  const partAliases = parts.map((column, i) => {
    columns.push(`r.${quote(column)} AS p${i}`)
    return { alias: `p${i}`, field: spec.parts[column]!.field }
  })
  const children: Extract<ViewNeed, { children: unknown }>[] = []
  const needAliases = needs.map(([name, need], i) => {
    if ('children' in need) {
      children.push(need)
      return { name, kind: children.length }
    }
    const counted = ctx.tableName(need.count.table)
    columns.push(
      `(SELECT count(*) FROM ${counted} c WHERE c.tenant_id = r.tenant_id AND c.${quote(need.by)} = r.id) AS n${i}`,
    )
    return { name, count: `n${i}` }
  })
  const slots: Slot[] = ['tenant', ...targetSlots]
  const head = `FROM ${table} r WHERE r.tenant_id = ${PARAM} AND r.id = ${target}`
  if (children.length === 0) {
    return {
      read: bound(`SELECT ${columns.join(', ')} ${head}`, slots),
      parts: partAliases,
      needs: needAliases,
      union: false,
    }
  }
  // Each child collection's rows follow the record's, in its key order after the parent's id: each
  // branch has every column, NULL where it is another branch's.
  const orders = children.map((need) => need.children.key.slice(1).map((k) => k.name))
  const orderAliases = orders.flatMap((keys, i) => keys.map((_, j) => `o${i}_${j}`))
  const nulls = (count: number) => Array.from({ length: count }, () => 'NULL')
  const branches = [
    `SELECT 0 AS kind, ${[...columns, ...orderAliases.map((alias) => `NULL AS ${alias}`)].join(', ')} ${head}`,
  ]
  children.forEach((need, i) => {
    const own = orders[i]!.map((k) => `c.${quote(k)}`)
    const before = orders.slice(0, i).flat().length
    const values = [
      ...nulls(columns.length - 1),
      ...nulls(before),
      ...own,
      ...nulls(orderAliases.length - before - own.length),
    ]
    branches.push(
      `SELECT ${i + 1}, c.doc, ${values.join(', ')} FROM ${ctx.tableName(need.children.table)} c ` +
        `WHERE c.tenant_id = ${PARAM} AND c.${quote(need.by)} = ${target}`,
    )
    slots.push('tenant', ...targetSlots)
  })
  const text = `${branches.join(' UNION ALL ')} ORDER BY ${['kind', ...orderAliases].join(', ')}`
  return { read: bound(text, slots), parts: partAliases, needs: needAliases, union: true }
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
  const made = new WeakMap<object, Statements>()

  function statementOf(spec: RecordSpec, byLookup: boolean, include: Readonly<Record<string, unknown>> | undefined) {
    let bySpec = made.get(spec)
    if (bySpec === undefined) {
      const byId = recordStatement(ctx, spec, false, [])
      const byKey = spec.lookup === null ? byId : recordStatement(ctx, spec, true, [])
      made.set(spec, (bySpec = { plain: [byId, byKey], shaped: new Map() }))
    }
    if (include === undefined) return bySpec.plain[byLookup ? 1 : 0]
    const parts = Object.keys(spec.parts).filter((column) => include[spec.parts[column]!.field] !== undefined)
    const key = `${byLookup ? 'L' : 'I'}${parts.join('\u0000')}`
    let found = bySpec.shaped.get(key)
    if (found === undefined) bySpec.shaped.set(key, (found = recordStatement(ctx, spec, byLookup, parts)))
    return found
  }

  /** The rows of the record (and its children) found by id or by lookup; empty when there is none. */
  async function rowsOf(statement: RecordStatement, tenantId: string, id: string): Promise<Row[]> {
    const found = await ctx.rows<Row>(statement.read(tenantId, id))
    return statement.union && Number(found[0]?.kind) !== 0 ? [] : found
  }

  /** What reads show of the record in `rows` (its head row first). */
  function shown(
    spec: RecordSpec,
    statement: RecordStatement,
    rows: Row[],
    include: Readonly<Record<string, unknown>>,
  ) {
    const head = rows[0]!
    const view = spec.view as AnyCollectionView | null
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
    const withParts: Record<string, unknown> = { ...(record as object) }
    for (const { alias, field } of statement.parts) {
      const value = parse<unknown>(head[alias])
      const limit = include[field]
      withParts[field] = typeof limit === 'number' && Array.isArray(value) ? value.slice(0, limit) : value
    }
    return withParts
  }

  const get = async (spec: RecordSpec, tenantId: string, id: string, request?: GetRequest<never>) => {
    const include = request?.include as Readonly<Record<string, unknown>> | undefined
    let statement = statementOf(spec, false, include)
    let rows = await rowsOf(statement, tenantId, id)
    if (rows.length === 0 && spec.lookup !== null) {
      statement = statementOf(spec, true, include)
      rows = await rowsOf(statement, tenantId, id)
    }
    const head = rows[0]
    // Versioned collections have no lookup column: a versioned record found is the one with this id.
    if (head?.version !== undefined) known.know(spec.table, tenantId, id, Number(head.version), head.doc)
    else if (head === undefined && isVersioned(spec)) known.forget(spec.table, tenantId, id)
    return head === undefined ? null : shown(spec, statement, rows, include ?? {})
  }
  return get as unknown as Store['get']
}
