/**
 * The `http` part of the bench: GET /tickets (25 per page, 10,000 tickets, memory store) over
 * loopback with autocannon, each server in its own process (so that no server's globals or JIT
 * state leak into another's), our mounts beside their baselines:
 *
 *   node mount     vs  raw node:http computing the same page (≥ 0.85x), @hono/node-server (≥ 1.0x),
 *                      Fastify 5 doing the API's work its own way (≥ 1.3x; bench/fastify-server.ts), and
 *                      the node mount of the branch point BENCH_BASE (default 9915d86; ≥ 0.95x, no slower)
 *   express mount  vs  a plain Express route doing the same work (≥ 0.9x)
 *   bun mount      vs  Bun.serve calling the API directly (≥ 0.9x)
 *   deno mount     vs  Deno.serve calling the API directly (≥ 0.9x)
 *
 * Run: `npx tsx bench/http.ts`. It builds the package first (Bun and Deno load dist/, so every server
 * runs the current source) and, when the run includes their servers, installs Bun and Deno with
 * scripts/install-runtimes.sh if missing.
 * `BENCH_SECONDS` sets each run's length (default 8), `BENCH_ROUNDS` the rounds (default 3; ratios are
 * medians of per-round ratios), `BENCH_SERVERS` a comma-separated subset of the servers.
 */
