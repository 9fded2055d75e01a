/**
 * `npm run bench stores` (or `npx tsx bench/stores.ts`): 1,000,000 tickets in one tenant plus a
 * second tenant of 10,000, on SQLite and on Postgres. Each case is timed through the handler and
 * beside it the raw SQL of the same page (the baseline), in the same run; figures are ratios.
 * Seeding runs in child processes, so the peak RSS measured here is that of serving only.
 *
 * Env: BENCH_TICKETS (default 1,000,000), DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
 * BENCH_ENGINES (default "sqlite,postgres"), BENCH_PART=cursors (only the cursor cases), BENCH_SCHEMA
 * (default bench_stores), BENCH_KEEP=1 (keep the seeded SQLite file, in the temporary folder's
 * tenant-api-bench/, and reuse it in the next run of the same size; otherwise it is removed).
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import pg from 'pg'
import { createPublicApi } from '../src/create-public-api.js'
import type { SeedData } from '../src/model/seed.js'
import type { Store } from '../src/ports/store.js'
import { tickets as ticketCollection } from '../src/model/tickets.js'
import { createPostgresStore } from '../src/stores/postgres/index.js'
import { createSqliteStore } from '../src/stores/sqlite/index.js'
import { testKey, testKeyResolver } from '../src/testing/keys.js'
import { memoryRateLimiter } from '../src/http/rate-limit.js'
import { createNodeRequest, type NodeIncoming, type NodeOutgoing } from '../adapters/node.js'
import { replyParts } from '../adapters/node-bridge/lightweight-response.js'
import { atInterrupt, dropSchemasAtExit, removeAtExit, removeRegistered, yieldToSignals } from './cleanup.js'
import { measureCursors } from './cursors.js'
import { timeInTurns } from './paired.js'

const TICKETS = Number(process.env.BENCH_TICKETS ?? 1_000_000)
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',')
/** `BENCH_PART=cursors` times only the cursor cases (bench/cursors.ts). */
const ONLY_CURSORS = process.env.BENCH_PART === 'cursors'
const BIG = 'bench-big'
const SMALL = 'bench-small'
/** `BENCH_SCHEMA`: several people benching against one Postgres server each need their own schema. */
const SCHEMA = process.env.BENCH_SCHEMA ?? 'bench_stores'
const WORDS = [
  'printer',
  'email',
  'vpn',
  'laptop',
  'server',
  'backup',
  'password',
  'network',
  'license',
  'monitor',
  'outlook',
  'firewall',
  'disk',
  'update',
  'access',
]
const STATUSES = ['New', 'Open', 'In Progress', 'Waiting', 'Resolved', 'Closed']
const PRIORITIES = ['Low', 'Medium', 'High', 'Critical']
/** One ticket in 20,000 has this word in its title: the rare search term. */
const RARE = 'zebraquartz'
/** The common search term: about a third of the titles. */
const COMMON = 'printer'

/** A deterministic pseudo-random generator, so every run seeds the same data. */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const companyId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

function tickets(from: number, to: number, prefix: string): NonNullable<SeedData['tickets']> {
  const out: NonNullable<SeedData['tickets']> = []
  const random = rng(from + prefix.length)
  const start = Date.parse('2022-01-01T00:00:00.000Z')
  for (let i = from; i < to; i++) {
    const words = [
      WORDS[Math.floor(random() * WORDS.length)]!,
      WORDS[Math.floor(random() * WORDS.length)]!,
      i % 3 === 0 ? COMMON : 'issue',
    ]
    if (i % 20_000 === 7) words.push(RARE)
    const created = start + Math.floor(random() * 3 * 365 * 86_400_000)
    const company = Math.floor(random() * 500)
    out.push({
      id: `${prefix}-${String(i).padStart(8, '0')}`,
      ticketNumber: `T${i}`,
      title: `${words.join(' ')} #${i}`,
      description: null,
      companyId: companyId(company),
      companyName: `Company ${String(company).padStart(3, '0')}`,
      status: STATUSES[Math.floor(random() * STATUSES.length)]!,
      isClosed: random() < 0.4,
      priority: PRIORITIES[Math.floor(random() * PRIORITIES.length)]!,
      assignedTo: random() < 0.1 ? null : `Tech ${Math.floor(random() * 60)}`,
      createdAt: new Date(created).toISOString(),
      updatedAt: random() < 0.2 ? null : new Date(created + Math.floor(random() * 30 * 86_400_000)).toISOString(),
      daysOpen: Math.floor(random() * 400),
      provider: (['psa_a', 'psa_b', 'psa_c', 'psa_d'] as const)[i % 4]!,
      externalId: String(i),
      source: 'sync',
    })
  }
  return out
}

