/**
 * `tenant-public-api/postgres`: the SQL store on Postgres. pg is an optional peer, imported only
 * when a `connectionString` is given; `{ pool }` takes your pg Pool, `{ dialect }` any Kysely
 * Postgres dialect (for example one over PGlite).
 */
import { Kysely, PostgresDialect, type Dialect, type PostgresPool, type PostgresPoolClient } from 'kysely'
import type { Pool, PoolClient, QueryResult } from 'pg'
import { PREPARE, postgresEngine } from '../sql/postgres-engine.js'
import { createSqlStore, type SqlStore } from '../sql/sql-store.js'
import { checkOptions, is, type OptionChecks } from '../../model/options.js'
import { checkSource } from './check-source.js'

export { sqlRateLimiter, type SqlRateLimiterOptions } from '../sql/rate-limiter.js'
export type { SqlStore } from '../sql/sql-store.js'

/** Where the Postgres database is. */
export type PostgresStoreSource =
  | {
      connectionString: string
      /** Every table lives in this schema (created if missing). Default: the connection's default. */
      schema?: string
      /** Pool size. Default 10. */
      max?: number
      /** Longest wait for a connection, be it a free pool slot or a new connection (→ 503). Default 5,000 ms. */
      connectionTimeoutMs?: number
      /**
       * The server cancels a request's statement after this long (→ 503; the connection is kept). Default
       * 5,000 ms, or `queryTimeoutMs` if that is smaller; 0 leaves the server's setting.
       */
      statementTimeoutMs?: number
      /**
       * The client gives up on a request's statement after this long (→ 503) and closes its connection,
       * which may be silently dead; the pool opens a new one. Unlike the statement timeout, this bounds a
       * request when nothing comes back at all. Default `statementTimeoutMs` + 1,000 ms (none when that is
       * 0); 0 turns it off.
       */
      queryTimeoutMs?: number
      /**
       * As `statementTimeoutMs`, for the statements of `seed`, `remove` and migrations (set on their
       * connection while they hold it). Default 30,000 ms, or `bulkQueryTimeoutMs` if smaller; 0: none.
       */
      bulkStatementTimeoutMs?: number
      /** As `queryTimeoutMs`, for `seed`, `remove` and migrations. Default `bulkStatementTimeoutMs` + 1,000 ms. */
      bulkQueryTimeoutMs?: number
      /**
       * Idle time before a connection's TCP keep-alive probes start (Node then probes every second, 10
       * times), so an idle connection whose peer is gone is dropped after about this + 10 s. Default 10,000 ms.
       */
      keepAliveDelayMs?: number
      /**
       * Send the store's repeated write statements as named prepared statements, parsed and planned once
       * per connection. Default true; false behind a pooler that does not keep prepared statements (PgBouncer
       * in transaction mode before 1.21, or with `max_prepared_statements = 0`).
       */
      preparedStatements?: boolean
    }
  | {
      /** Your pool: keep-alive, the statement timeout and the pool's own connect timeout are its settings. */
      pool: Pool
      schema?: string
      /** As for a connection string; default 6,000 ms. */
      queryTimeoutMs?: number
      /** As for a connection string (set on the connection while a seed, remove or migration holds it). */
      bulkStatementTimeoutMs?: number
      /** As for a connection string; default 31,000 ms. */
      bulkQueryTimeoutMs?: number
      /** Longest wait for `pool.connect()` (→ 503). Default 5,000 ms. */
      connectionTimeoutMs?: number
      /** As for a connection string; default true. */
      preparedStatements?: boolean
    }
  | { dialect: Dialect; schema?: string }

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** Run the migrations on creation. Default true. */
  migrate?: boolean
  /** How long events are kept (default 30 days); writes prune older ones, at most once a minute per tenant. */
  eventRetentionMs?: number
  /** Called with errors of idle or checked-out connections (they are survived, not thrown). Default: ignore. */
  onConnectionError?: (error: Error) => void
}

const CHECKS: OptionChecks<PostgresStoreOptions> = {
  migrate: is.boolean,
  eventRetentionMs: is.integer(1),
  onConnectionError: is.function,
}

const DEFAULT_CONNECTION_TIMEOUT_MS = 5000
/**
 * A request's statements: a silent pooled connection (a failover, a NAT that forgot it) costs a request
 * at most this + {@link CLIENT_TIMEOUT_MARGIN_MS}, so the store recovers within 10 s with no option set.
 */
