/**
 * Everything that differs between SQLite and Postgres, in one place (the Kysely-dialect idea: the
 * store speaks one SQL and asks its engine for the few pieces that differ). Decisions that are the
 * same on both engines are written down here too, so this file is the whole story:
 *
 * - **Booleans**: SQLite has none (0/1 in an INTEGER); Postgres has `boolean`.
 * - **JSON**: records are kept as their JSON text (`doc TEXT`) on both engines. `jsonb` would
 *   reorder keys and refuse `\u0000`; text round-trips exactly what the in-memory store returns.
 * - **Dates**: ISO 8601 text (`toISOString()`, as `normalizeSeed` and the core write them) on
 *   both: text order is time order, and equality with the in-memory store is exact.
 * - **Collation**: strings order by code point. SQLite's BINARY collation does that on UTF-8;
 *   Postgres columns are declared `COLLATE "C"`. Nulls last, ties by id: `NULLS LAST` on both, on
 *   every descending term and nullable column (an ascending NOT NULL term needs none).
 * - **Schema**: the column types below describe each engine; a migration writes its own DDL out
 *   (see `migrations/`) and the migrations test checks the model's columns against these types.
 * - **Search**: folded copies of searched columns are computed in JS (`foldCase`), so matching
 *   is exact on both. SQLite: an FTS5 trigram index for terms of 3+ characters, `instr` below
 *   that. Postgres: `LIKE` with `%`, `_` and `\` escaped, served by a `pg_trgm` GIN index.
 * - **Upsert**: `INSERT ... ON CONFLICT (...) DO UPDATE` on both.
 * - **Write transactions**: SQLite takes the write lock up front (`BEGIN IMMEDIATE` on the one
 *   connection) so that two processes never deadlock upgrading a read lock; Postgres uses a
 *   plain transaction with `SELECT ... FOR UPDATE` where it reads before writing, and
 *   `FOR UPDATE ... SKIP LOCKED` where dispatchers claim webhook work.
 * - **A write's statements**: Postgres sends a write's data-modifying statements (the change, the
 *   tenant's position counter, the events, a due retention prune) as one statement of
 *   data-modifying CTEs, one round trip (`chainWrites`), the events' ids spliced in by SQL from the
 *   counter's returned row; SQLite has no data-modifying CTEs and runs them one by one, which costs
 *   no round trips (the database is a library in this process): the counter's upsert returns the
 *   new last position and the events are written with their ids, from texts built once.
 *   A compare-and-set (rule, report) whose stored text the store already holds goes further on
 *   Postgres: its update, guarded by that text and version, and its event are one autocommit
 *   statement, the counter and event reading the update's returned row, so nothing is counted or
 *   recorded when the guard misses; it then falls back to the locked transaction (`guardedWrites`).
 * - **Reads of two things** (an events page and its bounds): one statement on Postgres, a round trip
 *   saved; two on SQLite, where better-sqlite3 builds a row of three columns at twice the cost of the
 *   same rows read plucked (`inProcess`).
 * - **Clock** (rate limiter): the database's own, in milliseconds since the epoch.
 * - **Text**: Postgres text cannot hold U+0000, so it is dropped from bound strings there.
 * - **Unavailability**: which driver errors mean "the database cannot be reached" (→ 503).
 */
