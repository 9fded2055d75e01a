/**
 * The `limits` part of the bench (bench/README.md#limits-the-redis-rate-limiter-onresponse-and-tracing),
 * every figure a ratio to a baseline measured in the same run, in paired rounds (each round runs
 * every variant in turn):
 *
 *   redisRateLimiter (ioredis)  vs  sqlRateLimiter on Postgres: one key, 64 concurrent callers,
 *                                   consumes per second (targets: >= 30,000/s and >= 15x)
 *   the handler, in process     vs  the branch point's handler (BENCH_BASE, default 9915d86, exported
 *                                   from git into a temporary directory): GET /tickets on 10,000
 *                                   tickets, 64 concurrent callers, no onResponse, no tracer:
 *                                   called with a Fetch Request (read by text(), and not read),
 *                                   and through the Node mount without a socket (bench/node-mount.ts;
 *                                   target: within noise); then with onResponse, and with a tracer
 *                                   provider and an in-memory exporter (reported)
 *
 * Env: REDIS_URL (default redis://127.0.0.1:6379), DATABASE_URL, BENCH_SECONDS (per variant and
 * round, default 2), BENCH_ROUNDS (default 5), BENCH_BASE, BENCH_BEFORE (another commit measured in
 * the same rounds), BENCH_HANDLER_ONLY=1 (skip the limiters). The handler's ratios are given by
 * requests per second and by this process's CPU time per request (steadier on a shared machine).
 */
import { trace } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import Redis from 'ioredis'
import * as currentNode from '../adapters/node.js'
import * as current from '../src/index.js'
import { createPostgresStore, sqlRateLimiter } from '../src/stores/postgres/index.js'
import { redisRateLimiter } from '../src/stores/redis/index.js'
import { createDemoData } from '../src/testing/index.js'
import { dropSchemasAtExit, uninterrupted, yieldToSignals } from './cleanup.js'
import { exportCommit, importFrom } from './exported-commit.js'
import { throughNodeMount } from './node-mount.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const CONCURRENCY = 64

/** What one measurement gives: completed calls per second, and this process's CPU time per call. */
interface Rate {
  perSecond: number
  cpuUs: number
}

/** Calls `work` from 64 concurrent callers for `seconds`; returns completed calls per second. */
async function throughput(work: () => Promise<unknown>, seconds = SECONDS): Promise<number> {
  return (await measure(work, seconds)).perSecond
}

/**
 * {@link throughput} with the CPU time this process spent per call (all its threads, GC included):
 * on a shared machine the wall-clock rate also measures the neighbours, the CPU time much less so.
 */
async function measure(work: () => Promise<unknown>, seconds = SECONDS): Promise<Rate> {
  const end = performance.now() + seconds * 1000
  const cpuBefore = process.cpuUsage()
  let done = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await work()
        done++
      }
    }),
  )
  const cpu = process.cpuUsage(cpuBefore)
  return { perSecond: done / seconds, cpuUs: (cpu.user + cpu.system) / Math.max(1, done) }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

/** Paired rounds: every variant once per round, ratios per round against the first, then medians. */
type Variant = [name: string, work: () => Promise<unknown>, around?: (on: boolean) => void]

async function measured([, work, around]: Variant, seconds = SECONDS): Promise<Rate> {
  // The handler's calls on the memory store all resolve at once: a turn of the event loop first, where a
  // signal's listener can run (bench/cleanup.ts).
  await yieldToSignals()
  around?.(true)
  try {
    return await measure(work, seconds)
  } finally {
    around?.(false)
  }
}

/**
 * Runs the variants in paired rounds and prints, for each, the median rate and two ratios to the
 * first variant (medians of the per-round ratios): by requests per second, and by CPU time per
 * request (the first's CPU µs over this one's, so that both read "1.0x is as fast, below is slower").
 * Returns the ratios by requests per second.
 */
