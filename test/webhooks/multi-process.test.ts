/**
 * Webhook dispatchers in several OS processes on one database (docs/webhooks.md, scale-out): on one
 * SQLite file and on one Postgres schema (the server: PGlite cannot be shared between processes).
 * Two dispatchers deliver every event to every endpoint at least once and never run one delivery
 * twice at once (the receiver checks that no two requests of one endpoint and webhook-id overlap);
 * a dispatcher killed with SIGKILL mid-delivery leaves its claims, which the other takes over once
 * their lease has passed.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Store } from 'tenant-public-api'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import type { Reply } from 'tenant-public-api/testing'
import { DATABASE_URL, dropSchemas, freshSchema, postgresServerAnswers } from '../support/postgres.js'
import { forkWorker } from '../support/worker-process.js'
import { apiClient, company, type Receiver, startReceiver } from './support.js'

const worker = fileURLToPath(new URL('./dispatcher-worker.ts', import.meta.url))

interface WorkerResult {
  pid: number
  delivered: number
  errors: string[]
}

interface Worker {
  child: ChildProcess
  /** Resolves with the worker's last line once it has stopped (or rejects if it failed). */
  stopped: Promise<WorkerResult>
  stop(): Promise<WorkerResult>
}

/** Starts a dispatcher process and resolves once it is dispatching. */
async function startWorker(args: object): Promise<Worker> {
  const { child, result: stopped } = forkWorker<WorkerResult>(worker, args)
  stopped.catch(() => undefined)
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve())
    child.once('exit', () => stopped.then(() => reject(new Error('the dispatcher stopped before it started')), reject))
  })
  return {
    child,
    stopped,
    stop: () => {
      child.send('stop')
      return stopped
    },
  }
}

/** Every request of the receiver with when it arrived and when it was answered. */
interface Timed {
  key: string
  start: number
  end: number
}

/** Polls `done` until it holds (or fails after `ms`). */
async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function tenantsWithEndpoints(store: Store, receiver: Receiver, tenants: number, endpoints: number) {
  const out: { tenantId: string; paths: string[] }[] = []
  for (let t = 0; t < tenants; t++) {
    const tenantId = `tenant-mp-${crypto.randomUUID()}`
    const h = apiClient(store, tenantId)
    const paths: string[] = []
    for (let e = 0; e < endpoints; e++) {
      const path = `/t${t}/e${e}`
      const created = await h.call<Reply<'createWebhookEndpoint'>>('POST', '/webhook-endpoints', {
        body: { url: `${receiver.url}${path}`, events: ['*'] },
      })
      expect(created.status).toBe(201)
      paths.push(path)
    }
    out.push({ tenantId, paths })
  }
  return out
}

async function everyEventOnceAtATime(store: Store, target: object): Promise<void> {
  const receiver = await startReceiver()
  const timed: Timed[] = []
  receiver.answer = async (got) => {
    const start = Date.now()
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 15))
    timed.push({ key: `${got.path} ${String(got.headers['webhook-id'])}`, start, end: Date.now() })
    return { status: 204 }
  }
  const workers: Worker[] = []
  try {
    const tenants = await tenantsWithEndpoints(store, receiver, 3, 2)
    const args = { target, leaseMs: 20_000, timeoutMs: 5_000, concurrency: 4 }
    workers.push(...(await Promise.all([startWorker(args), startWorker(args)])))
    const EVENTS = 30
    for (let i = 1; i <= EVENTS; i += 5)
      for (const { tenantId } of tenants)
        await store.seed(tenantId, { companies: [1, 2, 3, 4, 5].map((n) => company(i + n - 1)) })
    const expected = tenants.flatMap(({ paths }) =>
      paths.flatMap((path) =>
        Array.from({ length: EVENTS }, (_, i) => `${path} evt_${String(i + 1).padStart(12, '0')}`),
      ),
    )
    await until(() => new Set(timed.map((t) => t.key)).size >= expected.length, 60_000, 'every delivery')
    const results = await Promise.all(workers.splice(0).map((w) => w.stop()))
    expect(results.flatMap((r) => r.errors)).toEqual([])
    // Both processes did part of the work, together all of it (at least once: a few may be repeated).
    for (const result of results) expect(result.delivered, `process ${result.pid}`).toBeGreaterThan(0)
    expect(results[0]!.delivered + results[1]!.delivered).toBeGreaterThanOrEqual(expected.length)
    expect([...new Set(timed.map((t) => t.key))].sort()).toEqual([...expected].sort())
    // No two requests of one delivery (endpoint, webhook-id) overlap in time.
    const byKey = new Map<string, Timed[]>()
    for (const t of timed) byKey.set(t.key, [...(byKey.get(t.key) ?? []), t])
    const overlapping = [...byKey.values()].filter((list) =>
      list.some((a, i) => list.some((b, j) => i !== j && a.start < b.end && b.start < a.end)),
    )
    expect(overlapping).toEqual([])
    // Every delivery is recorded as succeeded.
    for (const { tenantId, paths } of tenants) {
      const h = apiClient(store, tenantId)
      const list = await h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints?limit=10')
      for (const endpoint of list.body.data) {
        const deliveries = await h.call<Reply<'listWebhookDeliveries'>>(
          'GET',
          `/webhook-endpoints/${endpoint.id}/deliveries?limit=100`,
        )
        const ok = deliveries.body.data.filter((d: { status: string }) => d.status === 'succeeded')
        expect(new Set(ok.map((d: { eventId: string }) => d.eventId)).size).toBe(EVENTS)
      }
      expect(list.body.data).toHaveLength(paths.length)
    }
  } finally {
    for (const w of workers) w.child.kill('SIGKILL')
    await receiver.close()
  }
}