/** Seeds one store with the bench data; returns seconds taken for the big tenant (`afterBig` runs right after it). */
async function seedStore(store: Store, afterBig: () => void = () => {}): Promise<number> {
  // The bench's own data is made before the clock starts: the figure is the store's load alone.
  const data = { tickets: tickets(0, TICKETS, 'big') }
  const started = performance.now()
  // A bulk load, as a host's first sync would run it: without the events feed (issue 11's figure
  // is this load against the 80.8 s it took before the feed existed).
  await store.seed(BIG, data, { events: false })
  const seconds = (performance.now() - started) / 1000
  afterBig()
  await store.seed(SMALL, { tickets: tickets(0, 10_000, 'small') }, { events: false })
  return seconds
}

// ----------------------------------------------------------------------------------------------

interface Case {
  name: string
  path: string
  /** The raw SQL of the same page (and, for searches, its count), run directly on the driver. */
  raw: { sqlite: string[]; postgres: string[] }
  target: number
}

const ORDER: Record<string, string> = ticketCollection.sorts

function cases(schema: string): Case[] {
  const q = (table: string) => ({ sqlite: `"${table}"`, postgres: `"${schema}"."${table}"` })
  const both = (make: (t: string) => string) => ({
    sqlite: [make(q('tickets').sqlite)],
    postgres: [make(q('tickets').postgres)],
  })
  const page =
    (where: string, order: string, offset = 0) =>
    (t: string) =>
      `SELECT doc FROM ${t} WHERE tenant_id = '${BIG}'${where} ORDER BY ${order} LIMIT 25 OFFSET ${offset}`
  const out: Case[] = [
    {
      name: 'first page (default sort, exact totalCount)',
      path: '/tickets',
      raw: both(page('', 'created_at DESC NULLS LAST, id ASC')),
      target: 4,
    },
  ]
  for (const [column, sqlColumn] of Object.entries(ORDER)) {
    if (column === 'created_date') continue
    out.push({
      name: `sortColumn=${column}`,
      path: `/tickets?sortColumn=${column}`,
      raw: both(page('', `${sqlColumn} DESC NULLS LAST, id ASC`)),
      target: 4,
    })
  }
  out.push({
    name: 'selective filter (companyId)',
    path: `/tickets?companyId=${companyId(42)}`,
    raw: both(page(` AND company_id = '${companyId(42)}'`, 'created_at DESC NULLS LAST, id ASC')),
    target: 4,
  })
  for (const [label, term] of [
    ['rare', RARE],
    ['common', COMMON],
  ] as const) {
    out.push({
      name: `search, ${label} term "${term}"`,
      path: `/tickets?search=${term}`,
      raw: {
        sqlite: [
          `SELECT count(*) FROM tickets WHERE tenant_id = '${BIG}' ` +
            `AND rowid IN (SELECT rowid FROM ticket_fts WHERE title_f MATCH '"${term}"')`,
          `SELECT doc FROM tickets WHERE tenant_id = '${BIG}' ` +
            `AND rowid IN (SELECT rowid FROM ticket_fts WHERE title_f MATCH '"${term}"') ` +
            'ORDER BY created_at DESC NULLS LAST, id ASC LIMIT 25',
        ],
        postgres: [
          `SELECT count(*) FROM ${q('tickets').postgres} WHERE tenant_id = '${BIG}' AND title_f LIKE '%${term}%'`,
          `SELECT doc FROM ${q('tickets').postgres} WHERE tenant_id = '${BIG}' AND title_f LIKE '%${term}%' ` +
            'ORDER BY created_at DESC NULLS LAST, id ASC LIMIT 25',
        ],
      },
      target: 1.5,
    })
  }
  const deep = 20_000
  if ((deep - 1) * 25 < TICKETS) {
    out.push({
      name: `page ${deep.toLocaleString('en')}`,
      path: `/tickets?page=${deep}`,
      raw: both(page('', 'created_at DESC NULLS LAST, id ASC', (deep - 1) * 25)),
      target: 1.5,
    })
  }
  return out
}

