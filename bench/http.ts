/**
 * The `http` part of the bench: GET /tickets (25 per page, 10,000 tickets, memory store) over
 * loopback with autocannon, each server in its own process (so that no server's globals or JIT
 * state leak into another's), our mounts beside their baselines:
 *
 *   node mount     vs  raw node:http computing the same page (≥ 0.85x) and @hono/node-server (≥ 1.0x)
 *   express mount  vs  a plain Express route doing the same work (≥ 0.9x)
 *   bun mount      vs  Bun.serve calling the API directly (≥ 0.9x)
 *   deno mount     vs  Deno.serve calling the API directly (≥ 0.9x)
 *
 * Run: `npx tsx bench/http.ts` (needs `npm run build` for Bun and Deno, and scripts/install-runtimes.sh).
 * `BENCH_SECONDS` sets each run's length (default 8), `BENCH_ROUNDS` the runs per server (default 2, best kept).
 */
import { execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createMemoryStore, createPublicApi, memoryRateLimiter, pagination, type PublicApiHandler, type SeedData } from 'tenant-public-api'
import { createDemoData } from 'tenant-public-api/testing'

const TENANT = 'bench'
const TOKEN = `test:${TENANT}:*`
const PATH = '/api/public/v1/tickets?limit=25'
const root = fileURLToPath(new URL('..', import.meta.url))

/** The 10,000 demo tickets (createDemoData's default), under the bench tenant. */
function benchSeed(): SeedData {
  return { tickets: createDemoData({ tickets: 10_000 }).tickets }
}

/** The API the mounts serve, and the same page computed without it (for the baselines). */
async function setup(): Promise<{ api: PublicApiHandler; page: () => Promise<string> }> {
  const store = createMemoryStore()
  await store.seed(TENANT, benchSeed())
  const keyResolver = (token: string) => (token === TOKEN ? { tenantId: TENANT, keyId: 'bench', scopes: ['tickets.read'], actor: { id: 'u', name: 'Bench' } } : null)
  const api = createPublicApi({ store, keyResolver, rateLimiter: memoryRateLimiter({ limit: 1e12, windowMs: 60_000 }) })
  const query = { page: 1, limit: 25, sortColumn: 'created_date', sortDesc: true } as Parameters<typeof store.listTickets>[1]
  const page = async () => {
    const result = await store.listTickets(TENANT, query)
    return JSON.stringify({ data: result.items, pagination: pagination(1, 25, result.totalCount) })
  }
  return { api, page }
}

const rawHeaders = (body: string) => ({
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(Buffer.byteLength(body)),
  'x-request-id': crypto.randomUUID(),
  'cache-control': 'no-store',
})

/** Starts one server in this process (the child side of the bench). */
async function serve(kind: string, port: number): Promise<void> {
  const { api, page } = await setup()
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
      const { stringifyReply } = await import('../src/stores/frozen-records.js')
      const store = createMemoryStore()
      await store.seed(TENANT, benchSeed())
      const query = { page: 1, limit: 25, sortColumn: 'created_date', sortDesc: true } as Parameters<typeof store.listTickets>[1]
      createServer((req, res) => {
        if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end()
        void store.listTickets(TENANT, query).then((result) => {
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

/** Requests per second of one server kind, served by `command`. */
async function measure(kind: string, command: string[], seconds: number): Promise<number> {
  const port = await freePort()
  const child = spawn(command[0]!, [...command.slice(1), '--serve', kind, String(port)], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' } })
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
    const { default: autocannon } = await import('autocannon')
    const run = (duration: number) => autocannon({ url, connections: 32, duration, headers: { authorization: `Bearer ${TOKEN}` } })
    await run(2) // warm-up: JIT and caches
    const result = await run(seconds)
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`)
    return result.requests.average
  } finally {
    child.kill('SIGTERM')
  }
}

/** Runs every server, prints requests per second and the ratios against their targets. */
export async function runHttpBench(seconds = Number(process.env.BENCH_SECONDS ?? 8)): Promise<Record<string, number>> {
  const tsx = [`${root}node_modules/.bin/tsx`, fileURLToPath(import.meta.url)]
  const [bun, deno] = execFileSync(`${root}scripts/install-runtimes.sh`, { encoding: 'utf8' }).trim().split('\n') as [string, string]
  const self = fileURLToPath(import.meta.url)
  const runtimes: Record<string, string[]> = {
    raw: tsx, 'raw-reused-text': tsx, node: tsx, hono: tsx, 'express-mount': tsx, 'express-plain': tsx,
    'bun-mount': [bun, self], 'bun-direct': [bun, self],
    'deno-mount': [deno, 'run', '--allow-all', '--config', `${root}examples/deno/deno.json`, self],
    'deno-direct': [deno, 'run', '--allow-all', '--config', `${root}examples/deno/deno.json`, self],
  }
  // The machine is shared (2 cores, autocannon on one): each kind runs `rounds` times, interleaved
  // with the others, and keeps its best run, so that a burst of outside load hurts no one kind.
  const only = process.env.BENCH_SERVERS?.split(',')
  for (const kind of Object.keys(runtimes)) if (only !== undefined && !only.includes(kind)) delete runtimes[kind]
  const rps: Record<string, number> = {}
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
  for (let round = 1; round <= rounds; round++) {
    for (const [kind, command] of Object.entries(runtimes)) {
      const value = await measure(kind, command, seconds)
      rps[kind] = Math.max(rps[kind] ?? 0, value)
      console.log(`round ${round}  ${kind.padEnd(14)} ${Math.round(value).toString().padStart(7)} req/s`)
    }
  }
  for (const [kind, value] of Object.entries(rps)) console.log(`best     ${kind.padEnd(14)} ${Math.round(value).toString().padStart(7)} req/s`)
  const ratios: Array<[string, number, number]> = [
    ['node mount / raw node:http', rps.node! / rps.raw!, 0.85],
    ['node mount / raw, reusing record text', rps.node! / rps['raw-reused-text']!, 0],
    ['node mount / @hono/node-server', rps.node! / rps.hono!, 1.0],
    ['express mount / plain express route', rps['express-mount']! / rps['express-plain']!, 0.9],
    ['bun mount / Bun.serve direct', rps['bun-mount']! / rps['bun-direct']!, 0.9],
    ['deno mount / Deno.serve direct', rps['deno-mount']! / rps['deno-direct']!, 0.9],
  ]
  for (const [name, ratio, target] of ratios) if (Number.isFinite(ratio)) console.log(`${name.padEnd(38)} ${ratio.toFixed(2)}x  (target ≥ ${target.toFixed(2)}x) ${ratio >= target ? 'ok' : 'MISSED'}`)
  return rps
}

const args = (globalThis as { Deno?: { args: string[] } }).Deno?.args ?? process.argv.slice(2)
const serveAt = args.indexOf('--serve')
if (serveAt !== -1) await serve(args[serveAt + 1]!, Number(args[serveAt + 2]))
else if (import.meta.url === `file://${process.argv[1]}`) await runHttpBench()
