/**
 * createSqliteStore refuses a source it cannot use with a TypeError naming what is wrong, before it
 * opens anything: exactly one of `filename`, `database` and `dialect`, with only that form's options
 * (docs/stores.md). The options of the second argument are walked with every factory's in
 * test/build/factory-options.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { createSqliteStore, type SqliteStoreSource } from 'tenant-public-api/sqlite'

describe('createSqliteStore: the source', () => {
  const refused: [string, unknown, RegExp][] = [
    ['no source at all', {}, /exactly one of \{ filename \}, \{ database \} or \{ dialect \}/],
    ['not an object', undefined, /exactly one of/],
    ['two sources', { filename: ':memory:', dialect: {} }, /, not filename and dialect/],
    ['a filename that is not a string', { filename: 5 }, /filename must be a string/],
    [
      'a misspelt option',
      { filename: ':memory:', busyTimeout: 10 },
      /createSqliteStore\(\{ filename \}\) has no option "busyTimeout" \(did you mean busyTimeoutMs\?\)/,
    ],
    ['an option of another form', { dialect: { createDriver: () => undefined }, busyTimeoutMs: 10 }, /"busyTimeoutMs"/],
    ['a database that is not one', { database: {} }, /database must be a better-sqlite3 Database/],
    ['a busy timeout that is not a number', { filename: ':memory:', busyTimeoutMs: '5s' }, /busyTimeoutMs must be/],
  ]
  for (const [label, source, message] of refused)
    it(`refuses ${label} with a TypeError naming it`, async () => {
      const made = createSqliteStore(source as SqliteStoreSource, { migrate: false })
      await expect(made).rejects.toThrow(TypeError)
      await expect(made).rejects.toThrow(message)
    })
})