import { execFileSync, spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import {
  createMemoryStore,
  createPublicApi,
  memoryRateLimiter,
  type MemoryStore,
  type Principal,
  type PublicApiHandler,
  type SeedData,
} from 'tenant-public-api'
import { createDemoData } from 'tenant-public-api/testing'
// Not in the package's public surface: the page arithmetic of list answers.
import { pagination } from '../src/model/computed.js'
import { listRequest } from '../src/model/list-request.js'
import { tickets } from '../src/model/tickets.js'

const TENANT = 'bench'
const TOKEN = `test:${TENANT}:*`
export const BASE_PATH = '/api/public/v1'
const PATH = `${BASE_PATH}/tickets?limit=25`
const root = fileURLToPath(new URL('..', import.meta.url))

/** The 10,000 demo tickets (createDemoData's default), under the bench tenant. */
function benchSeed(): SeedData {
  return { tickets: createDemoData({ tickets: 10_000 }).tickets }
}

/** The bench key's principal; any other token is refused. */
export const resolveKey = (token: string): Principal | null =>
  token === TOKEN
    ? { tenantId: TENANT, keyId: 'bench', scopes: ['tickets.read'], actor: { id: 'u', name: 'Bench' } }
    : null

/** A rate limit that never runs out within a bench, but is still counted on every request. */
export const benchRateLimiter = () => memoryRateLimiter({ limit: 1e12, windowMs: 60_000 })

/** The API the mounts serve, its store, and the same page computed without it (for the baselines). */
export async function setup(): Promise<{ api: PublicApiHandler; store: MemoryStore; page: () => Promise<string> }> {
  const store = createMemoryStore()
  await store.seed(TENANT, benchSeed())
  const api = createPublicApi({ store, keyResolver: resolveKey, rateLimiter: benchRateLimiter() })
  const request = listRequest(tickets, { page: 1, limit: 25, sortColumn: 'created_date', sortDesc: true })
  const page = async () => {
    const result = await store.list(tickets, TENANT, request)
    return JSON.stringify({ data: result.items, pagination: pagination(1, 25, result.totalCount) })
  }
  return { api, store, page }
}

const rawHeaders = (body: string) => ({
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(Buffer.byteLength(body)),
  'x-request-id': crypto.randomUUID(),
  'cache-control': 'no-store',
})

/**
 * Requests on which a peer must answer as the API does: the bench's page, other pages, sorts and
 * filters, out-of-bounds, unknown and malformed parameters, cursors that cannot be used here, and no
 * key. Every 200 that has a next page is followed by its `Link` too (a cursor page, on both).
 */
const PARITY_CASES: Array<[query: string, authorized: boolean]> = [
  ['?limit=25', true],
  ['?page=3&limit=7&sortColumn=title&sortDesc=false', true],
  ['?status=open&isClosed=false&provider=psa_b&dateFrom=2024-01-01&dateTo=2026-12-31', true],
  ['?page=1429&limit=7', true],
  ['?limit=101', true],
  ['?page=0', true],
  ['?sortColumn=nope', true],
  ['?unknown=1', true],
  ['?companyId=not-a-uuid', true],
  ['?dateFrom=2025-02-30', true],
  ['?dateFrom=2026-01-02&dateTo=2026-01-01', true],
  ['?cursor=', true],
  ['?cursor=bm9wZQ', true],
  ['?page=2&cursor=bm9wZQ', true],
  ['?limit=25', false],
]
/** Headers node:http (or the framework) adds to any response: not part of what the API answers. */
const TRANSPORT_HEADERS = new Set(['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding'])
/** Headers whose values differ per request or with the limiter's count: compared by name, every other by value. */
const VARYING_HEADERS = new Set(['x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit'])

/** What must match between two answers: status, headers, and the body (an error's without its message texts). */
async function answerOf(response: Response): Promise<{ status: number; headers: string; body: string }> {
  const headers = [...response.headers]
    .filter(([name]) => !TRANSPORT_HEADERS.has(name))
    .map(([name, value]) => (VARYING_HEADERS.has(name) ? name : `${name}: ${value}`))
    .sort()
    .join('\n')
  const text = await response.text()
  if (response.status === 200) return { status: 200, headers, body: text }
  // An error: its code, message and the parameters its details name. The details' texts are each
  // validator's own words; the request id must be the one the X-Request-Id header carries.
  const error = JSON.parse(text) as { error: string; code: string; requestId: string; details?: unknown }
  const issues = Array.isArray(error.details)
    ? (error.details as Array<{ in: string; path: string }>).map((issue) => `${issue.in}:${issue.path}`)
    : error.details
  const ownId = error.requestId === response.headers.get('x-request-id')
  return { status: response.status, headers, body: JSON.stringify({ ...error, requestId: ownId, details: issues }) }
}

/**
 * Throws unless the server at `origin` answers every parity case as `api` (the library's handler, on
 * the same seed) does: the same status, the same headers (by value, but for per-request ones), the
 * same body of a 200 byte for byte, the same error code, message and parameters named.
 */
export async function checkParity(kind: string, origin: string, api: PublicApiHandler): Promise<void> {
  const pending: Array<readonly [path: string, authorized: boolean]> = PARITY_CASES.map(([query, authorized]) => [
    `${BASE_PATH}/tickets${query}`,
    authorized,
  ])
  for (let i = 0; i < pending.length; i++) {
    const [path, authorized] = pending[i]!
    const init: RequestInit = { headers: authorized ? { authorization: `Bearer ${TOKEN}` } : {} }
    const theirs = await answerOf(await fetch(`${origin}${path}`, init))
    const response = await api(new Request(`${origin}${path}`, init))
    // A relative reference (the API has no `publicOrigin` here): the path and query of the next page.
    const next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1]
    if (next !== undefined && i < PARITY_CASES.length) pending.push([next, authorized])
    const ours = await answerOf(response)
    const problem =
      theirs.status !== ours.status
        ? `status ${theirs.status}, the API's ${ours.status}`
        : theirs.headers !== ours.headers
          ? `headers\n${theirs.headers}\nthe API's\n${ours.headers}`
          : theirs.body !== ours.body
            ? `body ${theirs.body.slice(0, 300)}\nthe API's ${ours.body.slice(0, 300)}`
            : undefined
    if (problem !== undefined) throw new Error(`${kind} does not answer ${path} as the API does: ${problem}`)
  }
}

