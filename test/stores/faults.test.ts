/**
 * Faults and housekeeping: an unreachable Postgres answers 503 (never a crash) and the store
 * recovers when it is back; migrations run twice harmlessly; `schema` keeps stores apart; huge
 * pages and odd input never reach SQL as a 500.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createPublicApi, StoreUnavailableError, type Store } from 'tenant-public-api'
import { createPostgresStore, sqlRateLimiter } from 'tenant-public-api/postgres'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createHarness, testKey, testKeyResolver, type Reply } from 'tenant-public-api/testing'
import { DATABASE_URL, dropSchemas, freshSchema, NO_SERVER, postgresServerAnswers } from '../support/postgres.js'
import { TcpProxy } from './support.js'
import { companies } from '../../src/model/companies.js'
import { listRequest } from '../../src/model/list-request.js'

const company = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Acme',
  status: 'active',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
}
const server = await postgresServerAnswers()
const schemas: string[] = []
const dir = mkdtempSync(join(tmpdir(), 'tenant-api-faults-'))

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  if (schemas.length > 0 && server) {
    await dropSchemas(schemas)
  }
})

function harness(store: Store, rateLimiter?: ReturnType<typeof sqlRateLimiter>) {
  const errors: unknown[] = []
  const api = createPublicApi({
    store,
    keyResolver: testKeyResolver(),
    ...(rateLimiter ? { rateLimiter } : {}),
    onError: (e) => errors.push(e),
  })
  return { h: createHarness(api, { key: testKey('tenant-f') }), errors }
}

function url(port: number): string {
  const u = new URL(DATABASE_URL)
  u.hostname = '127.0.0.1'
  u.port = String(port)
  return u.toString()
}

describe('Postgres unreachable', () => {
  it('creating a store on a port where nothing listens rejects with StoreUnavailableError', async () => {
    await expect(createPostgresStore({ connectionString: url(1), connectionTimeoutMs: 1000 })).rejects.toBeInstanceOf(
      StoreUnavailableError,
    )
  })

  it('a store whose server is gone answers 503 SERVICE_UNAVAILABLE, also through sqlRateLimiter', async () => {
    const store = await createPostgresStore({ connectionString: url(1), connectionTimeoutMs: 1000 }, { migrate: false })
    const plain = harness(store)
    const a = await plain.h.call<Reply<'listCompanies'>>('GET', '/companies')
    expect(a.status).toBe(503)
    expect(a.body.code).toBe('SERVICE_UNAVAILABLE')
    const limited = harness(store, sqlRateLimiter(store))
    const b = await limited.h.call<Reply<'listCompanies'>>('GET', '/companies')
    expect(b.status).toBe(503)
    await store.close()
  })

  it('a proxy cut mid-life gives 503s, and the store recovers by itself when it is back (server)', {
    timeout: 30_000,
  }, async () => {
    expect(server, NO_SERVER).toBe(true)
    const target = new URL(DATABASE_URL)
    const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
    await proxy.start()
    const schema = freshSchema('fault')
    schemas.push(schema)
    const connectionErrors: Error[] = []
    const store = await createPostgresStore(
      { connectionString: url(proxy.port), schema, connectionTimeoutMs: 1000 },
      { onConnectionError: (e) => connectionErrors.push(e) },
    )
    await store.seed('tenant-f', { companies: [company] })
    const { h } = harness(store, sqlRateLimiter(store))
    expect((await h.call('GET', '/companies')).status).toBe(200)

    await proxy.stop() // the server "goes away": idle pooled connections are cut
    for (let i = 0; i < 3; i++) {
      const down = await h.call<Reply<'listCompanies'>>('GET', '/companies')
      expect(down.status).toBe(503)
      expect(down.body.code).toBe('SERVICE_UNAVAILABLE')
    }

    await proxy.start() // back on the same port
    let status = 0
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await h.call('GET', '/companies')).status
      if (status !== 200) await new Promise((r) => setTimeout(r, 100))
    }
    expect(status).toBe(200)
    expect((await h.call<Reply<'listCompanies'>>('GET', '/companies')).body.data).toHaveLength(1)
    await store.close()
    await proxy.stop()
  })
})

/** A page of the tenant's companies for a list query, as the operation asks the store for it. */
const listCompanies = (store: Store, tenantId: string, q: { page: number; limit: number; [name: string]: unknown }) =>
  store.list(companies, tenantId, listRequest(companies, q))

