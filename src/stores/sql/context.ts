/**
 * What every part of the SQL store shares: the database, its engine, table names, the tenant
 * condition (`ofTenant`), statements compiled once (`compiled`), and reading rows and the records
 * they hold (parsed once, frozen, and shared while their text is unchanged). How the store writes
 * SQL, and why: ARCHITECTURE.md, "One way to write SQL".
 */
import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely'
import { frozenFromJson } from '../../model/frozen-records.js'
import type { Engine } from './engine.js'
import { quote, type TableNamer } from './migrations/index.js'

/** The parameters of a statement compiled once: `N` of them (a tuple when `N` is a literal). */
export type Params<N extends number, P extends RawBuilder<unknown>[] = []> = number extends N
  ? readonly RawBuilder<unknown>[]
  : P['length'] extends N
    ? Readonly<P>
    : Params<N, [...P, RawBuilder<unknown>]>

/** A database handle or a transaction on it. */
export type Exec = Kysely<unknown>

/** The shared state of one SQL store. */
export interface SqlContext {
  readonly db: Exec
  /**
   * The database of the host's bulk operations (seed, remove, migrations): `db` itself, or on
   * Postgres the same pool with the longer bounds that bulk work needs (docs/stores.md).
   */
  readonly bulk: Exec
  readonly engine: Engine
  /** A table's name in SQL text, schema-qualified on Postgres when a schema is set. */
  readonly tableName: TableNamer
  /** A table's name as a SQL fragment. */
  table(name: string): RawBuilder<unknown>
  /** The rows `query` returns (on `ex`, default the store's database). */
  rows<R = Record<string, unknown>>(query: RawBuilder<unknown>, ex?: Exec): Promise<R[]>
  /** The first row `query` returns. */
  one<R = Record<string, unknown>>(query: RawBuilder<unknown>, ex?: Exec): Promise<R | undefined>
  /**
   * A statement compiled once (for hot statements whose shape never changes): `build` writes it as a
   * `sql` template of its `arity` parameters. See {@link CompiledStatement} for why and how it runs.
   *
   * @example
   * const counter = ctx.compiled(2, ([tenant, n]) =>
   *   sql`UPDATE ${ctx.table('event_positions')} SET position = position + ${n} WHERE ${ofTenant(tenant)}`)
   * await counter.rows([tenantId, 3], ex)
   */
  compiled<N extends number>(arity: N, build: (params: Params<N>) => RawBuilder<unknown>): CompiledStatement
  /** The record stored as `text`: parsed and frozen once, then shared while the stored text is unchanged. */
  parseDoc<T>(text: unknown): T
}

/**
 * Parsed list/ticket docs are kept with the text they were parsed from and reused only while the
 * stored text is identical (JSON.parse of a 25-row page is the largest part of a steady-state
 * read; the text itself is reused as the reply's JSON). Like the memory store, reads then share
 * one frozen object per unchanged record. At most 2,000 docs and 4 M characters of their text (a
 * few MB): hot pages stay parsed, the rest is parsed per read. A doc of more than 64 K characters
 * (an event of a large record, say) is never kept: a few of them would hold the process's memory.
 */
const MAX_CACHED_DOCS = 2_000
/** The cache's text, at most, in UTF-16 code units. */
const MAX_CACHED_CHARS = 4 * 1024 * 1024
/** The longest text the cache keeps. */
const MAX_CACHED_DOC_CHARS = 64 * 1024
/** How much of a document's text keys the cache: enough for `{"id":"<uuid>",`. */
const DOC_KEY_LENGTH = 64

/**
 * The context of a store on `db`, its tables in `schema` (Postgres) when one is given; bulk
 * operations run on `bulk` (default `db`).
 *
 * @example
 * const ctx = createSqlContext(db, sqliteEngine, undefined)
 * const row = await ctx.one(sql`SELECT doc FROM ${ctx.table('goals')} WHERE ${ofTenant(tenantId)} AND id = ${id}`)
 */
export function createSqlContext(db: Exec, engine: Engine, schema: string | undefined, bulk: Exec = db): SqlContext {
  const tableName = (name: string) => (schema === undefined ? quote(name) : `${quote(schema)}.${quote(name)}`)
  const rows = async <R>(query: RawBuilder<unknown>, ex: Exec = db): Promise<R[]> =>
    (await query.execute(ex)).rows as R[]
  const docCache = new Map<string, { text: string; value: unknown }>()
  let cachedChars = 0
  return {
    db,
    bulk,
    engine,
    tableName,
    table: (name) => sql.raw(tableName(name)),
    rows,
    one: async <R>(query: RawBuilder<unknown>, ex: Exec = db) => (await rows<R>(query, ex))[0],
    compiled: (arity, build) => compileOnce(db, engine, arity, build),
    parseDoc<T>(text: unknown): T {
      const source = String(text)
      // Keyed by the text's start (the record's id comes first), confirmed by the whole text: hashing
      // every 600-character text of a page costs as much as reading the page.
      const key = source.slice(0, DOC_KEY_LENGTH)
      const hit = docCache.get(key)
      if (hit !== undefined && hit.text === source) return hit.value as T
      const value = frozenFromJson<T>(source)
      if (source.length > MAX_CACHED_DOC_CHARS) return value
      if (docCache.size >= MAX_CACHED_DOCS || cachedChars + source.length > MAX_CACHED_CHARS) {
        docCache.clear()
        cachedChars = 0
      }
      // A doc replaced under the same key stays counted until the next clear: an upper bound.
      cachedChars += source.length
      docCache.set(key, { text: source, value })
      return value
    },
  }
}