async function killedMidDelivery(store: Store, target: object): Promise<void> {
  const receiver = await startReceiver()
  const arrivals: { id: string; at: number }[] = []
  let hold = true
  const held: (() => void)[] = []
  receiver.answer = async (got) => {
    arrivals.push({ id: String(got.headers['webhook-id']), at: Date.now() })
    if (hold) await new Promise<void>((resolve) => held.push(resolve))
    return { status: 204 }
  }
  const LEASE = 4_000
  const args = { target, leaseMs: LEASE, timeoutMs: 3_000, concurrency: 5 }
  let second: Worker | undefined
  try {
    const { tenantId } = (await tenantsWithEndpoints(store, receiver, 1, 1))[0]!
    const first = await startWorker(args)
    await store.seed(tenantId, { companies: [1, 2, 3].map((n) => company(n)) })
    await until(() => arrivals.length === 3, 30_000, 'the first process to be mid-delivery')
    first.child.kill('SIGKILL')
    await first.stopped.catch(() => undefined)
    hold = false
    for (const release of held.splice(0)) release()
    second = await startWorker(args)
    await until(() => arrivals.length === 6, 30_000, 'the second process to take the work over')
    const results = await second.stop()
    second = undefined
    expect(results.errors).toEqual([])
    const firstRound = arrivals.slice(0, 3)
    const secondRound = arrivals.slice(3)
    expect(secondRound.map((a) => a.id).sort()).toEqual(firstRound.map((a) => a.id).sort())
    // Taken over only once the first process's lease had passed (its claim came before its requests).
    expect(Math.min(...secondRound.map((a) => a.at))).toBeGreaterThanOrEqual(Math.min(...firstRound.map((a) => a.at)))
    expect(Math.min(...secondRound.map((a) => a.at)) - Math.max(...firstRound.map((a) => a.at))).toBeGreaterThan(
      LEASE - 1_000,
    )
    const h = apiClient(store, tenantId)
    const [endpoint] = (await h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints')).body.data
    const deliveries = (
      await h.call<Reply<'listWebhookDeliveries'>>('GET', `/webhook-endpoints/${endpoint?.id}/deliveries`)
    ).body.data
    // The killed process recorded nothing; the other recorded each first attempt as it succeeded.
    expect(deliveries.map((d: { attempt: number; status: string }) => [d.attempt, d.status])).toEqual([
      [1, 'succeeded'],
      [1, 'succeeded'],
      [1, 'succeeded'],
    ])
  } finally {
    second?.child.kill('SIGKILL')
    for (const release of held.splice(0)) release()
    await receiver.close()
  }
}

const dir = mkdtempSync(join(tmpdir(), 'tenant-api-webhooks-'))
const schemas: string[] = []
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  if (schemas.length > 0 && (await postgresServerAnswers())) {
    await dropSchemas(schemas)
  }
})

async function onSqlite(run: (store: Store, target: object) => Promise<void>): Promise<void> {
  const filename = join(dir, `${crypto.randomUUID()}.db`)
  const store = await createSqliteStore({ filename })
  try {
    await run(store, { sqlite: filename })
  } finally {
    await store.close()
  }
}

async function onPostgres(run: (store: Store, target: object) => Promise<void>): Promise<void> {
  expect(await postgresServerAnswers(), `no Postgres at ${DATABASE_URL}: start one or set DATABASE_URL`).toBe(true)
  const schema = freshSchema('webhooks')
  schemas.push(schema)
  const store = await createPostgresStore({ connectionString: DATABASE_URL, schema })
  try {
    await run(store, { postgres: DATABASE_URL, schema })
  } finally {
    await store.close()
  }
}

describe('webhook dispatchers in two processes', () => {
  it('on one SQLite file: every event delivered, no delivery in flight twice', { timeout: 120_000 }, () =>
    onSqlite(everyEventOnceAtATime),
  )
  it('on one Postgres schema: every event delivered, no delivery in flight twice', { timeout: 120_000 }, () =>
    onPostgres(everyEventOnceAtATime),
  )
  it(
    'on one SQLite file: a process killed mid-delivery; the other takes over after the lease',
    {
      timeout: 120_000,
    },
    () => onSqlite(killedMidDelivery),
  )
  it(
    'on one Postgres schema: a process killed mid-delivery; the other takes over after the lease',
    {
      timeout: 120_000,
    },
    () => onPostgres(killedMidDelivery),
  )
})
