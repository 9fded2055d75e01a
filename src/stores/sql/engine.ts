/**
 * Everything that differs between SQLite and Postgres, as one interface (the Kysely-dialect idea: the
 * store speaks one SQL and asks its engine for the few pieces that differ), implemented by
 * `sqlite-engine.ts` and `postgres-engine.ts`. Decisions that are the same on both engines are
 * written down here too, so this file is the whole story:
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
import type { Kysely, KyselyPlugin, RawBuilder } from 'kysely'

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
  /**
   * A string as bound to a statement compiled once (`SqlContext.compiled`; a `sql` template gets this
   * through {@link plugins}).
   */
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