/**
 * Times every case in turns: the raw SQL; the Fetch handler (`api(new Request)`, then
 * `response.text()`, as a Fetch host calls it); the Node and Express mounts' path (the bridge's
 * lightweight request made from the server's request object, and the lightweight response whose
 * parts they write to the socket: no native `Request` or `Response`); and, for scale, a bare
 * Fetch handler: the raw SQL answered as the same body through a `Request` and a `Response`, with
 * no routing, authentication, rate limit or validation. That is the floor of any Fetch handler
 * serving this page on this runtime; the API's own work is the distance above it.
 */
async function measure(
  engine: 'sqlite' | 'postgres',
  store: Store,
  raw: (statements: string[]) => Promise<Array<{ doc: string }>>,
  schema: string,
): Promise<boolean> {
  const api = createPublicApi({ store, keyResolver: testKeyResolver(), rateLimiter: memoryRateLimiter({ limit: 1e9 }) })
  const headers = { authorization: `Bearer ${testKey(BIG)}` }
  const cursorsMet = await measureCursors(engine, api, headers, TICKETS)
  if (ONLY_CURSORS) return cursorsMet
  // What the Node mount's server hands it, as plain objects: the mount's own work starts from these.
  const nodeRequest = (path: string) =>
    ({
      method: 'GET',
      url: `/api/public/v1${path}`,
      headers: { host: 'bench', ...headers },
      rawHeaders: ['Host', 'bench', 'Authorization', headers.authorization],
      socket: {},
      complete: true,
      httpVersionMajor: 1,
    }) as unknown as NodeIncoming
  const outgoing = { on: () => outgoing, writableFinished: false } as unknown as NodeOutgoing
  let ok = true
  console.log(`\n${engine}: ${TICKETS.toLocaleString('en')} tickets in one tenant + 10,000 in another`)
  console.log(
    [
      'case'.padEnd(46),
      'raw SQL ms'.padStart(10),
      'handler ms'.padStart(10),
      'ratio'.padStart(6),
      'node ms'.padStart(8),
      'ratio'.padStart(6),
      'bare Fetch ms'.padStart(13),
      `${'ratio'.padStart(6)}  target`,
    ].join(' '),
  )
  // One untimed pass over the page cases first: early in the process (heap sizing, caches) the
  // first cases timed would otherwise run markedly slower than the same cases later.
  const warmUpUntil = performance.now() + 5_000
  while (performance.now() < warmUpUntil) {
    for (const c of cases(schema).filter((x) => !x.name.startsWith('search') && !x.name.startsWith('page '))) {
      await raw(c.raw[engine])
      await (await api(new Request(`http://bench/api/public/v1${c.path}`, { headers }))).text()
    }
    await yieldToSignals()
  }
  for (const c of cases(schema)) {
    const request = () => new Request(`http://bench/api/public/v1${c.path}`, { headers })
    const sample = await api(request())
    const body = await sample.text()
    const pagination = JSON.stringify((JSON.parse(body) as { pagination: unknown }).pagination)
    const replyHeaders = Object.fromEntries(sample.headers)
    const bare = async (incoming: Request): Promise<Response> => {
      // Reads what any handler must (the query and the key), then answers the page's rows.
      void new URL(incoming.url).searchParams
      void incoming.headers.get('authorization')
      const rows = await raw(c.raw[engine])
      return new Response(`{"data":[${rows.map((row) => row.doc).join(',')}],"pagination":${pagination}}`, {
        status: 200,
        headers: replyHeaders,
      })
    }
    // Batches of about 2 ms, and fewer rounds for cases that take milliseconds (searches, deep pages).
    const started = performance.now()
    await raw(c.raw[engine])
    const once = performance.now() - started
    const slow = once > 1
    const batch = slow ? 1 : Math.min(100, Math.max(1, Math.round(2 / once)))
    const timed = await timeInTurns(
      [
        () => raw(c.raw[engine]),
        async () => {
          const response = await api(request())
          if (response.status !== 200) throw new Error(`${c.path}: ${response.status} ${await response.text()}`)
          await response.text()
        },
        async () => {
          const result = replyParts(await api(createNodeRequest(nodeRequest(c.path), outgoing)))
          if (result === undefined || result.status !== 200) throw new Error(`${c.path}: ${result?.status}`)
          Buffer.byteLength(result.body!)
        },
        async () => {
          await (await bare(request())).text()
        },
      ],
      { rounds: slow ? 7 : 31, batch, warmUp: Math.max(3, batch * 4) },
    )
    const [rawMs, handlerMs, nodeMs, bareMs] = timed.medians
    const [ratio, nodeRatio, bareRatio] = [timed.ratio(1, 0), timed.ratio(2, 0), timed.ratio(3, 0)]
    const met = ratio <= c.target
    ok &&= met
    console.log(
      [
        c.name.padEnd(46),
        rawMs!.toFixed(3).padStart(10),
        handlerMs!.toFixed(3).padStart(10),
        ratio.toFixed(2).padStart(6),
        nodeMs!.toFixed(3).padStart(8),
        nodeRatio.toFixed(2).padStart(6),
        bareMs!.toFixed(3).padStart(13),
        `${bareRatio.toFixed(2).padStart(6)}  ≤ ${c.target}x`,
        met ? 'ok' : nodeRatio <= c.target ? 'node path only' : 'MISSED',
      ].join(' '),
    )
  }
  return ok && cursorsMet
}

