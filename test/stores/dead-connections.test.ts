/**
 * Dead connections on a real Postgres server, through a TCP proxy: pooled connections that go
 * silent (a failover, a NAT that forgot them: no FIN, no RST) cost 503s within the query timeout
 * and the pool moves on to new connections; a network that holds every packet, new connections
 * included, gives 503s within the connection and query timeouts instead of hanging, and the store
 * recovers once packets flow. The same for `sqlRateLimiter`'s statements and for a pool passed in.
 * With no option set, a request is answered within 10 s, while a seed, a removal or a migration that
 * waits longer than a request may is not cut.
 */
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { companies, createMemoryStore, createPublicApi, StoreUnavailableError, type Store } from 'tenant-public-api'
import { createPostgresStore, sqlRateLimiter, type SqlStore } from 'tenant-public-api/postgres'
import { createHarness, testKey, testKeyResolver, type Harness, type Reply } from 'tenant-public-api/testing'
import { sqlStoreInternals } from '../../src/stores/sql/sql-store.js'
import { DATABASE_URL, dropSchemas, freshSchema, NO_SERVER, postgresServerAnswers } from '../support/postgres.js'
import { TcpProxy } from './support.js'

const QUERY_TIMEOUT_MS = 1000
const CONNECTION_TIMEOUT_MS = 1000
/** Room for a shared, noisy machine on top of a timeout. */
const SLACK_MS = 1500
/** How long packets are held: longer than any request may take. */
const HOLD_MS = CONNECTION_TIMEOUT_MS + QUERY_TIMEOUT_MS + 1000

const company = {
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Acme',
  status: 'active',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
}
const server = await postgresServerAnswers()
const target = new URL(DATABASE_URL)
const schemas: string[] = []

afterAll(async () => {
  if (schemas.length === 0 || !server) return
  await dropSchemas(schemas)
})

function url(port: number): string {
  const u = new URL(DATABASE_URL)
  u.hostname = '127.0.0.1'
  u.port = String(port)
  return u.toString()
}

async function startProxy(): Promise<TcpProxy> {
  expect(server, NO_SERVER).toBe(true)
  const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  await proxy.start()
  return proxy
}

/**
 * A fresh schema, migrated and seeded over a direct connection: Kysely's migration lock is one
 * advisory lock for the whole database, which another test file may hold longer than the short
 * timeouts of the proxied store.
 */
async function freshSeededSchema(): Promise<string> {
  const schema = freshSchema('dead')
  schemas.push(schema)
  const direct = await createPostgresStore({ connectionString: DATABASE_URL, schema, max: 2 })
  await direct.seed('tenant-d', { companies: [company] })
  await direct.close()
  return schema
}

/** A request answered within this with no option set (a 503, or a 200 on a fresh connection). */
const DEFAULT_REQUEST_BOUND_MS = 10_000
/** Longer than a request's default bounds (5 s on the server, 6 s on the client). */
const BULK_WAIT_MS = 7000

async function proxiedStore(proxy: TcpProxy): Promise<SqlStore> {
  return createPostgresStore(
    {
      connectionString: url(proxy.port),
      schema: await freshSeededSchema(),
      max: 4,
      queryTimeoutMs: QUERY_TIMEOUT_MS,
      connectionTimeoutMs: CONNECTION_TIMEOUT_MS,
    },
    { migrate: false },
  )
}

function harness(store: Store, rateLimiter?: ReturnType<typeof sqlRateLimiter>) {
  const errors: unknown[] = []
  const api = createPublicApi({
    store,
    keyResolver: testKeyResolver(),
    ...(rateLimiter ? { rateLimiter } : {}),
    onError: (e) => errors.push(e),
  })
  return { h: createHarness(api, { key: testKey('tenant-d') }), errors }
}

interface Timed {
  status: number
  code: unknown
  ms: number
}

async function timed(h: Harness): Promise<Timed> {
  const start = performance.now()
  const res = await h.call<Reply<'listCompanies'>>('GET', '/companies')
  return { status: res.status, code: res.body?.code, ms: performance.now() - start }
}

/** `n` requests at once. */
function batch(h: Harness, n: number): Promise<Timed[]> {
  return Promise.all(Array.from({ length: n }, () => timed(h)))
}

