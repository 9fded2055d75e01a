/**
 * Everything that differs between SQLite and Postgres, split as Kysely splits a dialect (driver, query
 * compiler, adapter, introspector) and implemented by `sqlite-engine.ts` and `postgres-engine.ts`:
 *
 * - **capabilities** (Kysely's adapter): flags the store chooses its strategies by (`write-strategies.ts`,
 *   `queries.ts`, `event-pages.ts`, `seeding.ts`), never the engine's name;
 * - **fragments** (compiler-like): the few pieces of SQL text or values that differ;
 * - **ddl**: column types, for the migrations test only (the frozen migrations write theirs out);
 * - **driver**: how strings are bound and which driver errors mean the database cannot be reached.
 *
 * The write strategies (a write transaction, a write's statements chained into one) are the store's, in
 * `write-strategies.ts`, chosen by capability. Decisions that are the same on both engines are written
 * down here too, so this file is the whole story:
 *
 * - **Booleans**: SQLite has none (0/1 in an INTEGER); Postgres has `boolean`.
 * - **JSON**: records are kept as their JSON text (`doc TEXT`) on both engines. `jsonb` would
 *   reorder keys and refuse `\u0000`; text round-trips exactly what the in-memory store returns.
 * - **Dates**: ISO 8601 text (`toISOString()`, as `normalizeSeed` and the core write them) on
 *   both: text order is time order, and equality with the in-memory store is exact.
 * - **Collation**: strings order by code point. SQLite's BINARY collation does that on UTF-8;
 *   Postgres columns are declared `COLLATE "C"`. Nulls last, ties by id: `NULLS LAST` on both, on
 *   every descending term and nullable column (an ascending NOT NULL term needs none).
 * - **Schema**: what the store reads of it is `schema.ts`; a migration writes its own DDL out (see
 *   `migrations/`) and the migrations test checks the model's columns against the `ddl` types.
 * - **Search**: folded copies of searched columns are computed in JS (`foldCase`), so matching
 *   is exact on both. SQLite: an FTS5 trigram index for terms of 3+ characters, `instr` below
 *   that. Postgres: `LIKE` with `%`, `_` and `\` escaped, served by a `pg_trgm` GIN index.
 * - **Upsert**: `INSERT ... ON CONFLICT (...) DO UPDATE` on both.
 * - **Write transactions**: SQLite takes the write lock up front (`BEGIN IMMEDIATE` on the one
 *   connection) so that two processes never deadlock upgrading a read lock; Postgres uses a
 *   plain transaction with `SELECT ... FOR UPDATE` where it reads before writing, and
 *   `FOR UPDATE ... SKIP LOCKED` where dispatchers claim webhook work.
 * - **A write's statements**: where a statement is a round trip (Postgres), a write's data-modifying
 *   statements go as one statement of data-modifying CTEs; in process (SQLite) they run one by one,
 *   which costs no round trips (`write-strategies.ts` says how).
 * - **Reads of two things** (an events page and its bounds): one statement on Postgres, a round trip
 *   saved; two on SQLite, where better-sqlite3 builds a row of three columns at twice the cost of the
 *   same rows read plucked (`inProcess`).
 * - **Clock** (rate limiter): the database's own, in milliseconds since the epoch.
 * - **Text**: Postgres text cannot hold U+0000, so it is dropped from bound strings there.
 * - **Unavailability**: which driver errors mean "the database cannot be reached" (→ 503).
 */
import type { KyselyPlugin, RawBuilder } from 'kysely'

/** The name of a supported SQL engine: what a `SqlStore` reports and what the frozen migrations take. */
export type EngineName = 'sqlite' | 'postgres'

/**
 * What an engine can do (Kysely's adapter): the store picks its strategies by these flags.
 *
 * @example
 * const read = engine.capabilities.unionSeeks ? oneStatement : statementPerSegment
 */
export interface EngineCapabilities {
  /**
   * A statement costs no round trip: the database is a library in this process (SQLite). Where a read
   * needs two things, the store then asks for them in two simple statements (the second's rows read
   * plucked), and Postgres in one.
   */
  readonly inProcess: boolean
  /**
   * Data-modifying statements may be CTEs of one statement (Postgres): a write's change, counter and
   * events then travel as one statement, and a guarded compare-and-set with its event as one autocommit
   * statement (`write-strategies.ts`).
   */
  readonly dataModifyingCtes: boolean
  /**
   * A write transaction takes the write lock at its start (`fragments.beginWrite`), and this process
   * runs one at a time (SQLite, whose driver waits for a lock synchronously); otherwise a plain
   * transaction (Postgres, which locks rows as it reads them `FOR UPDATE`).
   */
  readonly writeLockAtBegin: boolean
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
   * The planner works from statistics (Postgres): a table a seed wrote many rows to is analysed in the
   * seed's transaction, before anything reads it back, since a table loaded since its last ANALYZE is
   * planned as if it were small (SQLite plans without them).
   */
  readonly plansFromStatistics: boolean
  /**
   * A load at least as big as its table is faster without the table's indexes, dropped before and
   * rebuilt after in the same transaction (SQLite: one sort per index instead of random inserts).
   */
  readonly rebuildsIndexes: boolean
}

