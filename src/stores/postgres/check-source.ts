/**
 * `createPostgresStore`'s source, checked before any connection (docs/stores.md). Fails at once,
 * naming the option, where pg would fail at the first query with a message about its startup packet
 * (a `connectionString` read from an unset environment variable is the usual case).
 */
import type { Dialect } from 'kysely'
import type { Pool } from 'pg'
import { checkOptions, is, type OptionChecks } from '../../model/options.js'
import type { PostgresStoreSource } from './index.js'

type ConnectionSource = Extract<PostgresStoreSource, { connectionString: string }>
type PoolSource = Extract<PostgresStoreSource, { pool: Pool }>
type DialectSource = Extract<PostgresStoreSource, { dialect: Dialect }>

/** The source's own key, checked first with a message of its own. */
const CHECKED_FIRST = () => undefined

/** What the options beside the connection string, the pool or the dialect must be (src/model/options.ts). */
const CONNECTION_CHECKS: OptionChecks<ConnectionSource> = {
  connectionString: CHECKED_FIRST,
  schema: is.string,
  max: is.integer(1),
  connectionTimeoutMs: is.nonNegativeNumber,
  statementTimeoutMs: is.nonNegativeNumber,
  queryTimeoutMs: is.nonNegativeNumber,
  bulkStatementTimeoutMs: is.nonNegativeNumber,
  bulkQueryTimeoutMs: is.nonNegativeNumber,
  keepAliveDelayMs: is.nonNegativeNumber,
  preparedStatements: is.boolean,
}
const POOL_CHECKS: OptionChecks<PoolSource> = {
  pool: CHECKED_FIRST,
  schema: is.string,
  queryTimeoutMs: is.nonNegativeNumber,
  bulkStatementTimeoutMs: is.nonNegativeNumber,
  bulkQueryTimeoutMs: is.nonNegativeNumber,
  connectionTimeoutMs: is.nonNegativeNumber,
  preparedStatements: is.boolean,
}
const DIALECT_CHECKS: OptionChecks<DialectSource> = { dialect: CHECKED_FIRST, schema: is.string }

/** Throws a `TypeError` naming what is wrong with the source: its form, its own key, the options beside it. */
export function checkSource(source: unknown): asserts source is object {
  if (typeof source !== 'object' || source === null)
    throw new TypeError('createPostgresStore needs { connectionString }, { pool } or { dialect }')
  const given = (['connectionString', 'pool', 'dialect'] as const).filter((key) => key in source)
  if (given.length !== 1) {
    const both = given.length > 1 ? `, not ${given.join(' and ')}` : ''
    throw new TypeError(`createPostgresStore needs exactly one of connectionString, pool or dialect${both}`)
  }
  if ('connectionString' in source) {
    const value: unknown = source.connectionString
    if (typeof value !== 'string' || value.trim() === '')
      throw new TypeError(
        `createPostgresStore: connectionString must be a connection string such as postgres://user@host:5432/db, not ${
          typeof value === 'string' ? 'an empty string' : String(value)
        }`,
      )
  }
  if ('pool' in source && typeof (source.pool as { connect?: unknown } | null)?.connect !== 'function')
    throw new TypeError('createPostgresStore: pool must be a pg Pool')
  if ('dialect' in source && typeof (source.dialect as { createDriver?: unknown } | null)?.createDriver !== 'function')
    throw new TypeError('createPostgresStore: dialect must be a Kysely Dialect')
  const [checks, form] =
    'connectionString' in source
      ? [CONNECTION_CHECKS, 'connectionString']
      : 'pool' in source
        ? [POOL_CHECKS, 'pool']
        : [DIALECT_CHECKS, 'dialect']
  checkOptions(source, checks as OptionChecks<object>, { name: `createPostgresStore({ ${form} })` })
}
