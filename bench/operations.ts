/**
 * `npm run bench operations`: the API's reads and writes, each against the same request on an
 * earlier commit's handler, in the same process and in paired rounds, on every store. It is the
 * before/after of a change that reshapes the code under the operations (the store port, the
 * stores, the reply path): every ratio should sit within noise of 1.
 *
 * Each side seeds the demo tenant (its own `createDemoData`, the same seed) into a store of its own
 * (memory; a SQLite file; a Postgres schema) and answers through its own `createPublicApi`, called
 * through its own Node mount in process (bench/node-mount.ts: the bridge's request, the reply
 * written from its parts). That is the path both commits serve the same way: through the Fetch
 * handler the base answered a lightweight Response on Node and today's core a native one (a
 * deliberate change, src/http/reply.ts) whose cost grows with the body, which would hide the store
 * port's own effect. The Fetch handler's ratio (native `Request`, read by `text()`) is printed
 * beside it, for that change.
 * Options: BENCH_BASE (the commit measured against, default cea4f23: the last commit before the
 * generic store port), BENCH_STORES (default memory,sqlite,postgres), BENCH_ROUNDS (default 25),
 * BENCH_BATCH (calls per side per round, default 30), BENCH_FETCH=0 (no Fetch handler column),
 * DATABASE_URL.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as CurrentNode from '../adapters/node.js'
import type * as CurrentIndex from '../src/index.js'
import type * as CurrentPostgres from '../src/stores/postgres/index.js'
import type * as CurrentSqlite from '../src/stores/sqlite/index.js'
import type * as CurrentTesting from '../src/testing/index.js'
import type { Store } from '../src/ports/store.js'
import { dropSchemasAtExit, removeAtExit, uninterrupted } from './cleanup.js'
import { exportCommit, importFrom } from './exported-commit.js'
import { throughNodeMount } from './node-mount.js'
import { paired } from './paired.js'

const BASE = process.env.BENCH_BASE ?? 'cea4f23'
const STORES = (process.env.BENCH_STORES ?? 'memory,sqlite,postgres').split(',')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25)
const BATCH = Number(process.env.BENCH_BATCH ?? 30)
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const SCHEMA = 'bench_operations'
const TENANT = 'bench-operations'
/** A ratio above this is reported as a regression (paired medians on this machine move by ~10%). */
const NOISE = 1.15
/** BENCH_FETCH=0 skips the Fetch handler's column (half the run). */
const FETCH = process.env.BENCH_FETCH !== '0'

/** One copy of the library: the current sources, or a commit's. */
interface Lib {
  index: typeof CurrentIndex
  testing: typeof CurrentTesting
  sqlite: typeof CurrentSqlite
  postgres: typeof CurrentPostgres
  node: typeof CurrentNode
}

async function load(dir: string): Promise<Lib> {
  const [index, testing, sqlite, postgres, node] = await Promise.all([
    importFrom<Lib['index']>(dir, 'src/index.ts'),
    importFrom<Lib['testing']>(dir, 'src/testing/index.ts'),
    importFrom<Lib['sqlite']>(dir, 'src/stores/sqlite/index.ts'),
    importFrom<Lib['postgres']>(dir, 'src/stores/postgres/index.ts'),
    importFrom<Lib['node']>(dir, 'adapters/node.ts'),
  ])
  return { index, testing, sqlite, postgres, node }
}

async function openStore(lib: Lib, kind: string, side: string, dir: string): Promise<Store> {
  if (kind === 'memory') return lib.index.createMemoryStore() as Store
  if (kind === 'sqlite') return lib.sqlite.createSqliteStore({ filename: join(dir, `${side}.db`) })
  // Its migrations create the schema: a signal meanwhile waits for them, then drops it (bench/cleanup.ts).
  const schema = `${SCHEMA}_${side}`
  return uninterrupted(() => lib.postgres.createPostgresStore({ connectionString: DATABASE_URL, schema }))
}

type Call = () => Promise<unknown>
/** Each request twice: through the Node mount in process, and through the Fetch handler. */
type Calls = { mount: Call; fetch: Call }