// ----------------------------------------------------------------------------------------------

const self = fileURLToPath(import.meta.url)

/**
 * Seeds in a child process (so its heap does not count towards the serving RSS). A signal that stops
 * this run stops the child too (a Ctrl-C reaches both; a SIGTERM only this process); `partial`, what a
 * seed that did not finish leaves, is then removed, as on its failure.
 */
async function seedInChild(engine: string, where: string, partial: readonly string[] = []): Promise<void> {
  const child = spawn(process.execPath, ['--max-old-space-size=8000', '--import', 'tsx', self, 'seed', engine, where], {
    stdio: 'inherit',
  })
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal!)),
  )
  const removePartial = () => {
    for (const path of partial) rmSync(path, { force: true })
  }
  const forget = atInterrupt(async () => {
    child.kill('SIGTERM')
    await exited
    removePartial()
  })
  try {
    const end = await exited
    if (end !== 0) {
      removePartial()
      throw new Error(`seeding ${engine} failed (${end})`)
    }
  } finally {
    forget()
  }
  // Let the kernel write the freshly loaded gigabytes back now, not during the first timed cases.
  spawnSync('sync', { stdio: 'ignore' })
}

/**
 * Waits until the machine runs a fixed piece of work at a steady speed again (up to a minute): on a
 * virtual machine the host may still be busy with the load's writes well after `sync` returns, and
 * the cases timed first would pay for it.
 */
