/**
 * The SQLite engine (engine.ts says what an engine decides): booleans as 0/1, the write lock taken
 * up front, FTS5 trigram search, indexes rebuilt after a big load, and every statement run in turn (in
 * process, it costs no round trip).
 */
import { sql } from 'kysely'
import type { Engine } from './engine.js'
import { quote } from './context.js'

/**
 * SQLite result codes (extended ones included: `SQLITE_BUSY_TIMEOUT`, `SQLITE_IOERR_SHORT_READ`...) of a
 * database that is locked by another connection or cannot be read or written now.
 */
const SQLITE_UNAVAILABLE_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_FULL']

/**
 * SQLite (better-sqlite3, or any Kysely SQLite dialect).
 *
 * @example
 * createSqlStore(new Kysely({ dialect }), sqliteEngine)
 */
export const sqliteEngine: Engine = {
  name: 'sqlite',
  capabilities: {
    inProcess: true,
    dataModifyingCtes: false,
    writeLockAtBegin: true,
    schemas: false,
    unionSeeks: false,
    plansFromStatistics: false,
    // A load at least as big as the table is faster without its indexes, rebuilt after in the same transaction.
    rebuildsIndexes: true,
  },
  fragments: {
    bool: (value) => (value ? 1 : 0),
    nowMs: () => sql<number>`CAST(unixepoch('subsec') * 1000 AS INTEGER)`,
    // Kysely's transaction() says plain BEGIN, which takes the write lock only at the first write:
    // two processes that both read first then deadlock (SQLITE_BUSY at once, no busy wait).
    beginWrite: 'BEGIN IMMEDIATE',
    forUpdate: '',
    skipLocked: () => '',
    contains: (column, term, fts) => {
      // The trigram index needs 3 characters (code points); shorter terms scan with instr, which is
      // exact and needs no escaping.
      if (fts !== undefined && [...term].length >= 3) {
        const match = sql`${sql.raw(fts.column)} MATCH ${ftsPhrase(term)}`
        return sql<boolean>`rowid IN (SELECT rowid FROM ${sql.raw(fts.table)} WHERE ${match})`
      }
      return sql<boolean>`instr(${sql.ref(column)}, ${term}) > 0`
    },
    // 22 ticket indexes touched or rebuilt: with the default 2 MB cache most inserts would miss, and
    // a second sorter thread speeds up each index rebuild.
    bulkLoad: {
      before: ['PRAGMA cache_size = -512000', 'PRAGMA threads = 2'],
      after: ['PRAGMA cache_size = -2000', 'PRAGMA threads = 0'],
    },
    indexTerm: (column) => {
      const [name = '', direction] = column.split(' ')
      return direction === undefined ? quote(name) : `${quote(name)} ${direction}`
    },
    // The external-content FTS table follows its table by triggers; the insert trigger is dropped for
    // the load and the index rebuilt from the table in one pass.
    ftsRebuild: (table, fts) => {
      const trigger = `${table}_fts_insert`
      return {
        drop: [`DROP TRIGGER IF EXISTS ${trigger}`],
        create: [
          `INSERT INTO ${fts.table}(${fts.table}) VALUES ('rebuild')`,
          `CREATE TRIGGER IF NOT EXISTS ${trigger} AFTER INSERT ON ${table} BEGIN ` +
            `INSERT INTO ${fts.table}(rowid, ${fts.column}) VALUES (new.rowid, new.${fts.column}); END`,
        ],
      }
    },
    prepare: '',
    currentSchema: null,
  },
  ddl: { booleanType: 'INTEGER', realType: 'REAL', bigintType: 'INTEGER', textType: 'TEXT' },
  driver: {
    text: (value) => value,
    plugins: [],
    isUnavailable: (error) => {
      const code = (error as { code?: unknown } | null)?.code
      // SQLITE_PROTOCOL: WAL's lock protocol lost a race with another connection; it passes.
      return (
        typeof code === 'string' &&
        (code === 'SQLITE_PROTOCOL' || SQLITE_UNAVAILABLE_PREFIXES.some((prefix) => code.startsWith(prefix)))
      )
    },
  },
}

/** Quotes a term as one FTS5 phrase: every character literal, `"` doubled. */
export function ftsPhrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`
}
