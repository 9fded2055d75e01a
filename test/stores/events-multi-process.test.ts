/**
 * The events feed across OS processes (docs/extensions.md, section 3): two processes write
 * through their own API instances while a third tails `GET /events?after=`; the reader sees every
 * acknowledged write's event exactly once, in increasing order. On one SQLite file and on one
 * Postgres schema (the server: PGlite cannot be shared between processes).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { createSqliteStore, type SqlStore } from 'tenant-public-api/sqlite'
import { DATABASE_URL, dropSchemas, freshSchema, NO_SERVER, postgresServerAnswers } from '../support/postgres.js'
import { forkWorker } from '../support/worker-process.js'

interface Result {
  acknowledged: string[]
  statuses: number[]
  seen: { id: string; rule: string }[]
}

const worker = fileURLToPath(new URL('./events-worker.ts', import.meta.url))

function run(args: object): Promise<Result> {
  return forkWorker<Result>(worker, args).result
}

const WRITES = 30

/** Two writers and a tailing reader on `target`; checks the reader's view against the acknowledged writes. */
async function writersAndReader(store: SqlStore, target: object): Promise<void> {
  const tenantId = `tenant-events-${crypto.randomUUID()}`
  await store.seed(tenantId, { companies: [] })
  const reader = run({ target, job: 'tail', tenantId, count: 2 * WRITES })
  const writers = await Promise.all([1, 2].map(() => run({ target, job: 'write', tenantId, count: WRITES })))
  const { seen, statuses } = await reader
  const acknowledged = writers.flatMap((w) => w.acknowledged)
  expect(writers.flatMap((w) => w.statuses)).toEqual(Array(2 * WRITES).fill(201))
  expect(statuses.every((s) => s === 200)).toBe(true)
  // Exactly once each, and in increasing position order.
  expect(seen.map((e) => e.rule).sort()).toEqual([...acknowledged].sort())
  expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length)
  expect([...seen.map((e) => e.id)].sort()).toEqual(seen.map((e) => e.id))
  // The whole feed afterwards holds the same events at the same positions.
  const page = await store.listEvents(tenantId, {
    after: null,
    order: 'asc',
    types: ['automation_rule.created'],
    limit: 100,
  })
  expect(page.state === 'ok' ? page.events.map((e) => e.id) : page.state).toEqual(seen.map((e) => e.id))
}

const dir = mkdtempSync(join(tmpdir(), 'tenant-api-events-'))
const schemas: string[] = []
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  if (schemas.length > 0 && (await postgresServerAnswers())) {
    await dropSchemas(schemas)
  }
})

describe('the events feed across processes', () => {
  it('on one SQLite file: the reader sees every acknowledged write once, in order', { timeout: 90_000 }, async () => {
    const filename = join(dir, 'events.db')
    const store = await createSqliteStore({ filename })
    try {
      await writersAndReader(store, { sqlite: filename })
    } finally {
      await store.close()
    }
  })

  it('on one Postgres schema: the reader sees every acknowledged write once, in order', {
    timeout: 90_000,
  }, async () => {
    expect(await postgresServerAnswers(), NO_SERVER).toBe(true)
    const schema = freshSchema('events')
    schemas.push(schema)
    const store = await createPostgresStore({ connectionString: DATABASE_URL, schema })
    try {
      await writersAndReader(store, { postgres: DATABASE_URL, schema })
    } finally {
      await store.close()
    }
  })
})
