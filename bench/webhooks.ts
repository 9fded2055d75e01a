/**
 * `npm run bench webhooks` (or `npx tsx bench/webhooks.ts`): deliveries per second from webhook
 * dispatcher processes to a receiver process that answers 204 at once, on a SQLite file and on
 * Postgres (DATABASE_URL), with one dispatcher process (the baseline) and with two on the same
 * database (target: two >= 1.6x one). Each run gets a fresh database holding BENCH_TENANTS tenants
 * (default 10) with two endpoints each and BENCH_EVENTS events per tenant (default 200), so
 * BENCH_TENANTS x 2 x BENCH_EVENTS deliveries, timed from `go` (fan-out included) until the receiver
 * has them all. One and two processes alternate for BENCH_ROUNDS rounds (default 2); medians.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { createPublicApi } from '../src/create-public-api.js'
import { memoryRateLimiter } from '../src/http/rate-limit.js'
import { createPostgresStore } from '../src/stores/postgres/index.js'
import { createSqliteStore } from '../src/stores/sqlite/index.js'
import type { Store } from '../src/stores/store.js'
import { testKey, testKeyResolver } from '../src/testing/keys.js'

const TENANTS = Number(process.env.BENCH_TENANTS ?? 10)
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const CONCURRENCY = 10
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const script = fileURLToPath(new URL('./webhook-processes.ts', import.meta.url))

function spawnProcess(args: object): ChildProcess {
  return fork(script, [JSON.stringify(args)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
}

const nextMessage = <T>(child: ChildProcess) =>
  new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)))

/** Endpoints and events for one run: TENANTS tenants, two endpoints each, EVENTS company events each. */
async function fill(store: Store, receiverUrl: string): Promise<number> {
  const api = createPublicApi({
    store,
    keyResolver: testKeyResolver(),
    rateLimiter: memoryRateLimiter({ limit: 1e9 }),
    webhooks: { allowInsecureUrls: true },
  })
  for (let t = 0; t < TENANTS; t++) {
    const tenantId = `bench-webhooks-${t}`
    for (const path of ['/a', '/b']) {
      const response = await api(
        new Request('http://bench/api/public/v1/webhook-endpoints', {
          method: 'POST',
          headers: { authorization: `Bearer ${testKey(tenantId)}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: `${receiverUrl}${path}`, events: ['*'] }),
        }),
      )
      if (response.status !== 201) throw new Error(`endpoint: ${response.status}`)
    }
    const companies = Array.from({ length: EVENTS }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
      name: `Company ${i}`,
      domain: null,
      status: 'active',
      employeeCount: null,
      industry: null,
      website: null,
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
    }))
    await store.seed(tenantId, { companies })
  }
  return TENANTS * 2 * EVENTS
}

/** One run on a fresh database: deliveries per second with `processes` dispatchers. */
async function run(engine: 'sqlite' | 'postgres', processes: number, receiver: ChildProcess, receiverUrl: string) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'))
  const schema = `bench_webhooks_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`
  const target = engine === 'sqlite' ? { sqlite: join(dir, 'webhooks.db') } : { postgres: DATABASE_URL, schema }
  const store =
    engine === 'sqlite'
      ? await createSqliteStore({ filename: join(dir, 'webhooks.db') })
      : await createPostgresStore({ connectionString: DATABASE_URL, schema })
  try {
    const deliveries = await fill(store, receiverUrl)
    const dispatchers = Array.from({ length: processes }, () =>
      spawnProcess({ role: 'dispatcher', target, concurrency: CONCURRENCY }),
    )
    await Promise.all(dispatchers.map((child) => nextMessage(child)))
    receiver.send({ expect: deliveries })
    const done = nextMessage<{ done: number }>(receiver)
    const started = performance.now()
    for (const child of dispatchers) child.send('go')
    await done
    const seconds = (performance.now() - started) / 1000
    await Promise.all(
      dispatchers.map((child) => {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.send('stop')
        return exited
      }),
    )
    return deliveries / seconds
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
    if (engine === 'postgres') {
      const admin = new pg.Client({ connectionString: DATABASE_URL })
      await admin.connect()
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await admin.end()
    }
  }
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!

const receiver = spawnProcess({ role: 'receiver' })
const { port } = await nextMessage<{ port: number }>(receiver)
const receiverUrl = `http://127.0.0.1:${port}`
try {
  console.log(`${TENANTS * 2 * EVENTS} deliveries per run (${TENANTS} tenants x 2 endpoints x ${EVENTS} events)`)
  for (const engine of ['sqlite', 'postgres'] as const) {
    const rates = { 1: [] as number[], 2: [] as number[] }
    for (let round = 0; round < ROUNDS; round++)
      for (const processes of [1, 2] as const)
        rates[processes].push(await run(engine, processes, receiver, receiverUrl))
    const one = median(rates[1])
    const two = median(rates[2])
    console.log(
      `${engine}: one process ${one.toFixed(0)} deliveries/s (${rates[1].map((r) => r.toFixed(0)).join(', ')}); ` +
        `two processes ${two.toFixed(0)}/s (${rates[2].map((r) => r.toFixed(0)).join(', ')}); ` +
        `ratio ${(two / one).toFixed(2)} (target >= 1.6)`,
    )
  }
} finally {
  receiver.kill()
}