import {
  CompiledQuery,
  OperationNodeTransformer,
  sql,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RawBuilder,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from 'kysely'

/** The name of a supported SQL engine. */
export type EngineName = 'sqlite' | 'postgres'

/**
 * What the shared SQL store asks of its engine.
 *
 * @example
 * const engine = sqliteEngine
 * sql`SELECT ${engine.bool(true)}`
 */
export interface Engine {
  readonly name: EngineName
  /**
   * A statement costs no round trip: the database is a library in this process (SQLite). Where a read
   * needs two things, the store then asks for them in two simple statements (the second's rows read
   * plucked), and Postgres in one.
   */
  readonly inProcess: boolean
  /** The type of boolean columns in DDL. */
  readonly booleanType: string
  /** The type of floating-point columns in DDL. */
  readonly realType: string
  /** The type of integer columns that may exceed 2^31 (epoch milliseconds). */
  readonly bigintType: string
  /** The type of text columns in DDL, with the code-point collation. */
  readonly textType: string
  /** The `i`-th (from 1) parameter placeholder in hand-written SQL text. */
  placeholder(index: number): string
  /** A string as bound in hand-written SQL (the query builder applies this through {@link plugins}). */
  text(value: string): string
  /** Kysely plugins every query of this engine needs. */
  readonly plugins: readonly KyselyPlugin[]
  /** A JS boolean as a bound value. */
  bool(value: boolean): boolean | number
  /** The database clock in epoch milliseconds, as one SQL expression (same value within a statement). */
  nowMs(): RawBuilder<number>
  /** Runs `fn` in a write transaction (SQLite: `BEGIN IMMEDIATE` on one reserved connection). */
  writeTransaction<T>(db: Kysely<unknown>, fn: (tx: Kysely<unknown>) => Promise<T>): Promise<T>
  /**
   * Statements around a bulk load inside its transaction (SQLite: a big page cache while many index
   * pages are touched), and whether a table a seed wrote many rows to is analysed in the seed's
   * transaction, before anything reads it back (Postgres: its planner works from statistics, and a
   * table loaded since its last ANALYZE is planned as if it were small; SQLite plans without them).
   */
  readonly bulkLoad: { before: string[]; after: string[]; analyze: boolean; rebuildIndexes: boolean }
  /**
   * The store's tables may live in a schema of their own (`createPostgresStore({ schema })`); SQLite has
   * one namespace per file, so the option is ignored there.
   */
  readonly schemas: boolean
  /**
   * A cursor page whose seek has several segments (a sort on more than one column) is one statement: a
   * `UNION ALL` of the segments' seeks, put in order once more (Postgres, where a statement is a round
   * trip). In process (SQLite) a statement per segment costs nothing extra and needs no sort of the union.
   */
  readonly unionSeeks: boolean
  /**
   * Runs the data-modifying statements `writes` (their results unused), then `named.write` (whose
   * rows `last` reads as the relation `named.name`), then `last`, in the transaction `ex`, as one
   * statement: `WITH w0 AS (…), …, name AS (named.write) last`; all its parts see one snapshot, so
   * a part may use another's effect only through `named`'s returned rows. Postgres only; `null` on
   * SQLite (no data-modifying CTEs, and a statement costs no round trip there): the caller runs its
   * statements one after another.
   */
  readonly chainWrites:
    | ((
        ex: Kysely<unknown>,
        writes: readonly RawBuilder<unknown>[],
        named: NamedWrite,
        last: RawBuilder<unknown>,
      ) => Promise<void>)
    | null
  /**
   * Runs `guard.write` (a data-modifying statement with RETURNING), the statements `writes`, then
   * `named.write` and `last` as {@link chainWrites} does, as ONE autocommit statement: `WITH
   * guard AS (…), w0 AS (…), …, name AS (named.write), done AS (last) SELECT count(*) FROM guard`.
   * `named.write` reads the relation `guard.name`, so it and `last` change nothing when the guard
   * matched no row; `writes` run either way. Resolves to whether the guard changed a row. Postgres
   * only; `null` on SQLite (no data-modifying CTEs, and a statement costs no round trip there): the
   * caller takes its write transaction instead.
   */
  readonly guardedWrites:
    | ((
        db: Kysely<unknown>,
        guard: NamedWrite,
        writes: readonly RawBuilder<unknown>[],
        named: NamedWrite,
        last: RawBuilder<unknown>,
      ) => Promise<boolean>)
    | null
  /** Appended to a SELECT that is followed by a write in the same transaction. */
  readonly forUpdate: string
  /**
   * Appended to the SELECT of a claim (webhook dispatch): rows another transaction has locked are
   * passed over, not waited for (Postgres `FOR UPDATE OF <alias> SKIP LOCKED`; SQLite needs none,
   * its write transaction already excludes every other writer).
   */
  skipLocked(alias: string): string
  /** `column` contains the folded `term` (already folded; any length); `fts` names SQLite's FTS5 table over it. */
  contains(column: string, term: string, fts?: { table: string; column: string }): RawBuilder<boolean>
  /** True when `error` means the database cannot be reached now (the request gets a 503). */
  isUnavailable(error: unknown): boolean
}

/**
 * A data-modifying statement with RETURNING, whose rows later parts of {@link Engine.chainWrites} and
 * {@link Engine.guardedWrites} read as `name`.
 */
export interface NamedWrite {
  readonly name: string
  readonly write: RawBuilder<unknown>
}

/**
 * SQLite result codes (extended ones included: `SQLITE_BUSY_TIMEOUT`, `SQLITE_IOERR_SHORT_READ`...) of a
 * database that is locked by another connection or cannot be read or written now.
 */
const SQLITE_UNAVAILABLE_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_FULL']

/** A write transaction's own statements, compiled once (Kysely compiles a `sql` template on every run). */
const SQLITE_TRANSACTION = {
  begin: CompiledQuery.raw('BEGIN IMMEDIATE'),
  commit: CompiledQuery.raw('COMMIT'),
  rollback: CompiledQuery.raw('ROLLBACK'),
}

/** The tail of this process's queue of SQLite write transactions (see `writeTransaction`). */
let sqliteWrites: Promise<unknown> = Promise.resolve()

/**
 * SQLite (better-sqlite3, or any Kysely SQLite dialect).
 *
 * @example
 * createSqlStore(new Kysely({ dialect }), sqliteEngine)
 */
export const sqliteEngine: Engine = {
  name: 'sqlite',
  inProcess: true,
  booleanType: 'INTEGER',
  realType: 'REAL',
  bigintType: 'INTEGER',
  textType: 'TEXT',
  placeholder: () => '?',
  text: (value) => value,
  plugins: [],
  bool: (value) => (value ? 1 : 0),
  nowMs: () => sql<number>`CAST(unixepoch('subsec') * 1000 AS INTEGER)`,
  // Kysely's transaction() says plain BEGIN, which takes the write lock only at the first write:
  // two processes that both read first then deadlock (SQLITE_BUSY at once, no busy wait).
  writeTransaction: (db, fn) => {
    const run = () =>
      db.connection().execute(async (connection) => {
        await connection.executeQuery(SQLITE_TRANSACTION.begin)
        try {
          const result = await fn(connection)
          await connection.executeQuery(SQLITE_TRANSACTION.commit)
          return result
        } catch (error) {
          await connection.executeQuery(SQLITE_TRANSACTION.rollback).catch(() => undefined)
          throw error
        }
      })
    // One SQLite write transaction at a time in this process. better-sqlite3 waits for a lock
    // synchronously: a second connection's BEGIN IMMEDIATE on the same file, while the first awaits
    // inside its transaction, would block the event loop the first needs to commit (two stores on
    // one file in one process). Queued here instead; other processes still meet busy_timeout.
    const result = sqliteWrites.then(run, run)
    sqliteWrites = result.catch(() => undefined)
    return result
  },
  chainWrites: null,
  guardedWrites: null,
  forUpdate: '',
  skipLocked: () => '',
  // 22 ticket indexes touched or rebuilt: with the default 2 MB cache most inserts would miss, and
  // a second sorter thread speeds up each index rebuild.
  bulkLoad: {
    before: ['PRAGMA cache_size = -512000', 'PRAGMA threads = 2'],
    after: ['PRAGMA cache_size = -2000', 'PRAGMA threads = 0'],
    analyze: false,
    // A load at least as big as the table is faster without the ticket indexes, rebuilt after in the
    // same transaction.
    rebuildIndexes: true,
  },
  schemas: false,
  unionSeeks: false,
  contains: (column, term, fts) => {
    // The trigram index needs 3 characters (code points); shorter terms scan with instr, which is
    // exact and needs no escaping.
    if (fts !== undefined && [...term].length >= 3) {
      const match = sql`${sql.raw(fts.column)} MATCH ${ftsPhrase(term)}`
      return sql<boolean>`rowid IN (SELECT rowid FROM ${sql.raw(fts.table)} WHERE ${match})`
    }
    return sql<boolean>`instr(${sql.ref(column)}, ${term}) > 0`
  },
  isUnavailable: (error) => {
    const code = (error as { code?: unknown } | null)?.code
    // SQLITE_PROTOCOL: WAL's lock protocol lost a race with another connection; it passes.
    return (
      typeof code === 'string' &&
      (code === 'SQLITE_PROTOCOL' || SQLITE_UNAVAILABLE_PREFIXES.some((prefix) => code.startsWith(prefix)))
    )
  },
}

function dropNul(value: string): string {
  return value.includes('\u0000') ? value.replaceAll('\u0000', '') : value
}

/** Drops U+0000 from every bound string: Postgres refuses it in text, and a 500 would follow. */
class DropNulPlugin implements KyselyPlugin {
  readonly #transformer = new (class extends OperationNodeTransformer {
    protected override transformValue(node: ValueNode): ValueNode {
      return typeof node.value === 'string' && node.value.includes('\u0000')
        ? { ...node, value: dropNul(node.value) }
        : node
    }
  })()

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node)
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result
  }
}