/** The measured requests over `lib`'s handler on `store`, seeded with its demo tenant. */
async function requests(lib: Lib, store: Store): Promise<Array<[string, Calls]>> {
  const demo = lib.testing.createDemoData({ tickets: 2_000 })
  await store.seed(TENANT, demo as never)
  const api = lib.index.createPublicApi({
    store,
    keyResolver: lib.testing.testKeyResolver(),
    rateLimiter: lib.index.memoryRateLimiter({ limit: 1e9 }),
  })
  const headers = { authorization: `Bearer ${lib.testing.testKey(TENANT)}`, 'content-type': 'application/json' }
  let viaMount = true
  const call = async (method: string, path: string, expected: number, body?: unknown) => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    if (viaMount) {
      const target = `/api/public/v1${path}`
      const answer = await throughNodeMount(lib.node, api, { method, target, headers, body: text })
      if (answer.status !== expected) throw new Error(`${method} ${path}: ${answer.status} ${answer.text()}`)
      return answer
    }
    const response = await api(new Request(`http://bench/api/public/v1${path}`, { method, headers, body: text }))
    const read = await response.text()
    if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${read}`)
    return read
  }
  const first = (await call('GET', '/tickets?limit=25', 200)) as { text(): string }
  const cursor = (JSON.parse(first.text()) as { pagination: { nextCursor: string } }).pagination.nextCursor
  const ticket = demo.tickets[0]!
  let n = 0
  const get =
    (path: string): Call =>
    () =>
      call('GET', path, 200)
  const list: Array<[string, Call]> = [
    ['GET /tickets', get('/tickets')],
    [
      'GET /tickets sorted and filtered',
      get('/tickets?sortColumn=priority_name&sortDesc=false&isClosed=false&limit=50'),
    ],
    ['GET /tickets search', get('/tickets?search=printer')],
    ['GET /tickets by cursor', get(`/tickets?limit=25&cursor=${cursor}`)],
    ['GET /tickets/{id} with notes', get(`/tickets/${ticket.id}?includeNotes=true`)],
    ['GET /tickets/{number}', get(`/tickets/${encodeURIComponent(ticket.ticketNumber)}`)],
    ['GET /users', get('/users')],
    ['GET /companies sorted', get('/companies?sortBy=name&sortOrder=desc')],
    ['GET /calendar/types', get('/calendar/types')],
    ['GET /report-templates', get('/report-templates')],
    [
      'GET /report-templates/{id} with structure',
      get(`/report-templates/${demo.reportTemplates[0]!.id}?includeStructure=true`),
    ],
    ['GET /compliance/templates', get('/compliance/templates')],
    ['GET /compliance/templates/{id}', get(`/compliance/templates/${demo.complianceTemplates[0]!.id}`)],
    ['GET /compliance/checks/{id}', get(`/compliance/checks/${demo.complianceChecks[0]!.id}`)],
    ['GET /training/enrollments', get('/training/enrollments')],
    ['GET /training/courses/{id}', get(`/training/courses/${demo.trainingCourses[0]!.id}`)],
    ['GET /goals/{id}', get(`/goals/${demo.goals[0]!.id}`)],
    ['GET /surveys/nps/{id}', get(`/surveys/nps/${demo.npsSurveys[0]!.id}`)],
    ['GET /planner/types/{id}', get(`/planner/types/${demo.plannerItemTypes[0]!.id}`)],
    ['GET /events', get('/events?limit=100')],
    [
      'PATCH /budgets/{id}',
      () => call('PATCH', `/budgets/${demo.budgets[0]!.id}`, 200, { title: `Budget ${n++ % 7}` }),
    ],
    [
      'POST /budgets/{id}/items',
      () =>
        call('POST', `/budgets/${demo.budgets[1]!.id}/items`, 201, {
          type: 'Software',
          description: 'Licence',
          unitPrice: 12.5,
        }),
    ],
    [
      'PATCH /automation/{id}',
      () => call('PATCH', `/automation/${demo.automationRules[0]!.id}`, 200, { priority: (n++ % 90) + 1 }),
    ],
    [
      'PATCH /reports/{id}',
      () => call('PATCH', `/reports/${demo.reports[0]!.id}`, 200, { title: `Report ${n++ % 7}` }),
    ],
  ]
  const on = (mount: boolean, fn: Call) => () => {
    viaMount = mount
    return fn()
  }
  return list.map(([name, fn]) => [name, { mount: on(true, fn), fetch: on(false, fn) }])
}

/**
 * Paired rounds after a warm-up of one batch; a collection left over from the other side's batch
 * would be charged to this one, so each batch starts after a full collection.
 */
const timing = { rounds: ROUNDS, batch: BATCH, warmUp: BATCH, beforeBatch: () => globalThis.gc?.() }

const geometricMean = (ratios: number[]) => Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length)

/** Every request through the Node mount, then (unless BENCH_FETCH=0) through the Fetch handler. */
async function benchStore(kind: string, current: Lib, base: Lib, dir: string): Promise<number[]> {
  const now = await openStore(current, kind, 'current', dir)
  const before = await openStore(base, kind, 'base', dir)
  try {
    const [mine, theirs] = [await requests(current, now), await requests(base, before)]
    console.log(`\n${kind}: through the Node mount, current · ${BASE} (ms per request) · ratio · Fetch handler's ratio`)
    const ratios: number[] = []
    const fetchRatios: number[] = []
    for (const [i, [name, calls]] of mine.entries()) {
      const { a, b, ratio } = await paired(calls.mount, theirs[i]![1].mount, timing)
      ratios.push(ratio)
      let viaFetch = ''
      if (FETCH) {
        const fetched = await paired(calls.fetch, theirs[i]![1].fetch, timing)
        fetchRatios.push(fetched.ratio)
        viaFetch = ` · ${fetched.ratio.toFixed(2)}x`
      }
      const mark = ratio > NOISE ? ' ✗' : ''
      console.log(`  ${name.padEnd(44)} ${a.toFixed(3)} · ${b.toFixed(3)} · ${ratio.toFixed(2)}x${mark}${viaFetch}`)
    }
    const fetchMean = FETCH ? `; through the Fetch handler ${geometricMean(fetchRatios).toFixed(2)}x` : ''
    console.log(`  geometric mean of the ${ratios.length} ratios: ${geometricMean(ratios).toFixed(2)}x${fetchMean}`)
    return ratios
  } finally {
    await now.close()
    await before.close()
  }
}

const dir = removeAtExit(mkdtempSync(join(tmpdir(), 'bench-operations-')))
const dropSchemas = STORES.includes('postgres')
  ? dropSchemasAtExit(DATABASE_URL, [`${SCHEMA}_current`, `${SCHEMA}_base`])
  : async () => {}
let regressions = 0
try {
  const current = await load(join(import.meta.dirname, '..'))
  const base = await load(exportCommit(BASE, 'baseline', ['src', 'adapters']))
  for (const kind of STORES)
    regressions += (await benchStore(kind, current, base, dir)).filter((ratio) => ratio > NOISE).length
} finally {
  await dropSchemas()
}
console.log(`\n${regressions} ratio(s) above ${NOISE}x`)
if (regressions > 0) process.exitCode = 1