/** Starts one server in this process (the child side of the bench). */
async function serve(kind: string, port: number): Promise<void> {
  const { api, store, page } = await setup()
  const hostname = '127.0.0.1'
  const g = globalThis as { Bun?: { serve(o: object): unknown }; Deno?: { serve(o: object, h: unknown): unknown } }
  switch (kind) {
    case 'raw':
      createServer((req, res) => {
        if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end()
        void page().then((body) => res.writeHead(200, rawHeaders(body)).end(body))
      }).listen(port, hostname)
      break
    case 'raw-reused-text': {
      // The raw server again, but serialising as the API does (reusing the text of unchanged
      // records): the ratio to this one is the mount's and the pipeline's own cost.
      const { stringifyReply } = await import('../src/http/reply-json.js')
      const store = createMemoryStore()
      await store.seed(TENANT, benchSeed())
      const request = listRequest(tickets, { page: 1, limit: 25, sortColumn: 'created_date', sortDesc: true })
      createServer((req, res) => {
        if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end()
        void store.list(tickets, TENANT, request).then((result) => {
          const body = stringifyReply({ data: result.items, pagination: pagination(1, 25, result.totalCount) })
          res.writeHead(200, rawHeaders(body)).end(body)
        })
      }).listen(port, hostname)
      break
    }
    case 'node': {
      const { toNodeHandler } = await import('tenant-public-api/node')
      createServer(toNodeHandler(api)).listen(port, hostname)
      break
    }
    case 'node-base': {
      // The node mount as the branch point (BENCH_BASE) built it, on the same seed: "no slower than before".
      const { exportCommit, importFrom } = await import('./exported-commit.js')
      const dir = exportCommit(process.env.BENCH_BASE ?? '9915d86', 'node-base', ['src', 'adapters'])
      const base = await importFrom<typeof import('../src/index.js')>(dir, 'src/index.ts')
      const { toNodeHandler } = await importFrom<typeof import('../adapters/node.js')>(dir, 'adapters/node.ts')
      const baseStore = base.createMemoryStore()
      await baseStore.seed(TENANT, benchSeed() as never)
      const baseApi = base.createPublicApi({
        store: baseStore,
        keyResolver: resolveKey,
        rateLimiter: benchRateLimiter(),
      })
      createServer(toNodeHandler(baseApi)).listen(port, hostname)
      break
    }
    case 'fastify': {
      const { createFastifyPeer } = await import('./fastify-server.js')
      const app = createFastifyPeer({ store, resolveKey, rateLimiter: benchRateLimiter(), basePath: BASE_PATH })
      await app.listen({ port, host: hostname })
      break
    }
    case 'hono': {
      const { serve: honoServe } = await import('@hono/node-server')
      honoServe({ fetch: api, port, hostname })
      break
    }
    case 'express-mount':
    case 'express-plain': {
      const { default: express } = await import('express')
      const app = express()
      if (kind === 'express-mount') {
        const { toExpressMiddleware } = await import('tenant-public-api/express')
        app.use(toExpressMiddleware(api))
      } else {
        app.get('/api/public/v1/tickets', (req, res) => {
          if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.status(401).end()
          void page().then((body) => res.set(rawHeaders(body)).send(body))
        })
      }
      app.listen(port, hostname)
      break
    }
    case 'bun-mount':
    case 'bun-direct': {
      if (kind === 'bun-mount') {
        const { serveWithBun } = await import('tenant-public-api/bun')
        serveWithBun(api, { port, hostname })
      } else g.Bun!.serve({ port, hostname, fetch: api })
      break
    }
    case 'deno-mount':
    case 'deno-direct': {
      if (kind === 'deno-mount') {
        const { serveWithDeno } = await import('tenant-public-api/deno')
        serveWithDeno(api, { port, hostname, onListen: () => {} })
      } else g.Deno!.serve({ port, hostname, onListen: () => {} }, api)
      break
    }
    default:
      throw new Error(`unknown server ${kind}`)
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** CPU time (user + system, all threads) a process has used so far, in seconds; undefined off Linux. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100 // utime + stime, in clock ticks (USER_HZ = 100)
  } catch {
    return undefined
  }
}

/** One measured run: requests per second, and the server's CPU time per request (µs). */
interface Run {
  rps: number
  cpuMicros: number | undefined
  /** The client's (this process's) CPU time over the run's wall time: near 1, autocannon is the bottleneck. */
  clientLoad: number
}

/** A server started and answering, with what measures it and what stops it. */
interface Started {
  /** Loads it with autocannon for `seconds`: requests per second and the server's CPU time per request. */
  measure(seconds: number): Promise<Run>
  stop(): void
}