/** Node error codes of a socket that could not connect or was cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
])

/** SQLSTATEs of an unreachable, restarting, overloaded or timed-out server. */
function isUnavailableSqlState(code: string): boolean {
  return (
    code.startsWith('08') || // connection exceptions
    code === '57P01' || // admin_shutdown
    code === '57P02' || // crash_shutdown
    code === '57P03' || // cannot_connect_now (starting up)
    code === '53300' || // too_many_connections
    code === '57014' // query_canceled: statement_timeout
  )
}

/**
 * The comment that starts a Postgres statement worth preparing: a write's chained statement (the
 * change, the counter, the events), whose text repeats and whose every part finds its rows by key, so
 * a plan made once suits every run. The Postgres store sends such a statement, from its second run on
 * a connection, as a named prepared statement (`preparedStatements`, docs/stores.md): the server then
 * parses and plans it once per connection, not on every write (a rule update's statement spent about
 * a fifth of its time there). Reads are never marked: a plan made once for one tenant's page could
 * suit another tenant's badly.
 */
export const PREPARE = '/* prepare */ '

/**
 * Postgres (pg, or any Kysely Postgres dialect such as one over PGlite).
 *
 * @example
 * createSqlStore(new Kysely({ dialect: new PostgresDialect({ pool }) }), postgresEngine)
 */
