/**
 * `npm run bench events` (or `npx tsx bench/events.ts`): the events feed on SQLite (a file) and on
 * the Postgres server, each case paired in turns in the same run (medians, and the median of the
 * per-round ratios):
 *
 * - a page of 100 events from the middle of a feed of BENCH_EVENTS events (default 100,000; the
 *   tenant's tickets, each seeded with its event), against the first ticket page (the baseline,
 *   target <= 2x);
 * - the API's writes that record an event in the same transaction (POST a budget line item, PATCH
 *   an automation rule) against the same writes on the branch point's store (BENCH_BASE, default
 *   9915d86, exported from git), which has no feed: a store option that turns the feed off does
 *   not exist (only a seed can skip its events), so the code before the feed is the baseline
 *   (target <= 1.3x);
 * - a seed of BENCH_LOAD tickets (default 20,000) into an empty tenant with `events: true`, with
 *   `events: false`, and on the branch point's store (what change detection and events add to a
 *   sync, and what a bulk load with `events: false` costs against the code before the feed).
 *
 * Env: BENCH_EVENTS, BENCH_LOAD, BENCH_ENGINES (default "sqlite,postgres"), DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test), BENCH_SCHEMA (prefix of the Postgres schemas, default
 * bench_events), BENCH_BASE, BENCH_ROUNDS and BENCH_BATCH (the paired cases' rounds and calls per
 * batch, default 25 and 20).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as CurrentIndex from '../src/index.js'
import type * as CurrentPostgres from '../src/stores/postgres/index.js'
import type * as CurrentSqlite from '../src/stores/sqlite/index.js'
import type * as CurrentTesting from '../src/testing/index.js'
import type { SeedData } from '../src/model/seed.js'
import type { Store } from '../src/ports/store.js'
import { dropSchemasAtExit, removeAtExit, uninterrupted } from './cleanup.js'
import { exportCommit, importFrom } from './exported-commit.js'
import { paired } from './paired.js'

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000)
const LOAD = Number(process.env.BENCH_LOAD ?? 20_000)
/** The feed's tickets are seeded this many at a time. */
const SEED_CHUNK = 100_000
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',')
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const SCHEMA = process.env.BENCH_SCHEMA ?? 'bench_events'
const TENANT = 'bench-events'
/** The paired cases' rounds and calls per timed batch (bench/paired.ts). */
const TIMING = { rounds: Number(process.env.BENCH_ROUNDS ?? 25), batch: Number(process.env.BENCH_BATCH ?? 20) }

/** One copy of the library: the current sources, or a commit's. */
interface Lib {
  index: typeof CurrentIndex
  testing: typeof CurrentTesting
  sqlite: typeof CurrentSqlite
  postgres: typeof CurrentPostgres
}

async function load(dir: string): Promise<Lib> {
  const [index, testing, sqlite, postgres] = await Promise.all([
    importFrom<Lib['index']>(dir, 'src/index.ts'),
    importFrom<Lib['testing']>(dir, 'src/testing/index.ts'),
    importFrom<Lib['sqlite']>(dir, 'src/stores/sqlite/index.ts'),
    importFrom<Lib['postgres']>(dir, 'src/stores/postgres/index.ts'),
  ])
  return { index, testing, sqlite, postgres }
}

/** `count` tickets numbered from `from`. */
function tickets(count: number, prefix: string, from = 0): NonNullable<SeedData['tickets']> {
  const start = Date.parse('2024-01-01T00:00:00.000Z')
  return Array.from({ length: count }, (_, j) => from + j).map((i) => ({
    id: `${prefix}-${String(i).padStart(8, '0')}`,
    ticketNumber: `T-${i}`,
    title: `Printer issue ${i}`,
    status: 'Open',
    priority: 'Low',
    isClosed: false,
    provider: 'psa_a' as const,
    createdAt: new Date(start + i * 60_000).toISOString(),
  }))
}

const median = (list: number[]) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)]!
const ms = (value: number) => `${value.toFixed(3)} ms`

/** A store of `lib` on `engine`, named `name` (a SQLite file in `dir`, or a Postgres schema). */
async function openStore(lib: Lib, engine: string, name: string, dir: string): Promise<Store> {
  if (engine === 'sqlite') return lib.sqlite.createSqliteStore({ filename: join(dir, `${name}.db`) })
  // Its migrations create the schema: a signal meanwhile waits for them, then drops it (bench/cleanup.ts).
  const schema = `${SCHEMA}_${name}`
  return uninterrupted(() => lib.postgres.createPostgresStore({ connectionString: DATABASE_URL, schema }))
}

