/**
 * What every part of the SQL store shares: the database, its engine, table names, and reading
 * rows and the records they hold (parsed once, frozen, and shared while their text is unchanged).
 */
import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely'
import { frozenFromJson } from '../../model/frozen-records.js'
import type { Engine } from './engine.js'
import { quote, type TableNamer } from './migrations/index.js'

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
   * The rows of hand-written SQL `text` (placeholders as `engine.placeholder` writes them) run with
   * `params`, strings bound as the engine needs (`engine.text`), on `ex`. For statements whose text
   * is built once: Kysely compiles a `sql` template anew on every run.
   */
  query<R = Record<string, unknown>>(text: string, params: readonly unknown[], ex?: Exec): Promise<R[]>
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
 * const row = await ctx.one(sql`SELECT doc FROM ${ctx.table('goals')} WHERE tenant_id = ${tenantId} AND id = ${id}`)
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
    async query<R>(text: string, params: readonly unknown[], ex: Exec = db): Promise<R[]> {
      const bound = params.map((value) => (typeof value === 'string' ? engine.text(value) : value))
      return (await ex.executeQuery<R>(CompiledQuery.raw(text, bound))).rows
    },
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

/** Where a parameter goes in the text of a {@link template}: a character no name or literal of the store holds. */
export const PARAM = '\u0000'

/**
 * A statement written once as SQL text, {@link PARAM} standing for each parameter, bound anew on each
 * call as a `sql` template of its fragments. Such a template compiles to one node per parameter; one
 * built of a nested template per column (`sql.join`, `sql.ref`) compiled in about 10 µs for a rule's
 * update, against 2 µs. (Not `?`: a Postgres schema name may hold one.)
 *
 * @example
 * const read = template(`SELECT doc FROM "goals" WHERE tenant_id = ${PARAM} AND id = ${PARAM}`)
 * await ctx.one(read(tenantId, id))
 */
export function template(text: string): (...values: unknown[]) => RawBuilder<unknown> {
  const fragments = text.split(PARAM)
  const strings = Object.assign([...fragments], { raw: fragments }) as unknown as TemplateStringsArray
  return (...values) => {
    if (values.length !== fragments.length - 1) {
      throw new Error(`${fragments.length - 1} values expected: ${text.replaceAll(PARAM, '?')}`)
    }
    return sql(strings, ...values)
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
