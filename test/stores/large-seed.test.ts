/**
 * A seed far larger than a function's argument limit (a spread of that many drafts overflowed V8's
 * stack) records every event: bulk loads go through the same path as small ones. On memory and
 * SQLite, each in a child process with a smaller V8 stack (`--stack-size`): the limit grows with the
 * stack (some 125,000 arguments on V8's default), so a smaller one proves the same with fewer
 * records. The child measures its limit, and the seed holds more than 1.5 times as many records.
 * Postgres runs the same SQL seeding code (src/stores/sql/seeding.ts). A big seed on Postgres leaves
 * the tables it loaded analysed.
 */
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { createDemoData } from 'tenant-public-api/testing'
import { describe, expect, it } from 'vitest'
import { DATABASE_URL, dropSchemas, freshSchema, NO_SERVER, postgresServerAnswers } from '../support/postgres.js'
import { forkWorker } from '../support/worker-process.js'

/**
 * Per store, the child's V8 stack in KiB (V8's default is 984) and the tickets seeded. SQLite's
 * statements pass up to 32,766 values through one spread (into Kysely's `sql` tag), so its stack must
 * take that many arguments and some.
 */
const SIZES = {
  memory: { stackKib: 128, tickets: 30_000 },
  sqlite: { stackKib: 384, tickets: 80_000 },
}
const worker = fileURLToPath(new URL('./large-seed-worker.ts', import.meta.url))

interface Seeded {
  argumentLimit: number
  lastPosition: number | null
  records: number
}

describe.each(['memory', 'sqlite'] as const)('a seed of %s', (store) => {
  const { stackKib, tickets } = SIZES[store]
  it(`of ${tickets.toLocaleString('en')} tickets, more than the arguments a call takes, records an event per record`, {
    timeout: 240_000,
  }, async () => {
    const seeded = await forkWorker<Seeded>(worker, { store, tickets }, [`--stack-size=${stackKib}`]).result
    expect(seeded.argumentLimit).toBeGreaterThan(1_000)
    expect(seeded.records).toBeGreaterThan(1.5 * seeded.argumentLimit)
    expect(seeded.lastPosition).toBe(seeded.records)
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