const DEFAULT_STATEMENT_TIMEOUT_MS = 5000
/** Seeds, removals and migrations: bulk loads and lock waits that a request's bound would cut. */
const DEFAULT_BULK_STATEMENT_TIMEOUT_MS = 30_000
/**
 * How long the client waits past the server's statement timeout: a slow statement on a live server is
 * cancelled by the server first (the connection is kept), and only a silent connection is cut.
 */
const CLIENT_TIMEOUT_MARGIN_MS = 1000
const DEFAULT_KEEP_ALIVE_DELAY_MS = 10_000
/** setTimeout fires at once for delays beyond 2^31 - 1 ms. */
const MAX_TIMER_MS = 2_147_483_647

/**
 * Listens for `error` on the pool and on every client it connects: pg emits it when the server
 * goes away, and an unheard `error` event would end the process. The next query then fails with
 * a connection error (503) and the pool connects afresh once the server is back.
 */
function guardPool(pool: Pool, onError: (error: Error) => void): void {
  pool.on('error', onError)
  pool.on('connect', (client: PoolClient) => client.on('error', onError))
}

/** An error that the engine maps to 503 by its socket-style `code`. */
function connectionError(message: string, code: 'ETIMEDOUT' | 'ECONNABORTED', cause?: unknown): Error {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code })
}

/** The server's own answer to a statement (pg's DatabaseError): the connection is still in step after it. */
function answeredByServer(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'severity' in error &&
    typeof (error as { code?: unknown }).code === 'string'
  )
}

/** The most statements one connection prepares; later ones run unnamed, as before. */
const MAX_PREPARED_PER_CONNECTION = 64
/** The most marked texts one connection remembers having run once; then it forgets them all. */
const MAX_SEEN_ONCE = 256

/**
 * The names of one connection's prepared statements, by text: a text marked `PREPARE` gets one at its
 * second run (a write of a seed's size seen once is not worth a statement on the server), until the
 * connection has {@link MAX_PREPARED_PER_CONNECTION}. Names are never reused, so pg's record of what it
 * has prepared on the connection stays right.
 */
class PreparedNames {
  readonly #names = new Map<string, string>()
  readonly #seenOnce = new Set<string>()