/** Batches of `n` requests until one is all 200; how long that took and every answer on the way. */
async function untilRecovered(h: Harness, n: number): Promise<{ recoveredMs: number; results: Timed[] }> {
  const start = performance.now()
  const results: Timed[] = []
  while (performance.now() - start < 15_000) {
    const answers = await batch(h, n)
    results.push(...answers)
    if (answers.every((r) => r.status === 200)) return { recoveredMs: performance.now() - start, results }
  }
  throw new Error(`no recovery within 15 s: ${JSON.stringify(results.map((r) => r.status))}`)
}

/** Every answer is a 200, or a 503 SERVICE_UNAVAILABLE given within `boundMs`. */
function expectBounded503s(results: Timed[], boundMs: number): void {
  for (const r of results) {
    if (r.status === 200) continue
    expect(r.status).toBe(503)
    expect(r.code).toBe('SERVICE_UNAVAILABLE')
    expect(r.ms).toBeLessThan(boundMs)
  }
}

const slowest = (results: Timed[]) => Math.round(Math.max(...results.map((r) => r.ms)))

describe('Postgres connections that die without a word (server)', () => {
  it('gone silent in the pool: 503s within the query timeout, then 200 on new connections', {
    timeout: 30_000,
  }, async () => {
    const proxy = await startProxy()
    const store = await proxiedStore(proxy)
    const { h, errors } = harness(store, sqlRateLimiter(store))
    // Requests at once, so that the pool holds several connections, all about to die.
    expect((await batch(h, 4)).map((r) => r.status)).toEqual([200, 200, 200, 200])
    const silenced = proxy.silence()
    expect(silenced).toBeGreaterThan(1)
    const acceptedBefore = proxy.accepted

    const { recoveredMs, results } = await untilRecovered(h, 4)
    expect(results.some((r) => r.status === 503)).toBe(true) // the dead connections were used, not skipped
    expectBounded503s(results, QUERY_TIMEOUT_MS + SLACK_MS)
    expect(recoveredMs).toBeLessThan(QUERY_TIMEOUT_MS + 3000)
    expect(proxy.accepted).toBeGreaterThan(acceptedBefore)
    for (let i = 0; i < 5; i++) expect((await timed(h)).status).toBe(200)
    expect(errors.every((e) => e instanceof StoreUnavailableError)).toBe(true)
    console.log(
      `silenced ${silenced} connections: ${results.filter((r) => r.status === 503).length} 503s (slowest ` +
        `${slowest(results)} ms), 200 again after ${Math.round(recoveredMs)} ms, ` +
        `${proxy.accepted - acceptedBefore} new connections`,
    )
    await store.close()
    await proxy.stop()
  })

  it('every packet held past the bound, new connections too: 503s within it, 200 once packets flow', {
    timeout: 30_000,
  }, async () => {
    const proxy = await startProxy()
    const store = await proxiedStore(proxy)
    const { h } = harness(store, sqlRateLimiter(store))
    expect((await batch(h, 2)).map((r) => r.status)).toEqual([200, 200])

    proxy.hold()
    const heldAt = performance.now()
    // More requests than the pool has slots: some take a held connection, some open a new one, some wait.
    const during = [...(await batch(h, 6)), await timed(h)]
    expect(during.map((r) => r.status)).toEqual(Array(7).fill(503))
    expectBounded503s(during, CONNECTION_TIMEOUT_MS + QUERY_TIMEOUT_MS + SLACK_MS)
    await new Promise((r) => setTimeout(r, Math.max(0, HOLD_MS - (performance.now() - heldAt))))

    proxy.release()
    const { recoveredMs, results } = await untilRecovered(h, 2)
    expectBounded503s(results, CONNECTION_TIMEOUT_MS + QUERY_TIMEOUT_MS + SLACK_MS)
    expect(recoveredMs).toBeLessThan(CONNECTION_TIMEOUT_MS + QUERY_TIMEOUT_MS + SLACK_MS)
    console.log(
      `held ${HOLD_MS} ms: 7 requests answered 503 in at most ${slowest(during)} ms; 200 again ` +
        `${Math.round(recoveredMs)} ms after release`,
    )
    await store.close()
    await proxy.stop()
  })

  it('sqlRateLimiter alone on connections gone silent: 503s within the query timeout, then it recovers', {
    timeout: 30_000,
  }, async () => {
    const proxy = await startProxy()
    const limiterStore = await proxiedStore(proxy)
    // Every statement of these requests is the limiter's: the records come from memory.
    const { h, errors } = harness(createMemoryStore(), sqlRateLimiter(limiterStore))
    expect((await batch(h, 3)).map((r) => r.status)).toEqual([200, 200, 200])
    proxy.silence()

    const { recoveredMs, results } = await untilRecovered(h, 3)
    expect(results.some((r) => r.status === 503)).toBe(true)
    expectBounded503s(results, QUERY_TIMEOUT_MS + SLACK_MS)
    expect(recoveredMs).toBeLessThan(QUERY_TIMEOUT_MS + 3000)
    expect(errors.every((e) => e instanceof StoreUnavailableError)).toBe(true)
    console.log(`rate limiter: slowest 503 ${slowest(results)} ms, 200 again after ${Math.round(recoveredMs)} ms`)
    await limiterStore.close()
    await proxy.stop()
  })

  it('a pool passed in, with no timeouts of its own: bounded 503s when silent or held, and recovery', {
    timeout: 30_000,
  }, async () => {
    const proxy = await startProxy()
    const pool = new pg.Pool({ connectionString: url(proxy.port), max: 4 })
    const store = await createPostgresStore(
      { pool, schema: await freshSeededSchema(), queryTimeoutMs: QUERY_TIMEOUT_MS, connectionTimeoutMs: 1000 },
      { migrate: false },
    )
    const { h } = harness(store, sqlRateLimiter(store))
    expect((await batch(h, 4)).map((r) => r.status)).toEqual([200, 200, 200, 200])

    proxy.silence()
    const silent = await untilRecovered(h, 4)
    expectBounded503s(silent.results, QUERY_TIMEOUT_MS + SLACK_MS)
    expect(silent.recoveredMs).toBeLessThan(QUERY_TIMEOUT_MS + 3000)

    // The pool never gives up connecting by itself: the store's own connect bound answers.
    proxy.hold()
    const during = await batch(h, 6)
    expect(during.map((r) => r.status)).toEqual(Array(6).fill(503))
    expectBounded503s(during, CONNECTION_TIMEOUT_MS + QUERY_TIMEOUT_MS + SLACK_MS)
    proxy.release()
    const held = await untilRecovered(h, 2)
    expect(held.recoveredMs).toBeLessThan(CONNECTION_TIMEOUT_MS + QUERY_TIMEOUT_MS + SLACK_MS)
    console.log(
      `pool passed in: 200 again ${Math.round(silent.recoveredMs)} ms after the silence and ` +
        `${Math.round(held.recoveredMs)} ms after the release; slowest 503 ${slowest(during)} ms`,
    )
    await store.close() // ends the pool too
    await proxy.stop()
  })

  it('with no option set: gone silent, every request answers within 10 s and 200 comes back within 10 s', {
    timeout: 60_000,
  }, async () => {
    const proxy = await startProxy()
    const store = await createPostgresStore(
      { connectionString: url(proxy.port), schema: await freshSeededSchema() },
      { migrate: false },
    )
    const { h, errors } = harness(store, sqlRateLimiter(store))
    expect((await batch(h, 4)).map((r) => r.status)).toEqual([200, 200, 200, 200])
    const silenced = proxy.silence()
    expect(silenced).toBeGreaterThan(1)

    const { recoveredMs, results } = await untilRecovered(h, 4)
    expect(results.some((r) => r.status === 503)).toBe(true)
    expectBounded503s(results, DEFAULT_REQUEST_BOUND_MS)
    expect(recoveredMs).toBeLessThan(DEFAULT_REQUEST_BOUND_MS)
    expect(errors.every((e) => e instanceof StoreUnavailableError)).toBe(true)
    console.log(
      `default options, silenced ${silenced} connections: slowest 503 ${slowest(results)} ms, 200 again after ` +
        `${Math.round(recoveredMs)} ms`,
    )
    await store.close()
    await proxy.stop()
  })
})

