/**
 * `tenant-public-api/sqlite`: the SQL store on SQLite. better-sqlite3 is an optional peer,
 * imported only when a `filename` is given; `{ database }` takes your handle, `{ dialect }` any
 * Kysely SQLite dialect (Bun, Deno, libsql...).
 */
import { Kysely, SqliteDialect, type Dialect, type SqliteDatabase, type SqliteStatement } from 'kysely'
import type BetterSqlite3 from 'better-sqlite3'
import { checkOptions, is, type OptionChecks } from '../../model/options.js'
import { StoreUnavailableError } from '../../ports/store.js'
import { type CheckpointedFile, checkpointInBackground, FALLBACK_CHECKPOINT_PAGES } from './checkpointer.js'
import { sqliteEngine } from '../sql/sqlite-engine.js'
import { createSqlStore, type SqlStore } from '../sql/sql-store.js'

export { sqlRateLimiter, type SqlRateLimiterOptions } from '../sql/rate-limiter.js'
export type { SqlStore } from '../sql/sql-store.js'

/** Where the SQLite database is. */
export type SqliteStoreSource =
  /**
   * A file (created if missing); `:memory:` for a private in-memory database. `busyTimeoutMs`: how long
   * a statement waits for another connection's lock before it answers 503. Default 5,000 ms.
   */
  | { filename: string; busyTimeoutMs?: number }
  /** An open better-sqlite3 database (its busy timeout becomes `busyTimeoutMs`). */
  | { database: BetterSqlite3.Database; busyTimeoutMs?: number }
  /** Any Kysely SQLite dialect: busy waiting is the dialect's. */
  | { dialect: Dialect }

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /** Run the migrations on creation. Default true. */
  migrate?: boolean
  /** How long events are kept (default 30 days); writes prune older ones, at most once a minute per tenant. */
  eventRetentionMs?: number
}

const CHECKS: OptionChecks<SqliteStoreOptions> = { migrate: is.boolean, eventRetentionMs: is.integer(1) }

type Form<K extends string> = Extract<SqliteStoreSource, Record<K, unknown>>
/** The options beside each form's own key (src/model/options.ts). */
const SOURCE_CHECKS = {
  filename: { filename: is.string, busyTimeoutMs: is.nonNegativeNumber } satisfies OptionChecks<Form<'filename'>>,
  database: {
    database: (value: unknown) =>
      typeof (value as { prepare?: unknown } | null)?.prepare === 'function'
        ? undefined
        : 'must be a better-sqlite3 Database',
    busyTimeoutMs: is.nonNegativeNumber,
  } satisfies OptionChecks<Form<'database'>>,
  dialect: {
    dialect: (value: unknown) =>
      typeof (value as { createDriver?: unknown } | null)?.createDriver === 'function'
        ? undefined
        : 'must be a Kysely Dialect',
  } satisfies OptionChecks<Form<'dialect'>>,
}

/** Exactly one of `filename`, `database` and `dialect`, with only the options of that form. */
function checkSource(source: unknown): asserts source is SqliteStoreSource {
  const forms = Object.keys(SOURCE_CHECKS) as (keyof typeof SOURCE_CHECKS)[]
  const given = typeof source === 'object' && source !== null ? forms.filter((form) => form in source) : []
  if (given.length !== 1)
    throw new TypeError(
      `createSqliteStore needs exactly one of { filename }, { database } or { dialect }${
        given.length > 1 ? `, not ${given.join(' and ')}` : ''
      }`,
    )
  const form = given[0] as keyof typeof SOURCE_CHECKS
  checkOptions(source, SOURCE_CHECKS[form] as OptionChecks<object>, {
    name: `createSqliteStore({ ${form} })`,
    required: [form as never],
  })
}

