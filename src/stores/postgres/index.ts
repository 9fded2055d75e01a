/**
 * `tenant-public-api/postgres`: the SQL store on Postgres. pg is an optional peer, imported only
 * when a `connectionString` is given; `{ pool }` takes your pg Pool, `{ dialect }` any Kysely
 * Postgres dialect (for example one over PGlite).
 */
import { Kysely, PostgresDialect, type Dialect } from 'kysely'
import type { Pool, PoolClient } from 'pg'
import { postgresEngine } from '../kysely/engine.js'
import { createKyselyStore, type SqlStore } from '../kysely/kysely-store.js'

export { sqlRateLimiter, type SqlRateLimiterOptions } from '../kysely/rate-limiter.js'
export type { SqlStore } from '../kysely/kysely-store.js'

/** Where the Postgres database is. */
export type PostgresStoreSource =
  | {
      connectionString: string
      /** Every table lives in this schema (created if missing). Default: the connection's default. */
      schema?: string
      /** Pool size. Default 10. */
      max?: number
      /** Give up connecting after this long (→ 503). Default 5,000 ms. */
      connectionTimeoutMs?: number
      /** Cancel a statement after this long (→ 503). Default 30,000 ms. */
      statementTimeoutMs?: number
    }
  | { pool: Pool; schema?: string }
  | { dialect: Dialect; schema?: string }

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** Run the migrations on creation. Default true. */
  migrate?: boolean
  /** Called with errors of idle or checked-out connections (they are survived, not thrown). Default: ignore. */
  onConnectionError?: (error: Error) => void
}

/**
 * Listens for `error` on the pool and on every client it connects: pg emits it when the server
 * goes away, and an unheard `error` event would end the process. The next query then fails with
 * a connection error (503) and the pool connects afresh once the server is back.
 */
function guardPool(pool: Pool, onError: (error: Error) => void): void {
  pool.on('error', onError)
  pool.on('connect', (client: PoolClient) => client.on('error', onError))
}

/**
 * A store in a Postgres database. Strings order by code point (`COLLATE "C"`), search uses
 * pg_trgm when it can be installed, and an unreachable server answers 503 until it is back.
 *
 * @example
 * const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL!, schema: 'public_api' })
 * const api = createPublicApi({ store, keyResolver, rateLimiter: sqlRateLimiter(store) })
 */
export async function createPostgresStore(
  source: PostgresStoreSource,
  options: PostgresStoreOptions = {},
): Promise<SqlStore> {
  const onError = options.onConnectionError ?? (() => undefined)
  let dialect: Dialect
  if ('dialect' in source) {
    dialect = source.dialect
  } else if ('pool' in source) {
    guardPool(source.pool, onError)
    dialect = new PostgresDialect({ pool: source.pool })
  } else {
    const pg = await import('pg')
    const PoolClass = (pg.default?.Pool ?? pg.Pool) as typeof Pool
    const pool = new PoolClass({
      connectionString: source.connectionString,
      max: source.max ?? 10,
      connectionTimeoutMillis: source.connectionTimeoutMs ?? 5000,
      statement_timeout: source.statementTimeoutMs ?? 30_000,
      query_timeout: (source.statementTimeoutMs ?? 30_000) + 5000,
      idle_in_transaction_session_timeout: 60_000,
      keepAlive: true,
    })
    guardPool(pool, onError)
    dialect = new PostgresDialect({ pool })
  }
  const db = new Kysely<unknown>({ dialect, plugins: [...postgresEngine.plugins] })
  return createKyselyStore(db, postgresEngine, {
    migrate: options.migrate ?? true,
    ...(source.schema !== undefined ? { schema: source.schema } : {}),
  })
}