/**
 * The condition that keeps a statement to one tenant's rows: `tenant_id = <tenant>` (of the table
 * `alias` names, when given). Every table of tenant data is keyed by `tenant_id` first, and every
 * statement on one tenant's rows names it (docs/contract.md, "tenancy": a key sees exactly one
 * tenant). Written once here so that it reads the same everywhere and a statement that scopes its
 * rows otherwise stands out; the indexes lead with `tenant_id` (docs/stores.md), so this condition
 * is also what lets every read seek its tenant's rows. `tenant` is the tenant's id, or a SQL
 * expression (a subquery, a parameter of {@link SqlContext.compiled}).
 *
 * @example
 * sql`SELECT doc FROM ${ctx.table('goals')} WHERE ${ofTenant(tenantId)} AND id = ${id}`
 * sql`... JOIN ${ctx.table('enrollments')} e ON ${ofTenant(tenantId, 'e')} AND e.course_id = ${id}`
 */
export function ofTenant(tenant: string | RawBuilder<unknown>, alias?: string): RawBuilder<boolean> {
  return alias === undefined
    ? sql<boolean>`tenant_id = ${tenant}`
    : sql<boolean>`${sql.raw(alias)}.tenant_id = ${tenant}`
}

/**
 * A statement compiled once ({@link SqlContext.compiled}). Kysely compiles a `sql` template on every run,
 * walking a node per value and per nested template, and for an insert of many values that walk costs more
 * than running the statement (`npm run bench statements`,
 * bench/README.md#statements-what-compiling-a-statement-once-saves). A statement whose shape never changes is
 * therefore written as a `sql` template over parameters, compiled once into its text, and each run only binds
 * its values (strings as the engine binds them, `engine.text`: Postgres refuses U+0000 in text).
 */
export interface CompiledStatement {
  /** The rows of the statement run with `values` (one per parameter, in order) on `ex` (default the store's db). */
  rows<R = Record<string, unknown>>(values: readonly unknown[], ex?: Exec): Promise<R[]>
  /**
   * The statement with `values`, as a `sql` template of one node per value, for a larger statement
   * (a write chained with others, `Engine.chainWrites`): for a small statement it compiles in a part
   * of the time its `build` would (a fifth to a quarter for 100 events); a large one runs alone,
   * through `rows`.
   */
  sql(values: readonly unknown[]): RawBuilder<unknown>
}

/** Marks parameter `i` in a statement's text while it is compiled: U+0000 is in no name or literal of the store. */
const MARK = '\u0000'
const MARKED = new RegExp(`${MARK}(\\d+)${MARK}`)

/**
 * The statement `build` writes over `arity` parameters, compiled by `db`, bound as `engine` binds.
 *
 * @example
 * const read = compileOnce(db, sqliteEngine, 2, ([tenant, id]) =>
 *   sql`SELECT doc FROM goals WHERE ${ofTenant(tenant)} AND id = ${id}`)
 * await read.rows([tenantId, id])
 */
function compileOnce<N extends number>(
  db: Exec,
  engine: Engine,
  arity: N,
  build: (params: Params<N>) => RawBuilder<unknown>,
): CompiledStatement {
  const bind = (value: unknown) => (typeof value === 'string' ? engine.text(value) : value)
  /** The template of one node per value: `build` compiled with each parameter marked, split at the marks. */
  const split = () => {
    const marks = Array.from({ length: arity }, (_, i) => sql.raw(`${MARK}${i}${MARK}`)) as unknown as Params<N>
    const marked = build(marks).compile(db)
    if (marked.parameters.length > 0)
      throw new Error(`Every value of a compiled statement is a parameter: ${marked.sql}`)
    const pieces = marked.sql.split(MARKED)
    const fragments = pieces.filter((_, i) => i % 2 === 0)
    const order = pieces.filter((_, i) => i % 2 === 1).map(Number)
    if (new Set(order).size !== arity) throw new Error(`Each of ${arity} parameters must be used: ${marked.sql}`)
    return { strings: Object.assign([...fragments], { raw: fragments }) as unknown as TemplateStringsArray, order }
  }
  // Each made on first use. A run keeps only its text and where its values go (`null`: in order); the
  // template's fragments (one per value, a megabyte for a seed batch) are kept only for `sql`.
  let template: ReturnType<typeof split> | undefined
  let runnable: { text: string; order: number[] | null } | undefined
  const check = (values: readonly unknown[]) => {
    if (values.length !== arity) throw new Error(`${arity} values expected, ${values.length} given`)
  }
  return {
    async rows<R>(values: readonly unknown[], ex: Exec = db): Promise<R[]> {
      check(values)
      if (runnable === undefined) {
        const { strings, order } = template ?? split()
        const text = sql(strings, ...order.map(() => null)).compile(db).sql
        runnable = { text, order: order.every((index, i) => index === i) ? null : order }
      }
      const { text, order } = runnable
      // One array allocated at its size (a seed batch binds 30,000 values).
      const bound = order === null ? values.map(bind) : order.map((i) => bind(values[i]))
      return (await ex.executeQuery<R>(CompiledQuery.raw(text, bound))).rows
    },
    sql(values) {
      check(values)
      template ??= split()
      const { strings, order } = template
      return sql(strings, ...order.map((i) => values[i]))
    },
  }
}

/**
 * A record parsed from stored JSON text, not cached (records that are changed before they are returned).
 *
 * @example
 * const budget = parse<BudgetRecord>(row.doc)
 */
export const parse = <T>(text: unknown): T => JSON.parse(String(text)) as T

/**
 * JSON text as stored.
 *
 * @example
 * sql`UPDATE ${ctx.table('budgets')} SET doc = ${json(next)} WHERE ...`
 */
export const json = (value: unknown): string => JSON.stringify(value)
