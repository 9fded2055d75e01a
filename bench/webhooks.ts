/**
 * `npm run bench webhooks` (or `npx tsx bench/webhooks.ts`): deliveries per second from webhook
 * dispatcher processes to a receiver process, on a SQLite file and on Postgres (DATABASE_URL), with
 * one dispatcher process (the baseline) and with two on the same database (target: two >= 1.6x
 * one). Two receivers: one that answers 204 at once (the dispatcher's own cost bounds it) and one
 * that answers 204 after BENCH_DELAY_MS (default 50, a receiver doing work: waiting bounds it).
 * Each run gets a fresh database holding BENCH_TENANTS tenants (default 10) with two endpoints each
 * and BENCH_EVENTS events per tenant (default 200; BENCH_DELAYED_EVENTS, default 100, for the slow
 * receiver), so BENCH_TENANTS x 2 x events deliveries, timed from `go` (fan-out included) until the
 * receiver has them all. One and two processes alternate for BENCH_ROUNDS rounds (default 2);
 * medians. Each dispatcher process reports its CPU time (`process.cpuUsage`) per attempt it made,
 * how busy it was (CPU time over the run's time: near 100% is a process bound by its core) and, on
 * SQLite, the statements it ran per attempt (claims, reads, fan-out and recording, BEGIN/COMMIT too).
 * BENCH_ENGINES (default `sqlite,postgres`) picks the databases; BENCH_CPU_PROF=<dir> profiles the dispatchers.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPublicApi } from '../src/create-public-api.js'
import { memoryRateLimiter } from '../src/http/rate-limit.js'
import { createPostgresStore } from '../src/stores/postgres/index.js'
import { createSqliteStore } from '../src/stores/sqlite/index.js'
import type { Store } from '../src/ports/store.js'
import { numberedCompany } from '../src/testing/conformance/webhook-fixtures.js'
import { testKey, testKeyResolver } from '../src/testing/keys.js'
import { atInterrupt, dropSchemasAtExit, removeAtExit, uninterrupted } from './cleanup.js'
import type { DispatcherReport } from './webhook-processes.js'

const TENANTS = Number(process.env.BENCH_TENANTS ?? 10)
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200)
const DELAYED_EVENTS = Number(process.env.BENCH_DELAYED_EVENTS ?? 100)
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 50)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[]
const CONCURRENCY = 10
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const script = fileURLToPath(new URL('./webhook-processes.ts', import.meta.url))

/** BENCH_CPU_PROF=<dir>: every dispatcher process writes a V8 CPU profile there (`node --cpu-prof`). */
const CPU_PROF = process.env.BENCH_CPU_PROF

/** A process of the bench; a signal that stops the run stops it first (a SIGTERM reaches this process only). */
function spawnProcess(args: { role: string; [key: string]: unknown }): ChildProcess {
  const profile = CPU_PROF !== undefined && args.role === 'dispatcher' ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF] : []
  const child = fork(script, [JSON.stringify(args)], {
    execArgv: ['--import', 'tsx', ...profile],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const forget = atInterrupt(() => {
    child.kill()
    return exited
  })
  void exited.then(forget)
  return child
}

const nextMessage = <T>(child: ChildProcess) =>
  new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)))

/** Endpoints and events for one run: TENANTS tenants, two endpoints each, `events` company events each. */
async function fill(store: Store, receiverUrl: string, events: number): Promise<number> {
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
    const companies = Array.from({ length: events }, (_, i) => numberedCompany(i + 1, `Company ${i}`))
    await store.seed(tenantId, { companies })
  }
  return TENANTS * 2 * events
}

/** A receiver case: how long it waits before answering and how many events per tenant it gets. */
interface Case {
  name: string
  delayMs: number
  events: number
}

/** What one run measured: deliveries per second and each dispatcher process's report. */
interface RunResult {
  rate: number
  seconds: number
  reports: DispatcherReport[]
}