export const postgresEngine: Engine = {
  name: 'postgres',
  inProcess: false,
  booleanType: 'boolean',
  realType: 'double precision',
  bigintType: 'bigint',
  textType: 'text COLLATE "C"',
  placeholder: (index) => `$${index}`,
  text: dropNul,
  plugins: [new DropNulPlugin()],
  bool: (value) => value,
  nowMs: () => sql<number>`(extract(epoch from statement_timestamp()) * 1000)::bigint`,
  writeTransaction: (db, fn) => db.transaction().execute(fn),
  chainWrites: async (ex, writes, named, last) => {
    const ctes = writes.map((write, i) => sql`${sql.raw(`w${i}`)} AS (${write})`)
    ctes.push(sql`${sql.raw(named.name)} AS (${named.write})`)
    await sql`${sql.raw(PREPARE)}WITH ${sql.join(ctes)} ${last}`.execute(ex)
  },
  guardedWrites: async (db, guard, writes, named, last) => {
    const ctes = [
      sql`${sql.raw(guard.name)} AS (${guard.write})`,
      ...writes.map((write, i) => sql`${sql.raw(`w${i}`)} AS (${write})`),
      sql`${sql.raw(named.name)} AS (${named.write})`,
      sql`done AS (${last})`,
    ]
    const { rows } = await sql<{ n: unknown }>`${sql.raw(PREPARE)}WITH ${sql.join(ctes)}
      SELECT count(*) AS n FROM ${sql.raw(guard.name)}`.execute(db)
    return Number(rows[0]?.n) > 0
  },
  forUpdate: ' FOR UPDATE',
  skipLocked: (alias) => ` FOR UPDATE OF ${alias} SKIP LOCKED`,
  // A tenant's 500-id read-back after a load of 600,000 tickets chose an index by tenant and assignee
  // on stale statistics and read all 600,000 rows, 0.35 s a batch (bench/README.md).
  bulkLoad: { before: [], after: [], analyze: true, rebuildIndexes: false },
  schemas: true,
  unionSeeks: true,
  // LIKE's default escape character is the backslash; pg_trgm's GIN index serves it for 3+ characters.
  contains: (column, term) => sql<boolean>`${sql.ref(column)} LIKE ${`%${escapeLike(term)}%`}`,
  isUnavailable: (error) => isUnavailablePostgres(error, 0),
}

/**
 * Messages of pg and pg-pool when a connection cannot be made, was lost, or gave no answer in time
 * (query_timeout, a pool's connect timeout, the client's own connect timeout).
 */
const POSTGRES_UNAVAILABLE_MESSAGE = new RegExp(
  [
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'Connection ended',
    'not queryable',
    'connect ECONNREFUSED',
    'Query read timeout',
    '^timeout expired$',
  ].join('|'),
  'i',
)

/** The error, or what it wraps (pg-pool's connect timeout wraps the socket's error), means 503. */
function isUnavailablePostgres(error: unknown, depth: number): boolean {
  const e = error as { code?: unknown; message?: unknown; cause?: unknown } | null
  if (e === null || typeof e !== 'object') return false
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || isUnavailableSqlState(e.code))) return true
  if (typeof e.message === 'string' && POSTGRES_UNAVAILABLE_MESSAGE.test(e.message)) return true
  return depth < 4 && e.cause !== undefined && isUnavailablePostgres(e.cause, depth + 1)
}

/** Escapes `%`, `_` and `\` so that a term matches itself inside `LIKE ... ESCAPE '\'`. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** Quotes a term as one FTS5 phrase: every character literal, `"` doubled. */
export function ftsPhrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`
}