/**
 * A store in a SQLite database, in WAL mode with a busy timeout (default 5 s), so that several
 * processes can share the file; write transactions start with `BEGIN IMMEDIATE`. A statement that
 * cannot get a lock within the busy timeout answers 503, and so do the statements queued behind it
 * while the lock stays taken, instead of waiting again one after another. A new database gets 4 KiB pages;
 * the write-ahead log of a file is checkpointed by a background thread (checkpointer.ts).
 *
 * @example
 * const store = await createSqliteStore({ filename: './data.db' })
 * const api = createPublicApi({ store, keyResolver })
 */
export async function createSqliteStore(
  source: SqliteStoreSource,
  options: SqliteStoreOptions = {},
): Promise<SqlStore> {
  checkSource(source)
  checkOptions(options, CHECKS, { name: 'createSqliteStore' })
  let dialect: Dialect
  let owned: BetterSqlite3.Database | undefined
  let checkpoints: CheckpointedFile | undefined
  if ('dialect' in source) {
    dialect = source.dialect
  } else {
    let database: BetterSqlite3.Database
    if ('database' in source) {
      database = source.database
    } else {
      const module = await import('better-sqlite3')
      const Database = (module.default ?? module) as unknown as typeof BetterSqlite3
      database = owned = new Database(source.filename)
    }
    const requested =
      source.busyTimeoutMs !== undefined && Number.isFinite(source.busyTimeoutMs) ? source.busyTimeoutMs : 5000
    const busyTimeoutMs = Math.min(Math.max(0, Math.floor(requested)), MAX_BUSY_TIMEOUT_MS)
    try {
      // The busy timeout first: switching to WAL waits for other connections' locks like any statement.
      database.pragma(`busy_timeout = ${busyTimeoutMs}`)
      // 4 KiB pages for a new database (an existing one keeps its own). A write rewrites every page it
      // touches into the log, and one with its event touches about six (the record, the event and its
      // indexes, the tenant's counter): 16 KiB pages wrote several times the log per write and spilled the
      // statement journal to a temporary file per write (bench/README.md#measurements-behind-the-code).
      database.pragma('page_size = 4096')
      database.pragma('journal_mode = WAL')
      database.pragma('synchronous = NORMAL')
      database.pragma('foreign_keys = ON')
      // A checkpoint syncs the log and the database file, most of the cost of the write it lands on: a worker
      // thread takes them over (checkpointer.ts), and a write checkpoints on its own only past 64 MiB of log.
      // Without the worker, every 4,000 pages, 16 MiB (SQLite's default is 1,000): a quarter as many
      // checkpoints make writes cheaper (bench/README.md#measurements-behind-the-code).
      checkpoints = database.memory || database.name === '' ? undefined : checkpointInBackground(database.name)
      database.pragma(`wal_autocheckpoint = ${checkpoints === undefined ? 4000 : FALLBACK_CHECKPOINT_PAGES}`)
    } catch (error) {
      await checkpoints?.stop()
      owned?.close()
      throw sqliteEngine.isUnavailable(error) ? new StoreUnavailableError(error) : error
    }
    dialect = new SqliteDialect({ database: withStatementCache(database, new BusyGate(database, busyTimeoutMs)) })
  }
  // Once the store exists, db.destroy() closes the handle (the dialect closes the one it was given).
  try {
    return await createSqlStore(new Kysely<unknown>({ dialect, plugins: [...sqliteEngine.plugins] }), sqliteEngine, {
      migrate: options.migrate ?? true,
      ...(options.eventRetentionMs !== undefined ? { eventRetentionMs: options.eventRetentionMs } : {}),
      onClose: () => checkpoints?.stop(),
    })
  } catch (error) {
    await checkpoints?.stop()
    owned?.close() // the migrations failed (a locked file: 503): no store, so no one else would close it
    throw error
  }
}

/** Prepared statements kept per SQL text: the store's statements are few, and pages differ only in their OFFSET. */
const MAX_CACHED_STATEMENTS = 256
/** SQLite keeps the busy timeout in a C int of milliseconds. */
const MAX_BUSY_TIMEOUT_MS = 2_147_483_647