// Concurrently: each test waits seconds on a lock of its own (its own schema, its own database).
describe.concurrent('Postgres bulk work under the default bounds (server)', () => {
  it('a seed and a removal that wait past a request’s bound finish; a request waiting on the same lock is a 503', {
    timeout: 60_000,
  }, async () => {
    expect(server, NO_SERVER).toBe(true)
    const schema = freshSchema('bulk')
    schemas.push(schema)
    const store = await createPostgresStore({ connectionString: DATABASE_URL, schema })
    await store.seed('tenant-d', { companies: [company] })
    await store.seed('tenant-r', { companies: [company] })
    const { h } = harness(store)
    const holder = new pg.Client({ connectionString: DATABASE_URL })
    await holder.connect()
    try {
      await holder.query('BEGIN')
      await holder.query(`LOCK TABLE "${schema}".companies IN ACCESS EXCLUSIVE MODE`)
      const start = performance.now()
      const seeded = store
        .seed('tenant-d', { companies: [{ ...company, name: 'Renamed' }] })
        .then(() => performance.now())
      const removed = store.remove('tenant-r', { companies: [company.id] }).then(() => performance.now())
      const request = await timed(h)
      expect([request.status, request.code]).toEqual([503, 'SERVICE_UNAVAILABLE'])
      expect(request.ms).toBeLessThan(DEFAULT_REQUEST_BOUND_MS)
      await new Promise((resolve) => setTimeout(resolve, BULK_WAIT_MS - (performance.now() - start)))
      await holder.query('COMMIT')
      const [seededAt, removedAt] = await Promise.all([seeded, removed])
      expect(seededAt - start).toBeGreaterThan(BULK_WAIT_MS - 100)
      expect(removedAt - start).toBeGreaterThan(BULK_WAIT_MS - 100)
      expect(await store.findNames(companies, 'tenant-d', [company.id])).toEqual([{ id: company.id, name: 'Renamed' }])
      expect(await store.findNames(companies, 'tenant-r', [company.id])).toEqual([])
      console.log(
        `table locked ${BULK_WAIT_MS} ms: a request answered 503 after ${Math.round(request.ms)} ms; the seed ` +
          `finished after ${Math.round(seededAt - start)} ms, the removal after ${Math.round(removedAt - start)} ms`,
      )
    } finally {
      await holder.end()
      await store.close()
    }
  })

  it('a migration is bounded as bulk work, not by the request bounds it is given', { timeout: 60_000 }, async () => {
    expect(server, NO_SERVER).toBe(true)
    // A database of its own: the migration lock is one advisory lock per database.
    const name = `bulk_${crypto.randomUUID().replaceAll('-', '')}`
    const admin = new pg.Client({ connectionString: DATABASE_URL })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    const own = new URL(DATABASE_URL)
    own.pathname = `/${name}`
    const holder = new pg.Client({ connectionString: own.toString() })
    await holder.connect()
    // Request bounds of 1 s: a migration run under them would give up twice (it retries once) before the lock is free.
    const store = await createPostgresStore(
      { connectionString: own.toString(), statementTimeoutMs: 1000, queryTimeoutMs: 1500 },
      { migrate: false },
    )
    try {
      // Kysely's Migrator takes this advisory lock (LOCK_ID in kysely's postgres-adapter.js).
      await holder.query('SELECT pg_advisory_lock(3853314791062309107)')
      const start = performance.now()
      const migrated = store.migrate().then(() => performance.now())
      await new Promise((resolve) => setTimeout(resolve, 3500))
      await holder.query('SELECT pg_advisory_unlock(3853314791062309107)')
      expect((await migrated) - start).toBeGreaterThan(3400)
      await store.seed('tenant-d', { companies: [company] })
      expect(await store.findNames(companies, 'tenant-d', [company.id])).toEqual([{ id: company.id, name: 'Acme' }])
    } finally {
      await store.close()
      await holder.end()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
  })

  it('a bulk operation hands its connection back with the request bound', async () => {
    expect(server, NO_SERVER).toBe(true)
    const schema = freshSchema('bulk')
    schemas.push(schema)
    // One connection: the seed's, then the request's.
    const store = await createPostgresStore({ connectionString: DATABASE_URL, schema, max: 1 })
    await store.seed('tenant-d', { companies: [company] })
    const { db } = sqlStoreInternals(store)
    const shown = await sql<{ statement_timeout: string }>`SHOW statement_timeout`.execute(db)
    expect(shown.rows[0]?.statement_timeout).toBe('5s')
    await store.close()
  })
})
