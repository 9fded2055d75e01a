/**
 * Large events in bounded memory (docs/extensions.md section 3, docs/webhooks.md): with 100 events of
 * about 2 MB each (a full page of `limit=100`), a child process that walks the whole feed through
 * `GET /events?limit=100`, and one that runs a webhook dispatcher delivering all of them, each grow
 * their RSS by less than RSS_GROWTH_BOUND: a page stops at its byte budget (1 MiB by default), the
 * dispatcher reads within its own (4 MiB) and holds at most `concurrency` events in delivery. Without
 * the budgets a page of 100 such events is about 200 MB, and the dispatcher's fan-out reads every one
 * at once. On one SQLite file and on one Postgres schema (the server: PGlite cannot be shared between
 * processes).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicApi, type Store } from 'tenant-public-api'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createHarness, testKey, testKeyResolver, type Reply } from 'tenant-public-api/testing'
import { DATABASE_URL, dropSchemas, freshSchema, NO_SERVER, postgresServerAnswers } from '../support/postgres.js'
import { forkWorker, type WorkerTarget } from '../support/worker-process.js'

/**
 * Events of about 2 MB: a ticket's 1 MB description changed, the event holding the new and the old.
 * As many as a page of `limit=100` holds without a budget: more add bytes, not proof.
 */
const EVENTS = 100
/**
 * The children's V8 heap, in MB: garbage is collected before it passes this (uncapped, V8 leaves a few
 * hundred MB of it lying, which says nothing of what a process holds). What they hold must fit: a page
 * of 100 such events, or a fan-out of every one of them, does not.
 */
const HEAP_MB = 192
/**
 * What either child's RSS may grow by: its heap, the buffers of what it sends, the store's own memory
 * (measured: about 55 MB for the page reader, 155 MB for the dispatcher, on both stores). Before the
 * budgets, both ran out of the capped heap.
 */
const RSS_GROWTH_BOUND = 224 * 1024 * 1024
const worker = fileURLToPath(new URL('./large-events-worker.ts', import.meta.url))

interface Result {
  baseline: number
  peak: number
  done: number
}

const ticket = (n: number) => ({
  id: '00000000-0000-4000-8000-000000000b16',
  ticketNumber: 'BIG-1',
  title: 'A ticket whose description keeps changing',
  status: 'Open',
  priority: 'Low',
  isClosed: false,
  provider: 'psa_a' as const,
  createdAt: '2024-01-01T00:00:00.000Z',
  description: String.fromCharCode(97 + (n % 26)).repeat(1_000_000),
})

/** A receiver that reads and drops every delivery: the parent holds none of them. */
let receiver: Server
let receiverUrl = ''
const dir = mkdtempSync(join(tmpdir(), 'tenant-api-large-events-'))
const schemas: string[] = []
beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.writeHead(204).end())
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`
})
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve))
  rmSync(dir, { recursive: true, force: true })
  if (schemas.length > 0 && (await postgresServerAnswers())) await dropSchemas(schemas)
})

/** Seeds the events after an endpoint subscribed to them, then runs both children, one after the other. */
async function boundedOn(store: Store, target: WorkerTarget): Promise<void> {
  const tenantId = `tenant-large-${crypto.randomUUID()}`
  await store.seed(tenantId, { tickets: [ticket(0)] }, { events: false })
  const api = createPublicApi({ store, keyResolver: testKeyResolver(), webhooks: { allowInsecureUrls: true } })
  const h = createHarness(api, { key: testKey(tenantId) })
  const created = await h.call<Reply<'createWebhookEndpoint'>>('POST', '/webhook-endpoints', {
    body: { url: receiverUrl, events: ['ticket.updated'] },
  })
  expect(created.status).toBe(201)
  for (let n = 1; n <= EVENTS; n++) await store.seed(tenantId, { tickets: [ticket(n)] })
  const newest = await h.call<Reply<'listEvents'>>('GET', '/events?order=desc&limit=1')
  expect(new TextEncoder().encode(JSON.stringify(newest.body.data[0])).length).toBeGreaterThan(2_000_000)
  for (const job of ['pages', 'dispatch'] as const) {
    const args = { target, job, tenantId, count: EVENTS }
    const { baseline, peak, done } = await forkWorker<Result>(worker, args, [
      '--expose-gc',
      `--max-old-space-size=${HEAP_MB}`,
    ]).result
    const growth = `${job}: RSS ${Math.round(baseline / 2 ** 20)} MB, peak ${Math.round(peak / 2 ** 20)} MB`
    console.info(`large events, ${'sqlite' in target ? 'sqlite' : 'postgres'}: ${growth}`)
    expect(done, growth).toBe(EVENTS)
    expect(peak - baseline, growth).toBeLessThan(RSS_GROWTH_BOUND)
  }
}

describe('100 events of 2 MB in bounded memory', () => {
  it('on one SQLite file: the page reader and the dispatcher stay within the bound', { timeout: 300_000 }, async () => {
    const filename = join(dir, 'large-events.db')
    const store = await createSqliteStore({ filename })
    try {
      await boundedOn(store, { sqlite: filename })
    } finally {
      await store.close()
    }
  })

  it('on one Postgres schema: the page reader and the dispatcher stay within the bound', {
    timeout: 300_000,
  }, async () => {
    expect(await postgresServerAnswers(), NO_SERVER).toBe(true)
    const schema = freshSchema('large_events')
    schemas.push(schema)
    const store = await createPostgresStore({ connectionString: DATABASE_URL, schema })
    try {
      await boundedOn(store, { postgres: DATABASE_URL, schema })
    } finally {
      await store.close()
    }
  })
})