  /** The name to run `text` under, or undefined to run it unnamed. */
  of(text: string): string | undefined {
    if (!text.startsWith(PREPARE)) return undefined
    const name = this.#names.get(text)
    if (name !== undefined || this.#names.size >= MAX_PREPARED_PER_CONNECTION) return name
    if (!this.#seenOnce.delete(text)) {
      if (this.#seenOnce.size >= MAX_SEEN_ONCE) this.#seenOnce.clear()
      this.#seenOnce.add(text)
      return undefined
    }
    const fresh = `tenant_public_api_${this.#names.size + 1}`
    this.#names.set(text, fresh)
    return fresh
  }
}

/** How a checkout's statements are bounded. */
interface StatementBounds {
  /** The client gives up on a statement after this long (0: never). */
  queryTimeoutMs: number
  /** Set as the server's `statement_timeout` for the checkout (undefined: the session's, as connected). */
  statementTimeoutMs?: number
}

/**
 * A pooled client as Kysely sees it. A statement with no answer after `queryTimeoutMs` is given up
 * (→ 503) together with its connection: silence may mean a dead peer (a failover, a NAT that forgot
 * the connection), and pg would put the client back in the pool, where every later statement queues
 * behind the lost one. Any failure that is not the server's own answer is treated the same. An
 * abandoned client refuses further statements at once (Kysely's ROLLBACK after a failed
 * transaction would wait again) and is released as broken, so the pool destroys it and connects anew.
 * A checkout with its own `statementTimeoutMs` (a bulk operation) sets it before its first statement
 * and resets it on release, so the next request finds the connection's own bound again.
 */
class GuardedClient {
  #abandoned = false
  #reason: unknown
  #bounds: StatementBounds = { queryTimeoutMs: 0 }
  /** The SET still owed before the checkout's first statement. */
  #setFirst: string | undefined
  /** Whether the checkout changed `statement_timeout`. */
  #reset = false

  constructor(
    private readonly client: PoolClient,
    private readonly prepared: PreparedNames | undefined,
  ) {}

  /** Starts a checkout under `bounds`. */
  checkout(bounds: StatementBounds): this {
    this.#bounds = bounds
    this.#setFirst =
      bounds.statementTimeoutMs === undefined ? undefined : `SET statement_timeout = ${bounds.statementTimeoutMs}`
    return this
  }

  query(text: string, parameters: readonly unknown[]): Promise<QueryResult> {
    const set = this.#setFirst
    if (set === undefined) return this.#run(text, parameters, this.prepared?.of(text))
    this.#setFirst = undefined
    this.#reset = true
    return this.#run(set, [], undefined).then(() => this.#run(text, parameters, this.prepared?.of(text)))
  }

  #run(text: string, parameters: readonly unknown[], name: string | undefined): Promise<QueryResult> {
    if (this.#abandoned) {
      return Promise.reject(
        connectionError('Connection abandoned after an earlier failure', 'ECONNABORTED', this.#reason),
      )
    }
    const values = parameters as unknown[]
    const pending = name === undefined ? this.client.query(text, values) : this.client.query({ name, text, values })
    const { queryTimeoutMs } = this.#bounds
    return new Promise((resolve, reject) => {
      const timer =
        queryTimeoutMs > 0
          ? setTimeout(() => {
              this.#abandon(connectionError(`No answer to a statement within ${queryTimeoutMs} ms`, 'ETIMEDOUT'))
              reject(this.#reason)
            }, queryTimeoutMs)
          : undefined
      // After a timeout these settle nothing; they still catch the rejection that ending the connection causes.
      pending.then(
        (result) => {
          clearTimeout(timer)
          resolve(result)
        },
        (error: unknown) => {
          clearTimeout(timer)
          if (!answeredByServer(error)) this.#abandon(error)
          reject(error)
        },
      )
    })
  }

  release(): void {
    const broken = this.#abandoned
    // Queued on the connection before anything of its next checkout; a failure shows there, not here.
    if (this.#reset && !broken) this.client.query('RESET statement_timeout').catch(() => undefined)
    this.#abandoned = false
    this.#reason = undefined
    this.#setFirst = undefined
    this.#reset = false
    // `true`: the pool ends this connection (destroying the socket if a statement is still out) and forgets it.
    this.client.release(broken)
  }

  #abandon(reason: unknown): void {
    if (this.#abandoned) return
    this.#abandoned = true
    this.#reason = reason
  }
}

/** `pool.connect()` given up after `ms` (→ 503); a client that comes later goes straight back to the pool. */
function connectWithin(pool: Pool, ms: number): Promise<PoolClient> {
  return new Promise((resolve, reject) => {
    let late = false
    const timer = setTimeout(() => {
      late = true
      reject(connectionError(`timeout exceeded when trying to connect (${ms} ms)`, 'ETIMEDOUT'))
    }, ms)
    pool.connect().then(
      (client) => {
        clearTimeout(timer)
        if (late) client.release()
        else resolve(client)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}

/**
 * The pool as Kysely sees it, twice: `request` for the API's statements and `bulk` for seeds, removals
 * and migrations, each checkout guarded under its bounds; `connect()` bounded when `acquireTimeoutMs`
 * is given, and marked statements prepared when `prepare` is set. Only `request` ends the pool.
 */
function guardedPools(
  pool: Pool,
  limits: { request: StatementBounds; bulk: StatementBounds; acquireTimeoutMs?: number; prepare: boolean },
): { request: PostgresPool; bulk: PostgresPool } {
  // One guard per client (Kysely keeps one connection object per client it is handed), with its
  // client's prepared statements: they live as long as its connection, whichever side uses it.
  const guards = new WeakMap<PoolClient, GuardedClient>()
  const { acquireTimeoutMs } = limits
  const connect = async (bounds: StatementBounds) => {
    const client = await (acquireTimeoutMs === undefined ? pool.connect() : connectWithin(pool, acquireTimeoutMs))
    let guard = guards.get(client)
    if (guard === undefined) {
      const prepared = limits.prepare ? new PreparedNames() : undefined
      guards.set(client, (guard = new GuardedClient(client, prepared)))
    }
    // Kysely's other `query` overload takes a cursor, used only by a dialect given `cursor`: this one is not.
    return guard.checkout(bounds) as unknown as PostgresPoolClient
  }
  // `options`: Kysely 0.29 reads the pool's settings to open a connection that cancels a statement
  // when a query is aborted (the stores abort none).
  const { options } = pool
  return {
    request: { connect: () => connect(limits.request), end: () => pool.end(), options },
    bulk: { connect: () => connect(limits.bulk), end: async () => undefined, options },
  }
}

/** A duration option: a whole number of milliseconds, at least 0, at most what a timer can wait. */
function ms(value: number | undefined, fallback: number): number {
  const n = value === undefined || !Number.isFinite(value) ? fallback : Math.floor(value)
  return Math.min(Math.max(0, n), MAX_TIMER_MS)
}

/**
 * The server's and the client's timeouts from the options: the server's defaults to `fallbackMs`, or
 * the client's when that is smaller (a server timeout past the client's would leave an abandoned
 * statement running on the server); the client's to the server's + {@link CLIENT_TIMEOUT_MARGIN_MS}, so
 * a slow statement on a live server is cancelled by the server first and keeps its connection.
 */
function timeouts(
  statementOption: number | undefined,
  queryOption: number | undefined,
  fallbackMs: number,
): { statementTimeoutMs: number; queryTimeoutMs: number } {
  const query = queryOption === undefined ? undefined : ms(queryOption, 0)
  const statementTimeoutMs = ms(statementOption, query ? Math.min(fallbackMs, query) : fallbackMs)
  // No statement timeout (0): none on the client either, unless one is asked for.
  const queryTimeoutMs = query ?? (statementTimeoutMs > 0 ? ms(statementTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS, 0) : 0)
  return { statementTimeoutMs, queryTimeoutMs }
}

/**
 * A store in a Postgres database. Strings order by code point (`COLLATE "C"`), search uses
 * pg_trgm when it can be installed, and an unreachable or silent server answers 503 within the
 * connection and query timeouts until it is back.
 *
 * @example
 * const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL!, schema: 'public_api' })
 * const api = createPublicApi({ store, keyResolver, rateLimiter: sqlRateLimiter(store) })
 */
export async function createPostgresStore(
  source: PostgresStoreSource,
  options: PostgresStoreOptions = {},
): Promise<SqlStore> {
  checkSource(source)
  checkOptions(options, CHECKS, { name: 'createPostgresStore' })
  const onError = options.onConnectionError ?? (() => undefined)
  const kysely = (dialect: Dialect) => new Kysely<unknown>({ dialect, plugins: [...postgresEngine.driver.plugins] })
  const storeOptions = {
    migrate: options.migrate ?? true,
    ...(options.eventRetentionMs !== undefined ? { eventRetentionMs: options.eventRetentionMs } : {}),
    ...(source.schema !== undefined ? { schema: source.schema } : {}),
  }
  if ('dialect' in source) return createSqlStore(kysely(source.dialect), postgresEngine, storeOptions)

  const prepare = source.preparedStatements ?? true
  const bulk = timeouts(source.bulkStatementTimeoutMs, source.bulkQueryTimeoutMs, DEFAULT_BULK_STATEMENT_TIMEOUT_MS)
  let pools: { request: PostgresPool; bulk: PostgresPool }
  if ('pool' in source) {
    guardPool(source.pool, onError)
    pools = guardedPools(source.pool, {
      request: { queryTimeoutMs: ms(source.queryTimeoutMs, DEFAULT_STATEMENT_TIMEOUT_MS + CLIENT_TIMEOUT_MARGIN_MS) },
      bulk,
      acquireTimeoutMs: ms(source.connectionTimeoutMs, DEFAULT_CONNECTION_TIMEOUT_MS),
      prepare,
    })
  } else {
    const pg = await import('pg')
    const PoolClass = (pg.default?.Pool ?? pg.Pool) as typeof Pool
    const request = timeouts(source.statementTimeoutMs, source.queryTimeoutMs, DEFAULT_STATEMENT_TIMEOUT_MS)
    const pool = new PoolClass({
      connectionString: source.connectionString,
      max: source.max ?? 10,
      // pg-pool bounds both the wait for a free slot and a new connection's handshake with it.
      connectionTimeoutMillis: ms(source.connectionTimeoutMs, DEFAULT_CONNECTION_TIMEOUT_MS),
      // The session's own bound is a request's; a bulk checkout sets its own and resets it on release.
      statement_timeout: request.statementTimeoutMs,
      idle_in_transaction_session_timeout: 60_000,
      keepAlive: true,
      // Without a delay the OS default applies (often 2 hours), far too late to notice a dead peer.
      keepAliveInitialDelayMillis: ms(source.keepAliveDelayMs, DEFAULT_KEEP_ALIVE_DELAY_MS),
    })
    guardPool(pool, onError)
    pools = guardedPools(pool, { request: { queryTimeoutMs: request.queryTimeoutMs }, bulk, prepare })
  }
  return createSqlStore(kysely(new PostgresDialect({ pool: pools.request })), postgresEngine, {
    ...storeOptions,
    bulkDb: kysely(new PostgresDialect({ pool: pools.bulk })),
  })
}