/** Starts one server kind, served by `command`, waits until it answers, and checks it (`check`). */
async function start(kind: string, command: string[], check?: (origin: string) => Promise<void>): Promise<Started> {
  const port = await freePort()
  const child = spawn(command[0]!, [...command.slice(1), '--serve', kind, String(port)], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' },
  })
  const url = `http://127.0.0.1:${port}${PATH}`
  try {
    for (let i = 0; ; i++) {
      try {
        const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })
        if (response.status !== 200) throw new Error(`${kind} answered ${response.status}`)
        await response.arrayBuffer()
        break
      } catch (error) {
        if (i > 200) throw error
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    await check?.(`http://127.0.0.1:${port}`)
  } catch (error) {
    child.kill('SIGTERM')
    throw error
  }
  const { default: autocannon } = await import('autocannon')
  const run = (duration: number) =>
    autocannon({ url, connections: 32, duration, headers: { authorization: `Bearer ${TOKEN}` } })
  return {
    async measure(seconds) {
      await run(2) // warm-up: JIT and caches
      const cpuBefore = cpuSeconds(child.pid)
      const clientBefore = process.cpuUsage()
      const result = await run(seconds)
      const client = process.cpuUsage(clientBefore)
      const cpuAfter = cpuSeconds(child.pid)
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`)
      const cpuMicros =
        cpuBefore === undefined || cpuAfter === undefined
          ? undefined
          : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total
      const clientLoad = (client.user + client.system) / 1e6 / result.duration // duration in seconds
      return { rps: result.requests.average, cpuMicros, clientLoad }
    },
    stop: () => child.kill('SIGTERM'),
  }
}

/**
 * One round's runs: each server alone in turn, or with `BENCH_TOGETHER=1` all at once, each with its
 * own client, so that a busy machine loads them alike (bench/README.md#http).
 */
async function measureRound(
  kinds: Array<[kind: string, command: string[]]>,
  seconds: number,
  checks: Record<string, (origin: string) => Promise<void>>,
  together: boolean,
): Promise<Run[]> {
  if (!together) {
    const runs: Run[] = []
    for (const [kind, command] of kinds) {
      const server = await start(kind, command, checks[kind])
      try {
        runs.push(await server.measure(seconds))
      } finally {
        server.stop()
      }
    }
    return runs
  }
  const servers: Started[] = []
  try {
    for (const [kind, command] of kinds) servers.push(await start(kind, command, checks[kind]))
    return await Promise.all(servers.map((server) => server.measure(seconds)))
  } finally {
    for (const server of servers) server.stop()
  }
}

/** One line of figures: a server's requests per second and its CPU time per request. */
function figures(kind: string, rps: number, cpuMicros: number | undefined): string {
  const cpu = cpuMicros?.toFixed(0).padStart(5) ?? '    ?'
  return `${kind.padEnd(16)} ${Math.round(rps).toString().padStart(7)} req/s  ${cpu} µs CPU/request`
}

/** Runs every server, prints requests per second and the ratios against their targets. */
export async function runHttpBench(seconds = Number(process.env.BENCH_SECONDS ?? 8)): Promise<Record<string, number>> {
  // Node runs the file itself with tsx's loader (not the tsx CLI, which would put a second process
  // between us and the server whose CPU time is read).
  const tsx = [process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url)]
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  const only = process.env.BENCH_SERVERS?.split(',')
  const self = fileURLToPath(import.meta.url)
  // Bun and Deno are installed (into .tools/) only when a run asks for their servers.
  const wantsRuntimes = only === undefined || only.some((kind) => /^(bun|deno)-/.test(kind))
  const [bun, denoBinary] = wantsRuntimes
    ? (execFileSync(`${root}scripts/install-runtimes.sh`, { encoding: 'utf8' }).trim().split('\n') as [string, string])
    : ['bun', 'deno']
  // The Deno example is a standalone app now: this run's own config maps the package to dist/ and
  // lets this file import the sources by their `.js` names (sloppy imports), as tsx and Bun do.
  const denoConfig = `${root}dist/bench-deno.json`
  const entries = ['', '/deno', '/testing'].map((sub) => [`tenant-public-api${sub}`, `./${sub.slice(1) || 'index'}.js`])
  const denoSettings = { imports: Object.fromEntries(entries), unstable: ['sloppy-imports'], nodeModulesDir: 'manual' }
  writeFileSync(denoConfig, JSON.stringify(denoSettings))
  const deno = [denoBinary, 'run', '--allow-all', '--config', denoConfig, self]
  // Each mount right after its baselines.
  const runtimes: Record<string, string[]> = {
    raw: tsx,
    'raw-reused-text': tsx,
    hono: tsx,
    fastify: tsx,
    node: tsx,
    'node-base': tsx,
    'express-plain': tsx,
    'express-mount': tsx,
    'bun-direct': [bun, self],
    'bun-mount': [bun, self],
    'deno-direct': deno,
    'deno-mount': deno,
  }
  // The machine is shared (2 cores, autocannon on one) and its speed drifts by tens of percent
  // over seconds: each round runs every kind once, a mount right after its baselines, and every
  // ratio is the median over rounds of the ratio within a round. Server CPU per request (from
  // /proc) is printed beside, as a second view that does not depend on how the client is scheduled.
  for (const kind of Object.keys(runtimes)) if (only !== undefined && !only.includes(kind)) delete runtimes[kind]
  // Peers written against another framework must do what the API does: each is checked against the
  // library's own handler (on the same seed) before every run.
  const reference = runtimes.fastify === undefined ? undefined : (await setup()).api
  const checks: Record<string, (origin: string) => Promise<void>> = {}
  if (reference !== undefined) checks.fastify = (origin) => checkParity('fastify', origin, reference)
  const runs: Record<string, Run[]> = {}
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
  const together = process.env.BENCH_TOGETHER === '1'
  const kinds = Object.entries(runtimes)
  for (let round = 1; round <= rounds; round++) {
    const measured = await measureRound(kinds, seconds, checks, together)
    for (const [i, [kind]] of kinds.entries()) {
      const run = measured[i]!
      ;(runs[kind] ??= []).push(run)
      // Together, the clients share this process: its load is theirs all.
      const client = `client ${Math.round(run.clientLoad * 100)}% of a core${together ? ' (all clients)' : ''}`
      console.log(`round ${round}  ${figures(kind, run.rps, run.cpuMicros)}  ${client}`)
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const rps: Record<string, number> = {}
  for (const [kind, list] of Object.entries(runs)) {
    rps[kind] = median(list.map((run) => run.rps))
    const cpu = list.every((run) => run.cpuMicros !== undefined) ? median(list.map((run) => run.cpuMicros!)) : undefined
    console.log(`median   ${figures(kind, rps[kind], cpu)}`)
  }
  const perRound = (mount: string, baseline: string) =>
    runs[mount] && runs[baseline] ? runs[mount].map((run, i) => run.rps / runs[baseline]![i]!.rps) : []
  const ratio = (mount: string, baseline: string) =>
    runs[mount] && runs[baseline] ? median(perRound(mount, baseline)) : Number.NaN
  const cpuRatio = (mount: string, baseline: string) =>
    runs[mount]?.every((run) => run.cpuMicros !== undefined) &&
    runs[baseline]?.every((run) => run.cpuMicros !== undefined)
      ? median(runs[mount].map((run, i) => runs[baseline]![i]!.cpuMicros! / run.cpuMicros!))
      : Number.NaN
  const ratios: Array<[string, string, string, number]> = [
    ['node mount / raw node:http', 'node', 'raw', 0.85],
    ['node mount / raw, reusing record text', 'node', 'raw-reused-text', 0],
    ['node mount / @hono/node-server', 'node', 'hono', 1.0],
    ['node mount / fastify', 'node', 'fastify', 1.3],
    ['node mount / node mount at BENCH_BASE', 'node', 'node-base', 0.95],
    ['express mount / plain express route', 'express-mount', 'express-plain', 0.9],
    ['bun mount / Bun.serve direct', 'bun-mount', 'bun-direct', 0.9],
    ['deno mount / Deno.serve direct', 'deno-mount', 'deno-direct', 0.9],
  ]
  for (const [name, mount, baseline, target] of ratios) {
    const value = ratio(mount, baseline)
    if (!Number.isFinite(value)) continue
    const verdict = target === 0 ? '' : `(target ≥ ${target.toFixed(2)}x) ${value >= target ? 'ok' : 'MISSED'}`
    const each = perRound(mount, baseline)
      .map((r) => r.toFixed(2))
      .join(' ')
    const byCpu = cpuRatio(mount, baseline).toFixed(2)
    console.log(`${name.padEnd(38)} ${value.toFixed(2)}x req/s [rounds: ${each}], ${byCpu}x by CPU/request  ${verdict}`)
  }
  return rps
}

const args = (globalThis as { Deno?: { args: string[] } }).Deno?.args ?? process.argv.slice(2)
const serveAt = args.indexOf('--serve')
if (serveAt !== -1) await serve(args[serveAt + 1]!, Number(args[serveAt + 2]))
else if (import.meta.url === `file://${process.argv[1]}`) await runHttpBench()