/** One run on a fresh database: deliveries per second with `processes` dispatchers. */
async function run(
  engine: 'sqlite' | 'postgres',
  processes: number,
  receiverCase: Case,
  receiver: ChildProcess,
  receiverUrl: string,
): Promise<RunResult> {
  const dir = removeAtExit(mkdtempSync(join(tmpdir(), 'bench-webhooks-')))
  const schema = `bench_webhooks_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`
  const target = engine === 'sqlite' ? { sqlite: join(dir, 'webhooks.db') } : { postgres: DATABASE_URL, schema }
  const dropSchema = engine === 'postgres' ? dropSchemasAtExit(DATABASE_URL, [schema]) : async () => {}
  const store =
    engine === 'sqlite'
      ? await createSqliteStore({ filename: join(dir, 'webhooks.db') })
      : await uninterrupted(() => createPostgresStore({ connectionString: DATABASE_URL, schema }))
  try {
    const deliveries = await fill(store, receiverUrl, receiverCase.events)
    const dispatchers = Array.from({ length: processes }, () =>
      spawnProcess({ role: 'dispatcher', target, concurrency: CONCURRENCY }),
    )
    await Promise.all(dispatchers.map((child) => nextMessage(child)))
    receiver.send({ expect: deliveries, delayMs: receiverCase.delayMs })
    const done = nextMessage<{ done: number }>(receiver)
    const started = performance.now()
    for (const child of dispatchers) child.send('go')
    await done
    const seconds = (performance.now() - started) / 1000
    const reports = await Promise.all(
      dispatchers.map((child) => {
        const report = nextMessage<DispatcherReport>(child)
        child.send('report')
        return report
      }),
    )
    await Promise.all(
      dispatchers.map((child) => {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.send('stop')
        return exited
      }),
    )
    return { rate: deliveries / seconds, seconds, reports }
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
    await dropSchema()
  }
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!

/** Each process of a run: CPU ms per attempt it made, and its CPU time over the run's time. */
const cpuOf = ({ reports, seconds }: RunResult) =>
  reports
    .map(
      (r) =>
        `${(r.cpuMicros / 1000 / Math.max(1, r.attempts)).toFixed(2)} ms x ${r.attempts}, ` +
        `busy ${((r.cpuMicros / 1e6 / seconds) * 100).toFixed(0)}%` +
        (r.statements === null ? '' : `, ${(r.statements / Math.max(1, r.attempts)).toFixed(1)} statements each`),
    )
    .join(' | ')

const receiver = spawnProcess({ role: 'receiver' })
const { port } = await nextMessage<{ port: number }>(receiver)
const receiverUrl = `http://receiver.bench:${port}`
const cases: Case[] = [
  { name: 'instant receiver', delayMs: 0, events: EVENTS },
  { name: `receiver answering after ${DELAY_MS} ms`, delayMs: DELAY_MS, events: DELAYED_EVENTS },
]
try {
  console.log(`concurrency ${CONCURRENCY} per process, ${TENANTS} tenants x 2 endpoints; CPU per attempt per process`)
  for (const receiverCase of cases) {
    const deliveries = TENANTS * 2 * receiverCase.events
    console.log(`\n${receiverCase.name}: ${deliveries} deliveries per run (${receiverCase.events} events per tenant)`)
    for (const engine of ENGINES) {
      const results = { 1: [] as RunResult[], 2: [] as RunResult[] }
      for (let round = 0; round < ROUNDS; round++)
        for (const processes of [1, 2] as const) {
          const result = await run(engine, processes, receiverCase, receiver, receiverUrl)
          results[processes].push(result)
          console.log(
            `  ${engine} round ${round + 1}, ${processes} process(es): ${result.rate.toFixed(0)}/s; ${cpuOf(result)}`,
          )
        }
      const one = median(results[1].map((r) => r.rate))
      const two = median(results[2].map((r) => r.rate))
      const rates = (list: RunResult[]) => list.map((r) => r.rate.toFixed(0)).join(', ')
      console.log(
        `${engine}, ${receiverCase.name}: one process ${one.toFixed(0)} deliveries/s (${rates(results[1])}); ` +
          `two processes ${two.toFixed(0)}/s (${rates(results[2])}); ratio ${(two / one).toFixed(2)} (target >= 1.6)`,
      )
    }
  }
} finally {
  receiver.kill()
}
