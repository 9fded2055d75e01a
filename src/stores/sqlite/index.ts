/**
 * `tenant-public-api/sqlite`: the SQL store on SQLite. better-sqlite3 is an optional peer,
 * imported only when a `filename` is given; `{ database }` takes your handle, `{ dialect }` any
 * Kysely SQLite dialect (Bun, Deno, libsql...).
 */
import { Kysely, SqliteDialect, type Dialect, type SqliteDatabase, type SqliteStatement } from 'kysely'
import type BetterSqlite3 from 'better-sqlite3'
import { sqliteEngine } from '../kysely/engine.js'
import { createKyselyStore, type SqlStore } from '../kysely/kysely-store.js'

export { sqlRateLimiter, type SqlRateLimiterOptions } from '../kysely/rate-limiter.js'
export type { SqlStore } from '../kysely/kysely-store.js'

/** Where the SQLite database is. */
export type SqliteStoreSource =
  /** A file (created if missing); `:memory:` for a private in-memory database. */
  | { filename: string; busyTimeoutMs?: number }
  /** An open better-sqlite3 database. */
  | { database: BetterSqlite3.Database; busyTimeoutMs?: number }
  /** Any Kysely SQLite dialect. */
  | { dialect: Dialect }

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /** Run the migrations on creation. Default true. */
  migrate?: boolean
}

/**
 * A store in a SQLite database, in WAL mode with a busy timeout (default 5 s), so that several
 * processes can share the file; write transactions start with `BEGIN IMMEDIATE`. A new database
 * gets 16 KiB pages.
 *
 * @example
 * const store = await createSqliteStore({ filename: './data.db' })
 * const api = createPublicApi({ store, keyResolver })
 */
export async function createSqliteStore(
  source: SqliteStoreSource,
  options: SqliteStoreOptions = {},
): Promise<SqlStore> {
  let dialect: Dialect
  let owned: BetterSqlite3.Database | undefined
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
    // 16 KiB pages for a new database (an existing one keeps its own): a million-ticket load builds
    // its 21 indexes from table scans, which run about a fifth faster over bigger pages.
    database.pragma('page_size = 16384')
    database.pragma('journal_mode = WAL')
    database.pragma(`busy_timeout = ${Math.max(0, Math.floor(source.busyTimeoutMs ?? 5000))}`)
    database.pragma('synchronous = NORMAL')
    database.pragma('foreign_keys = ON')
    dialect = new SqliteDialect({ database: withStatementCache(database) })
  }
  void owned // closed by db.destroy() (the dialect closes the handle it was given)
  return createKyselyStore(new Kysely<unknown>({ dialect, plugins: [...sqliteEngine.plugins] }), sqliteEngine, {
    migrate: options.migrate ?? true,
  })
}

/** Prepared statements kept per SQL text: the store's statements are few, and pages differ only in their OFFSET. */
const MAX_CACHED_STATEMENTS = 256

/**
 * The handle as Kysely's dialect sees it, with `prepare` answered from a cache: Kysely prepares
 * every query anew, and compiling the statement costs about as much as running a page of it.
 * better-sqlite3 statements run to completion synchronously, so one may serve every query of its
 * text; SQLite re-prepares them itself after a schema change. Closing the handle finalises them.
 */
function withStatementCache(database: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>()
  return {
    close: () => database.close(),
    prepare(text) {
      let statement = statements.get(text)
      if (statement !== undefined) {
        // Most recently used last, so the oldest is dropped first.
        statements.delete(text)
      } else {
        statement = database.prepare(text)
        if (statements.size >= MAX_CACHED_STATEMENTS) statements.delete(statements.keys().next().value!)
      }
      statements.set(text, statement)
      return statement
    },
  }
}
