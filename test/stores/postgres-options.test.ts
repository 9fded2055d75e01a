/**
 * createPostgresStore refuses a source it cannot use with a TypeError naming the option, before any
 * connection: pg itself would fail at the first query, far from the mistake (docs/stores.md). A good pool
 * and dialect are taken as before: the conformance suite runs on both (test/conformance).
 */
import { describe, expect, it } from 'vitest'
import { createPostgresStore, type PostgresStoreSource } from 'tenant-public-api/postgres'

describe('createPostgresStore: the source', () => {
  const refused: [string, unknown, RegExp][] = [
    [
      'connectionString undefined (an unset variable)',
      { connectionString: undefined },
      /connectionString.*not undefined/,
    ],
    ['an empty connectionString', { connectionString: ' ' }, /connectionString.*not an empty string/],
    ['a connectionString that is not a string', { connectionString: 5432 }, /connectionString.*not 5432/],
    ['no source at all', {}, /exactly one of connectionString, pool or dialect/],
    ['two sources', { connectionString: 'postgres://x', dialect: {} }, /not connectionString and dialect/],
    ['a pool that is not a pool', { pool: {} }, /pool must be a pg Pool/],
    ['a dialect that is not a dialect', { dialect: null }, /dialect must be a Kysely Dialect/],
    ['not an object', undefined, /needs \{ connectionString \}/],
    [
      'a misspelt option of the connection-string form',
      { connectionString: 'postgres://x@127.0.0.1:1/none', shema: 'api' },
      /createPostgresStore\(\{ connectionString \}\) has no option "shema" \(did you mean schema\?\)/,
    ],
    [
      'an option of another form',
      { pool: { connect: () => undefined }, statementTimeoutMs: 1000 },
      /createPostgresStore\(\{ pool \}\) has no option "statementTimeoutMs"/,
    ],
    [
      'a dialect with a pool size',
      { dialect: { createDriver: () => undefined }, max: 5 },
      /\{ dialect \}\) has no option "max"/,
    ],
    [
      'a wrong type',
      { connectionString: 'postgres://x@127.0.0.1:1/none', max: '10' },
      /max must be a positive integer/,
    ],
  ]
  for (const [label, source, message] of refused)
    it(`refuses ${label} with a TypeError naming it`, async () => {
      const made = createPostgresStore(source as PostgresStoreSource, { migrate: false })
      await expect(made).rejects.toThrow(TypeError)
      await expect(made).rejects.toThrow(message)
    })
})