/**
 * Lets statements wait out another connection's lock at most once per `busyTimeoutMs`. better-sqlite3
 * waits synchronously, one statement after another: without this, each request queued behind a wait
 * that ran out would wait the whole timeout again (ten requests, ten timeouts, the event loop blocked
 * throughout). After a wait runs out, statements fail at once (SQLITE_BUSY → 503) until a write
 * succeeds or `busyTimeoutMs` has passed; then the next one waits again. Reads in WAL mode are not
 * held up by a writer, so their success says nothing about the lock.
 */
class BusyGate {
  /** While set (a `performance.now()` time), the busy timeout is 0. */
  #failFastUntil = 0

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly busyTimeoutMs: number,
  ) {}

  /** Before a statement: its start time. */
  before(): number {
    const now = performance.now()
    if (this.#failFastUntil !== 0 && now >= this.#failFastUntil) this.#waitAgain()
    return now
  }

  succeeded(wrote: boolean): void {
    if (wrote && this.#failFastUntil !== 0) this.#waitAgain()
  }

  /** After a statement threw `error`; returns it. */
  failed(error: unknown, start: number): unknown {
    // Half the timeout at least: the statement did wait (SQLite also says BUSY at once, e.g. for a stale snapshot).
    const waited = performance.now() - start >= this.busyTimeoutMs / 2
    if (this.#failFastUntil === 0 && this.busyTimeoutMs > 0 && waited && sqliteEngine.isUnavailable(error)) {
      this.#failFastUntil = performance.now() + this.busyTimeoutMs
      this.database.pragma('busy_timeout = 0')
    }
    return error
  }

  #waitAgain(): void {
    this.#failFastUntil = 0
    this.database.pragma(`busy_timeout = ${this.busyTimeoutMs}`)
  }
}

/**
 * The handle as Kysely's dialect sees it, with `prepare` answered from a cache: Kysely prepares
 * every query anew, and compiling the statement costs about as much as running a page of it.
 * better-sqlite3 statements run to completion synchronously, so one may serve every query of its
 * text; SQLite re-prepares them itself after a schema change. Closing the handle finalises them.
 */
function withStatementCache(database: BetterSqlite3.Database, gate: BusyGate): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>()
  return {
    close: () => database.close(),
    prepare(text) {
      let statement = statements.get(text)
      if (statement !== undefined) {
        // Most recently used last, so the oldest is dropped first.
        statements.delete(text)
      } else {
        statement = gated(database.prepare(text), gate)
        if (statements.size >= MAX_CACHED_STATEMENTS) statements.delete(statements.keys().next().value!)
      }
      statements.set(text, statement)
      return statement
    },
  }
}

/**
 * A prepared statement whose runs go through `gate` (Kysely iterates only for streams, which the store
 * never uses). A statement of one column (a page of documents, an events page) is read plucked and its
 * rows made here: better-sqlite3 builds each row object through V8's C++ API, which costs an events page
 * about half its read (bench/README.md#measurements-behind-the-code).
 */
function gated(statement: BetterSqlite3.Statement, gate: BusyGate): SqliteStatement {
  // BEGIN IMMEDIATE counts as a write (it takes the write lock); BEGIN, COMMIT and plain reads do not.
  const writes = !statement.readonly
  const columns = statement.reader ? statement.columns() : []
  const column = columns.length === 1 ? columns[0]!.name : undefined
  if (column !== undefined) statement.pluck(true)
  return {
    reader: statement.reader,
    all(parameters) {
      const start = gate.before()
      try {
        const found = statement.all(parameters)
        gate.succeeded(writes)
        return column === undefined ? found : found.map((value) => ({ [column]: value }))
      } catch (error) {
        throw gate.failed(error, start)
      }
    },
    run(parameters) {
      const start = gate.before()
      try {
        const result = statement.run(parameters)
        gate.succeeded(writes)
        return result
      } catch (error) {
        throw gate.failed(error, start)
      }
    },
    iterate:
      column === undefined
        ? (parameters) => statement.iterate(parameters)
        : function* (parameters) {
            for (const value of statement.iterate(parameters)) yield { [column]: value }
          },
  }
}