describe('migrations', () => {
  it('run again on an existing SQLite file without harm, keeping the data', async () => {
    const filename = join(dir, 'migrate.db')
    const first = await createSqliteStore({ filename })
    await first.seed('tenant-f', { companies: [company] })
    await first.migrate()
    await first.close()
    const second = await createSqliteStore({ filename })
    await second.migrate()
    expect(
      (await listCompanies(second, 'tenant-f', { page: 1, limit: 10, sortBy: 'name', sortOrder: 'asc' })).totalCount,
    ).toBe(1)
    await second.close()
  })

  it('run again on an existing Postgres schema without harm, and several at once (server)', async () => {
    expect(server, NO_SERVER).toBe(true)
    const schema = freshSchema('mig')
    schemas.push(schema)
    const stores = await Promise.all(
      [1, 2, 3].map(() => createPostgresStore({ connectionString: DATABASE_URL, schema, max: 2 })),
    )
    await stores[0]!.seed('tenant-f', { companies: [company] })
    await stores[1]!.migrate()
    const again = await createPostgresStore({ connectionString: DATABASE_URL, schema, max: 2 })
    expect(
      (await listCompanies(again, 'tenant-f', { page: 1, limit: 10, sortBy: 'name', sortOrder: 'asc' })).totalCount,
    ).toBe(1)
    await Promise.all([...stores, again].map((s) => s.close()))
  })
})

describe('schema option', () => {
  it('keeps two stores in one database apart (server)', async () => {
    expect(server, NO_SERVER).toBe(true)
    const [a, b] = [freshSchema('iso'), freshSchema('iso')]
    schemas.push(a, b)
    const storeA = await createPostgresStore({ connectionString: DATABASE_URL, schema: a, max: 2 })
    const storeB = await createPostgresStore({ connectionString: DATABASE_URL, schema: b, max: 2 })
    await storeA.seed('tenant-f', { companies: [company] })
    const query = { page: 1, limit: 10, sortBy: 'name', sortOrder: 'asc' } as const
    expect((await listCompanies(storeA, 'tenant-f', query)).totalCount).toBe(1)
    expect((await listCompanies(storeB, 'tenant-f', query)).totalCount).toBe(0)
    const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 1 })
    const tables = await admin.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1`,
      [a],
    )
    await admin.end()
    expect(tables.rows[0].n).toBeGreaterThan(10)
    await Promise.all([storeA.close(), storeB.close()])
  })
})

describe('input that must never become a 500', () => {
  const stores: Array<[string, () => Promise<Store>]> = [
    ['sqlite', () => createSqliteStore({ filename: ':memory:' })],
    [
      'postgres',
      async () => {
        const schema = freshSchema('odd')
        schemas.push(schema)
        return server
          ? createPostgresStore({ connectionString: DATABASE_URL, schema, max: 2 })
          : (await import('../support/postgres.js')).createPgliteStore()
      },
    ],
  ]
  for (const [name, create] of stores) {
    it(`${name}: the last safe page, malformed ids, NUL and LIKE metacharacters answer 200/404`, async () => {
      const store = await create()
      await store.seed('tenant-f', {
        companies: [company],
        tickets: [
          {
            id: 't-1',
            ticketNumber: '1',
            title: 'Disk 100%_full \\ now',
            isClosed: false,
            provider: 'psa_a',
            createdAt: '2025-01-01T00:00:00.000Z',
          },
        ],
      })
      const { h, errors } = harness(store)
      expect(
        (await h.call<Reply<'listTickets'>>('GET', `/tickets?page=${Number.MAX_SAFE_INTEGER}&limit=100`)).body.data,
      ).toEqual([])
      expect((await h.call('GET', `/companies?page=${Number.MAX_SAFE_INTEGER}&limit=100`)).status).toBe(200)
      expect((await h.call('GET', '/automation/not-a-uuid')).status).toBeLessThan(500)
      expect((await h.call('GET', '/tickets/%00')).status).toBe(404)
      // The core may refuse control characters (400); what matters is that SQL never sees a 500.
      expect((await h.call('GET', '/tickets?search=%00')).status).toBeLessThan(500)
      expect((await h.call('GET', '/tickets?status=%00x')).status).toBeLessThan(500)
      expect((await h.call('GET', '/tickets/a%00b?includeNotes=true')).status).toBe(404)
      for (const term of ['%', '_', '\\', '0%_', '%_f', 'l \\ n']) {
        const res = await h.call<Reply<'listTickets'>>('GET', `/tickets?search=${encodeURIComponent(term)}`)
        expect(res.body.pagination.totalCount, term).toBe(1)
      }
      expect((await h.call<Reply<'listTickets'>>('GET', '/tickets?search=%25x')).body.pagination.totalCount).toBe(0)
      expect(errors).toEqual([])
      await store.close()
    })
  }
})
