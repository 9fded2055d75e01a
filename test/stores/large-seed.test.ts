/**
 * A seed far larger than a function's argument limit (a spread of that many drafts overflowed V8's
 * stack) records every event: bulk loads go through the same path as small ones. On memory and
 * SQLite; Postgres runs the same SQL seeding code (src/stores/sql/seeding.ts), and 200,000 records
 * with their events take it minutes on this machine, too long for every run. A big seed on Postgres
 * leaves the tables it loaded analysed.
 */
import pg from 'pg'
import { createMemoryStore, type Store } from 'tenant-public-api'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createDemoData } from 'tenant-public-api/testing'
import { describe, expect, it } from 'vitest'
import { DATABASE_URL, dropSchemas, freshSchema, NO_SERVER, postgresServerAnswers } from '../support/postgres.js'

const TICKETS = 200_000
const data = createDemoData({ tickets: TICKETS })
const seed = { companies: data.companies, tickets: data.tickets }

const stores: Array<[string, () => Promise<Store & { close?: () => Promise<void> }>]> = [
  ['memory', async () => createMemoryStore()],
  ['sqlite', () => createSqliteStore({ filename: ':memory:' })],
]

describe.each(stores)('a seed of %s', (_name, open) => {
  it(`of ${TICKETS.toLocaleString('en')} tickets records an event per record`, { timeout: 240_000 }, async () => {
    const store = await open()
    try {
      await store.seed('big', seed)
      const page = await store.listEvents('big', { after: null, order: 'desc', types: null, limit: 1 })
      expect(page.state === 'ok' && page.lastPosition).toBe(seed.companies.length + TICKETS)
    } finally {
      await store.close?.()
    }
  })
})

describe('a big seed on Postgres', () => {
  it('leaves the tables it loaded analysed, so what reads them next is planned for their size', async () => {
    expect(await postgresServerAnswers(), NO_SERVER).toBe(true)
    const schema = freshSchema('analysed')
    const store = await createPostgresStore({ connectionString: DATABASE_URL, schema })
    const client = new pg.Client({ connectionString: DATABASE_URL })
    await client.connect()
    try {
      const { tickets } = createDemoData({ tickets: 10_001 })
      await store.seed('big', { tickets }, { events: false })
      // ANALYZE sets the row estimate: a table never analysed nor vacuumed has -1.
      const { rows } = await client.query<{ reltuples: number }>(
        `SELECT reltuples::int AS reltuples FROM pg_class WHERE oid = '"${schema}"."tickets"'::regclass`,
      )
      expect(rows[0]!.reltuples).toBeGreaterThanOrEqual(10_001)
    } finally {
      await client.end()
      await store.close()
      await dropSchemas([schema])
    }
  })
})
