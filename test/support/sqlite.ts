/**
 * SQLite stores for tests that count statements: `countingSqliteStore` runs on a fresh file through a
 * dialect that counts every statement run (no statement cache, so each run is one prepare and one run).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { SqliteDialect } from 'kysely'
import { createSqliteStore, type SqlStore } from 'tenant-public-api/sqlite'

/**
 * A SQLite store on a fresh file that counts the statements it runs, and `another` store on the same
 * file (not counted), as a second process would have.
 *
 * @example
 * const { store, statements } = await createCountingSqliteStore()
 */
export async function createCountingSqliteStore(): Promise<{
  store: SqlStore
  statements: () => number
  another: (options?: { eventRetentionMs?: number }) => Promise<SqlStore>
}> {
  const filename = join(mkdtempSync(join(tmpdir(), 'tenant-api-count-')), 'n.db')
  const database = new Database(filename)
  database.pragma('journal_mode = WAL')
  database.pragma('busy_timeout = 5000')
  let count = 0
  const counted =
    <A extends unknown[], R>(run: (...args: A) => R) =>
    (...args: A): R => {
      count++
      return run(...args)
    }
  const dialect = new SqliteDialect({
    database: {
      close: () => database.close(),
      prepare: (text: string) => {
        const statement = database.prepare(text)
        return {
          reader: statement.reader,
          all: counted(statement.all.bind(statement)),
          run: counted(statement.run.bind(statement)),
          iterate: counted(statement.iterate.bind(statement)),
        }
      },
    },
  })
  const another = (options: { eventRetentionMs?: number } = {}) =>
    createSqliteStore({ filename }, { migrate: false, ...options })
  return { store: await createSqliteStore({ dialect }), statements: () => count, another }
}