async function settle(): Promise<void> {
  const work = JSON.stringify(tickets(0, 200, 'settle'))
  const once = () => {
    const started = performance.now()
    for (let i = 0; i < 20; i++) JSON.parse(work)
    return performance.now() - started
  }
  let best = Number.POSITIVE_INFINITY
  let steady = 0
  const deadline = Date.now() + 60_000
  while (steady < 20 && Date.now() < deadline) {
    const time = once()
    best = Math.min(best, time)
    steady = time < best * 1.15 ? steady + 1 : 0
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** What a SQLite statement does, for the split of the load's time. */
const STATEMENT_KINDS: Array<[RegExp, string]> = [
  [/^CREATE INDEX/i, 'index builds'],
  [/^INSERT INTO "tickets"/i, 'ticket inserts'],
  [/^INSERT INTO ticket_fts/i, 'FTS5 rebuild'],
  [/^COMMIT/i, 'commit (WAL write and checkpoint)'],
]

/**
 * A better-sqlite3 handle that adds up the time its statements take, by kind, so that the load's
 * figure splits into SQLite's own work and the rest (validating the seed, building rows and JSON).
 */
function timedDatabase(file: string): { database: Database.Database; times: Map<string, number> } {
  const database = new Database(file)
  const times = new Map<string, number>()
  const prepare = database.prepare.bind(database)
  database.prepare = ((text: string) => {
    const statement = prepare(text) as unknown as Record<'run' | 'all' | 'get', (...args: unknown[]) => unknown>
    const kind = STATEMENT_KINDS.find(([pattern]) => pattern.test(text.trimStart()))?.[1] ?? 'other'
    for (const method of ['run', 'all', 'get'] as const) {
      const original = statement[method].bind(statement)
      statement[method] = (...args) => {
        const started = performance.now()
        try {
          return original(...args)
        } finally {
          times.set(kind, (times.get(kind) ?? 0) + performance.now() - started)
        }
      }
    }
    return statement
  }) as typeof database.prepare
  return { database, times }
}

async function seedMain(engine: string, where: string): Promise<void> {
  if (engine === 'sqlite') {
    const { database, times } = timedDatabase(where)
    const store = await createSqliteStore({ database })
    let split = ''
    const seconds = await seedStore(store, () => {
      const spent = [...times].sort((a, b) => b[1] - a[1])
      const total = spent.reduce((sum, [, ms]) => sum + ms, 0)
      const parts = spent.map(([kind, ms]) => `${kind} ${(ms / 1000).toFixed(1)} s`).join(', ')
      split = `; SQLite's own statements took ${(total / 1000).toFixed(1)} s of it (${parts})`
    })
    console.log(
      `sqlite: seeded ${TICKETS.toLocaleString('en')} tickets in ${seconds.toFixed(1)} s (target < 60 s)${split}`,
    )
    await store.close()
  } else {
    const admin = new pg.Client({ connectionString: DATABASE_URL })
    await admin.connect()
    await admin.query(`DROP SCHEMA IF EXISTS "${where}" CASCADE`)
    await admin.end()
    const store = await createPostgresStore({
      connectionString: DATABASE_URL,
      schema: where,
      statementTimeoutMs: 600_000,
    })
    const seconds = await seedStore(store)
    console.log(`postgres: seeded ${TICKETS.toLocaleString('en')} tickets in ${seconds.toFixed(1)} s`)
    await store.close()
    const analyze = new pg.Client({ connectionString: DATABASE_URL })
    await analyze.connect()
    await analyze.query(`ANALYZE "${where}"."tickets"`)
    await analyze.end()
  }
}

/**
 * Runs the stores benchmark and prints its table; resolves to true when every target is met.
 *
 * @example
 * await runStoresBench()
 */
export async function runStoresBench(): Promise<boolean> {
  let ok = true
  if (ENGINES.includes('sqlite')) {
    const dir = join(tmpdir(), 'tenant-api-bench')
    mkdirSync(dir, { recursive: true })
    const file = join(dir, `tickets-${TICKETS}.db`)
    const files = ['', '-wal', '-shm'].map((suffix) => `${file}${suffix}`)
    // Kept for the next run only with BENCH_KEEP=1; otherwise removed however the run ends, and the
    // folder too unless it holds a file an earlier run kept.
    if (process.env.BENCH_KEEP !== '1') for (const path of files) removeAtExit(path)
    removeAtExit(dir, { ifEmpty: true })
    if (!existsSync(file)) await seedInChild('sqlite', file, files)
    else console.log(`sqlite: reusing ${file}`)
    await settle()
    let peak = process.memoryUsage().rss
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
    const store = await createSqliteStore({ filename: file }, { migrate: false })
    const raw = new Database(file, { readonly: true })
    const prepared = new Map<string, Database.Statement>()
    ok =
      (await measure(
        'sqlite',
        store,
        async (statements) => {
          let rows: Array<{ doc: string }> = []
          for (const text of statements) {
            let statement = prepared.get(text)
            if (!statement) prepared.set(text, (statement = raw.prepare(text)))
            rows = statement.all() as Array<{ doc: string }>
          }
          return rows
        },
        '',
      )) && ok
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage().rss)
    console.log(
      `peak RSS while serving from the SQLite file: ${(peak / 1024 / 1024).toFixed(0)} MB ` +
        `(target < 300 MB) ${peak < 300 * 1024 * 1024 ? 'ok' : 'MISSED'}`,
    )
    ok &&= peak < 300 * 1024 * 1024
    raw.close()
    await store.close()
    if (process.env.BENCH_KEEP !== '1') removeRegistered()
  }
  if (ENGINES.includes('postgres')) {
    const dropSchema = dropSchemasAtExit(DATABASE_URL, [SCHEMA])
    try {
      await seedInChild('postgres', SCHEMA)
      await settle()
      const store = await createPostgresStore({ connectionString: DATABASE_URL, schema: SCHEMA }, { migrate: false })
      const client = new pg.Client({ connectionString: DATABASE_URL })
      await client.connect()
      const raw = async (statements: string[]) => {
        let rows: Array<{ doc: string }> = []
        for (const text of statements) rows = (await client.query<{ doc: string }>({ text, name: undefined })).rows
        return rows
      }
      try {
        ok = (await measure('postgres', store, raw, SCHEMA)) && ok
      } finally {
        await client.end()
        await store.close()
      }
    } finally {
      await dropSchema()
    }
  }
  return ok
}

if (process.argv[1] === self) {
  if (process.argv[2] === 'seed') await seedMain(process.argv[3]!, process.argv[4]!)
  else process.exitCode = (await runStoresBench()) ? 0 : 1
}