async function rounds(title: string, variants: Variant[]): Promise<number[]> {
  console.log(`\n${title}`)
  for (const variant of variants) await measured(variant, 0.5) // warm-up
  const rates: Rate[][] = variants.map(() => [])
  for (let round = 0; round < ROUNDS; round++) {
    const line: string[] = []
    for (const [i, variant] of variants.entries()) {
      const [name] = variant
      const rate = await measured(variant)
      rates[i]!.push(rate)
      line.push(`${name} ${fmt(rate.perSecond)}/s ${rate.cpuUs.toFixed(1)} µs CPU`)
    }
    console.log(`  round ${round + 1}: ${line.join(' · ')}`)
  }
  const first = rates[0]!
  const ratios = variants.map((_, i) =>
    median(rates[i]!.map((rate, round) => rate.perSecond / first[round]!.perSecond)),
  )
  for (const [i, [name]] of variants.entries()) {
    const byCpu = median(rates[i]!.map((rate, round) => first[round]!.cpuUs / rate.cpuUs))
    const perSecond = fmt(median(rates[i]!.map((rate) => rate.perSecond)))
    const cpuUs = median(rates[i]!.map((rate) => rate.cpuUs)).toFixed(1)
    console.log(
      `  ${name}: median ${perSecond}/s, ${cpuUs} µs CPU per request; ` +
        `${ratios[i]!.toFixed(2)}x the ${variants[0]![0]} by requests/s, ${byCpu.toFixed(2)}x by CPU time`,
    )
  }
  return ratios
}

async function limiters(): Promise<boolean> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')
  const connectionString = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const dropSchema = dropSchemasAtExit(connectionString, ['bench_limits'])
  const store = await uninterrupted(() => createPostgresStore({ connectionString, schema: 'bench_limits', max: 10 }))
  try {
    const key = `bench-${Date.now()}`
    const onRedis = redisRateLimiter({ client: redis, limit: 1e9, windowMs: 3_600_000, prefix: 'bench:rl' })
    const onPostgres = sqlRateLimiter(store, { limit: 1e9, windowMs: 3_600_000 })
    const [, ratio] = await rounds('rate limiters: one key, 64 concurrent callers (consumes/s)', [
      ['sqlRateLimiter (Postgres)', () => Promise.resolve(onPostgres.consume(key))],
      ['redisRateLimiter (ioredis)', () => Promise.resolve(onRedis.consume(key))],
    ])
    // On a shared, loaded machine the wall-clock rate says more about the neighbours than about the
    // limiter; CPU time per consume (this process's, and the Redis server's from INFO) does not.
    const serverCpu = async () => {
      const info = await redis.info('cpu')
      const read = (name: string) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? 0)
      return read('used_cpu_user') + read('used_cpu_sys')
    }
    const cpuBefore = process.cpuUsage()
    const serverBefore = await serverCpu()
    const started = performance.now()
    const redisRate = await throughput(() => Promise.resolve(onRedis.consume(key)))
    const calls = (redisRate * (performance.now() - started)) / 1000
    const cpu = process.cpuUsage(cpuBefore)
    const clientUs = (cpu.user + cpu.system) / calls
    const serverUs = (((await serverCpu()) - serverBefore) * 1e6) / calls
    console.log(`  redisRateLimiter alone: ${fmt(redisRate)}/s (target >= 30,000/s); ratio target >= 15x`)
    console.log(
      `  CPU per consume: ${clientUs.toFixed(1)} µs in this process, ${serverUs.toFixed(1)} µs in Redis: ` +
        `${fmt(1e6 / Math.max(clientUs, serverUs))}/s when each has a core of its own`,
    )
    return redisRate >= 30_000 && ratio! >= 15
  } finally {
    redis.disconnect()
    await store.close()
    await dropSchema()
  }
}

/** A commit's core and its Node mount. */
interface Library {
  lib: typeof current
  node: typeof currentNode
}