/** The SQLite FTS5 table over a folded column (`schema.ts`, `ftsOf`). */
export interface FtsTable {
  readonly table: string
  readonly column: string
}

/**
 * The pieces of SQL that differ between engines (compiler-like): values, clauses, and the statements a
 * bulk load runs around itself.
 *
 * @example
 * sql`SELECT doc FROM ${t} WHERE ${ofTenant(tenantId)} AND id = ${id}${sql.raw(engine.fragments.forUpdate)}`
 */
export interface EngineFragments {
  /** A JS boolean as a bound value. */
  bool(value: boolean): boolean | number
  /** The database clock in epoch milliseconds, as one SQL expression (same value within a statement). */
  nowMs(): RawBuilder<number>
  /** What starts a write transaction where the capabilities say `writeLockAtBegin`. */
  readonly beginWrite: string
  /** Appended to a SELECT that is followed by a write in the same transaction. */
  readonly forUpdate: string
  /**
   * Appended to the SELECT of a claim (webhook dispatch): rows another transaction has locked are
   * passed over, not waited for (Postgres `FOR UPDATE OF <alias> SKIP LOCKED`; SQLite needs none,
   * its write transaction already excludes every other writer).
   */
  skipLocked(alias: string): string
  /** `column` contains the folded `term` (already folded; any length); `fts` names SQLite's FTS5 table over it. */
  contains(column: string, term: string, fts?: FtsTable): RawBuilder<boolean>
  /**
   * Statements around a bulk load inside its transaction (SQLite: a big page cache while many index
   * pages are touched).
   */
  readonly bulkLoad: { readonly before: readonly string[]; readonly after: readonly string[] }
  /**
   * One column of an index's DDL from `'<column>'` or `'<column> DESC'`; `key` when it is a key column
   * (never null: Postgres orders the others nulls last both ways).
   */
  indexTerm(column: string, key: boolean): string
  /**
   * What a rebuild of `table`'s indexes drops before a bulk load and makes after it to keep the FTS
   * table `fts` over it in step (SQLite: its insert trigger, then one rebuild from the table).
   */
  ftsRebuild(table: string, fts: FtsTable): { drop: string[]; create: string[] }
  /**
   * The comment that starts a statement worth preparing (a write's chained statement, whose text repeats:
   * Postgres, `PREPARE` in postgres-engine.ts); empty where nothing is prepared.
   */
  readonly prepare: string
  /** The schema unqualified names resolve to, as a query (Postgres); null where there are no schemas. */
  readonly currentSchema: RawBuilder<{ schema: string | null }> | null
}

/** The column types of the engine's DDL: the migrations test checks the model's columns against them. */
export interface EngineDdl {
  /** The type of boolean columns in DDL. */
  readonly booleanType: string
  /** The type of floating-point columns in DDL. */
  readonly realType: string
  /** The type of integer columns that may exceed 2^31 (epoch milliseconds). */
  readonly bigintType: string
  /** The type of text columns in DDL, with the code-point collation. */
  readonly textType: string
}

/** The driver's part: how strings are bound, and which of its errors mean the database cannot be reached. */
export interface EngineDriver {
  /**
   * A string as bound to a statement compiled once (`SqlContext.compiled`; a `sql` template gets this
   * through {@link plugins}).
   */
  text(value: string): string
  /** Kysely plugins every query of this engine needs. */
  readonly plugins: readonly KyselyPlugin[]
  /** True when `error` means the database cannot be reached now (the request gets a 503). */
  isUnavailable(error: unknown): boolean
}

/**
 * What the shared SQL store asks of its engine, in four parts. Outside the engine files the store reads
 * the parts, never `name` (only the migrator passes it to the frozen migrations, which take it).
 *
 * @example
 * const engine = sqliteEngine
 * sql`SELECT ${engine.fragments.bool(true)}`
 */
export interface Engine {
  readonly name: EngineName
  readonly capabilities: EngineCapabilities
  readonly fragments: EngineFragments
  readonly ddl: EngineDdl
  readonly driver: EngineDriver
}