/** The handler over `store`, authenticating `testKey(tenant)` with every scope. */
function apiOf(lib: Lib, store: Store, tenant: string) {
  const api = lib.index.createPublicApi({
    store,
    keyResolver: lib.testing.testKeyResolver(),
    rateLimiter: lib.index.memoryRateLimiter({ limit: 1e9 }),
  })
  const headers = { authorization: `Bearer ${lib.testing.testKey(tenant)}`, 'content-type': 'application/json' }
  return async (method: string, path: string, expected: number, body?: unknown) => {
    const init = { method, headers, body: body === undefined ? null : JSON.stringify(body) }
    const response = await api(new Request(`http://bench/api/public/v1${path}`, init))
    const text = await response.text()
    if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${text}`)
    return text
  }
}

/** The two writes, on demo data seeded into `store` by `lib`'s own demo generator. */
async function writes(lib: Lib, store: Store, tenant: string) {
  const demo = lib.testing.createDemoData({ tickets: 10 })
  await store.seed(tenant, demo as never)
  const call = apiOf(lib, store, tenant)
  const budget = demo.budgets[0]!.id
  const rule = demo.automationRules[0]!.id
  let n = 0
  return {
    addItem: () =>
      call('POST', `/budgets/${budget}/items`, 201, {
        type: 'Software',
        description: `Licence ${n++}`,
        unitPrice: 12.5,
      }),
    patchRule: () => call('PATCH', `/automation/${rule}`, 200, { priority: (n++ % 90) + 1 }),
  }
}

async function benchEngine(engine: string, current: Lib, base: Lib, dir: string): Promise<boolean> {
  console.log(`\n${engine}`)
  const store = await openStore(current, engine, 'current', dir)
  const baseStore = await openStore(base, engine, 'base', dir)
  try {
    let started = performance.now()
    // In seeds of at most SEED_CHUNK tickets, as a host syncs, so that the feed's size is the only
    // thing that grows with BENCH_EVENTS (a seed's transaction holds all it writes).
    for (let from = 0; from < EVENTS; from += SEED_CHUNK)
      await store.seed(TENANT, { tickets: tickets(Math.min(SEED_CHUNK, EVENTS - from), 'tk', from) })
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const seeds = Math.ceil(EVENTS / SEED_CHUNK)
    console.log(`  seeded ${EVENTS.toLocaleString('en')} tickets with their events in ${seeds} seeds, ${seconds} s`)
    const call = apiOf(current, store, TENANT)
    const middle = `evt_${String(Math.floor(EVENTS / 2)).padStart(12, '0')}`
    const pages = await paired(
      () => call('GET', `/events?limit=100&after=${middle}`, 200),
      () => call('GET', '/tickets', 200),
      TIMING,
    )
    const [eventsMs, ticketMs, pageRatio] = [pages.a, pages.b, pages.ratio]
    console.log(
      `  events page of 100 (after the middle of ${EVENTS.toLocaleString('en')}): ${ms(eventsMs)}; ` +
        `first ticket page: ${ms(ticketMs)}; ${pageRatio.toFixed(2)}x (target <= 2x)`,
    )

    const now = await writes(current, store, 'writes')
    const before = await writes(base, baseStore, 'writes')
    let writesMet = true
    for (const [name, label] of [
      ['addItem', 'POST line item'],
      ['patchRule', 'PATCH rule'],
    ] as const) {
      const { a: withMs, b: withoutMs, ratio } = await paired(now[name], before[name], TIMING)
      writesMet &&= ratio <= 1.3
      console.log(
        `  ${label}: with its event ${ms(withMs)}; the branch point's (no feed) ${ms(withoutMs)}; ` +
          `${ratio.toFixed(2)}x (target <= 1.3x)`,
      )
    }

    const rows = tickets(LOAD, 'load')
    const loads: Record<'events' | 'noEvents' | 'base', number[]> = { events: [], noEvents: [], base: [] }
    for (let round = 0; round < 3; round++) {
      const runs: Array<[keyof typeof loads, () => Promise<void>]> = [
        ['noEvents', () => store.seed(`load-${round}-off`, { tickets: rows }, { events: false })],
        ['events', () => store.seed(`load-${round}-on`, { tickets: rows }, { events: true })],
        ['base', () => baseStore.seed(`load-${round}`, { tickets: rows })],
      ]
      for (const [side, run] of runs) {
        started = performance.now()
        await run()
        loads[side].push(performance.now() - started)
      }
    }
    const [on, off, old] = [median(loads.events), median(loads.noEvents), median(loads.base)]
    console.log(
      `  seed of ${LOAD.toLocaleString('en')} tickets: events: true ${on.toFixed(0)} ms, events: false ` +
        `${off.toFixed(0)} ms, the branch point's ${old.toFixed(0)} ms; events ${(on / off).toFixed(2)}x no events; ` +
        `no events ${(off / old).toFixed(2)}x the branch point`,
    )
    return pageRatio <= 2 && writesMet
  } finally {
    await store.close()
    await baseStore.close()
  }
}

const dir = removeAtExit(mkdtempSync(join(tmpdir(), 'bench-events-')))
const dropSchemas = ENGINES.includes('postgres')
  ? dropSchemasAtExit(DATABASE_URL, [`${SCHEMA}_current`, `${SCHEMA}_base`])
  : async () => {}
let ok = true
try {
  const current: Lib = await load(join(import.meta.dirname, '..'))
  const base = await load(exportCommit(process.env.BENCH_BASE ?? '9915d86', 'baseline'))
  for (const engine of ENGINES) ok = (await benchEngine(engine, current, base, dir)) && ok
} finally {
  rmSync(dir, { recursive: true, force: true })
  await dropSchemas()
}
if (!ok) process.exitCode = 1
