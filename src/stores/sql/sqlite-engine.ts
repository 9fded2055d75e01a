/**
 * The SQLite engine (engine.ts says what an engine decides): booleans as 0/1, the write lock taken
 * up front, FTS5 trigram search, and every statement run in turn (in process, it costs no round trip).
 */
import { CompiledQuery, sql } from 'kysely'
import type { Engine } from './engine.js'

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

/** Quotes a term as one FTS5 phrase: every character literal, `"` doubled. */
export function ftsPhrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`
}