/** A commit's sources, exported from git (never a worktree), importable beside the current ones. */
async function exportedApi(commit: string, label: string): Promise<Library> {
  const dir = exportCommit(commit, label, ['src', 'adapters'])
  return {
    lib: await importFrom<typeof current>(dir, 'src/index.ts'),
    node: await importFrom<typeof currentNode>(dir, 'adapters/node.ts'),
  }
}

async function handler(): Promise<void> {
  const tenant = 'bench'
  const token = `test:${tenant}:*`
  const principal = { tenantId: tenant, keyId: 'bench', scopes: ['tickets.read'], actor: { id: 'u', name: 'Bench' } }
  const seed = { tickets: createDemoData({ tickets: 10_000 }).tickets }
  const make = async ({ lib, node }: Library, extra: Partial<current.PublicApiOptions> = {}) => {
    const store = lib.createMemoryStore()
    await store.seed(tenant, seed as never)
    const api = lib.createPublicApi({
      store,
      keyResolver: (t) => (t === token ? principal : null),
      rateLimiter: lib.memoryRateLimiter({ limit: 1e12, windowMs: 60_000 }),
      ...extra,
    } as current.PublicApiOptions)
    const path = '/api/public/v1/tickets?limit=25'
    const url = `http://bench.local${path}`
    const headers = { authorization: `Bearer ${token}` }
    return async () => {
      if (viaBridge) {
        const answer = await throughNodeMount(node, api, { method: 'GET', target: path, headers })
        if (answer.status !== 200) throw new Error(`status ${answer.status}`)
        return
      }
      const response = await api(new Request(url, { headers }))
      if (response.status !== 200) throw new Error(`status ${response.status}`)
      if (readBody) await response.text()
    }
  }
  // Read as an in-process caller reads (text()), or not read: the handler's own cost alone; or
  // through the Node bridge, whose requests have the handler answer with its lightweight responses.
  let readBody = true
  let viaBridge = false
  const base = await exportedApi(process.env.BENCH_BASE ?? '9915d86', 'baseline')
  // BENCH_BEFORE (a commit): measured in the same rounds too, e.g. the code before a change to it.
  const beforeCommit = process.env.BENCH_BEFORE
  const before = beforeCommit === undefined ? undefined : await exportedApi(beforeCommit, 'before')
  let events = 0
  const plain = await make({ lib: current, node: currentNode })
  const baseline = await make(base)
  const observed = await make({ lib: current, node: currentNode }, { onResponse: () => void events++ })
  const comparison: Variant[] = [
    ['base', baseline],
    ...(before === undefined ? [] : [[`before (${beforeCommit})`, await make(before)] satisfies Variant]),
    ['current', plain],
  ]
  await rounds('handler in process, GET /tickets read by text(), no onResponse, no tracer (requests/s)', comparison)
  readBody = false
  await rounds('the same, the body not read: the handler up to its native Response (requests/s)', comparison)
  readBody = true
  viaBridge = true
  await rounds(
    'the Node mount in process: bridge request, handler, written to a stub response (requests/s)',
    comparison,
  )
  viaBridge = false
  await rounds('handler in process with onResponse (a counter)', [
    ['current', plain],
    ['current + onResponse', observed],
  ])
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  await rounds('handler in process: a tracer registered (in-memory exporter) vs none', [
    ['no tracer', plain],
    [
      'tracer',
      async () => {
        await plain()
        if (exporter.getFinishedSpans().length > 10_000) exporter.reset()
      },
      (on) => {
        if (on) trace.setGlobalTracerProvider(provider)
        else trace.disable()
      },
    ],
  ])
  console.log(`  (${events > 0 ? 'onResponse called' : 'onResponse never called'}; spans are exported)`)
}

// BENCH_HANDLER_ONLY=1: the handler comparisons alone (no Redis or Postgres needed).
const ok = process.env.BENCH_HANDLER_ONLY === '1' ? true : await limiters()
await handler()
if (!ok) {
  console.error('\nredisRateLimiter missed its target (>= 30,000/s and >= 15x sqlRateLimiter on Postgres)')
  process.exit(1)
}
process.exit(0)
