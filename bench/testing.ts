/**
 * `npm run bench testing` (or `node --import tsx --expose-gc bench/testing.ts`): what the testing kit
 * (`createTestApi()`, tenant-public-api/testing) costs, today beside `BENCH_BASE` (default 8508a48,
 * when the core still answered every caller on Node with a lightweight Response), both in one
 * process, in paired rounds whose first side alternates (bench/paired.ts):
 *
 * - `createTestApi()` with the demo data (10,000 tickets), per instance after the first of the
 *   process; the first one, which seeds the demo tenant, is timed once and printed apart;
 * - `GET /tickets?limit=25` (the default sort, 25 of 10,000) through the kit's `request`, read by
 *   `json()`; through its typed client (`listTickets`); and through the Fetch handler it returns
 *   (`api(new Request(...))`, read by `text()`), the path any in-process caller of a handler takes.
 *
 * Each figure is today's median per call, the base's, and the median of the per-round ratios
 * (today / base). Options: BENCH_BASE, BENCH_ROUNDS (default 25), BENCH_BATCH (requests per timed
 * batch, default 200), BENCH_INSTANCE_ROUNDS (default 7; the base seeds 10,000 tickets per instance).
 */
import type * as CurrentTesting from '../src/testing/index.js'
import { exportCommit, importFrom } from './exported-commit.js'
import { paired } from './paired.js'

const BASE = process.env.BENCH_BASE ?? '8508a48'
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25)
const BATCH = Number(process.env.BENCH_BATCH ?? 200)
const INSTANCE_ROUNDS = Number(process.env.BENCH_INSTANCE_ROUNDS ?? 7)

type Testing = Pick<typeof CurrentTesting, 'createTestApi'>

const current: Testing = await import('../src/testing/index.js')
const base = await importFrom<Testing>(exportCommit(BASE, 'base'), 'src/testing/index.ts')

const ms = (value: number) => `${value.toFixed(3)} ms`
const gc = () => globalThis.gc?.()

console.log(`createTestApi() with the demo data, today beside ${BASE}:`)
let started = performance.now()
await current.createTestApi()
console.log(`  today's first instance of the process (seeds the demo tenant once): ${ms(performance.now() - started)}`)
started = performance.now()
await base.createTestApi()
console.log(`  the base's first instance: ${ms(performance.now() - started)}`)
{
  const { a, b, ratio } = await paired(
    () => current.createTestApi(),
    () => base.createTestApi(),
    { rounds: INSTANCE_ROUNDS, batch: 1, warmUp: 1, beforeBatch: gc },
  )
  console.log(`  per instance after the first: ${ms(a)} vs ${ms(b)}: ${ratio.toFixed(3)}x`)
}

/** The three in-process paths of a kit, each answering GET /tickets?limit=25 and reading the answer. */
function paths(kit: CurrentTesting.TestApi) {
  const url = `http://tenant-public-api.test/api/public/v1/tickets?limit=25`
  const authorization = `Bearer ${kit.keys.all}`
  return {
    request: async () => {
      const response = await kit.request('/tickets?limit=25')
      if (response.status !== 200) throw new Error(`unexpected answer ${response.status}`)
      return response.json()
    },
    client: () => kit.client.listTickets({ limit: 25 }),
    handler: async () => {
      const response = await kit.api(new Request(url, { headers: { authorization } }))
      if (response.status !== 200) throw new Error(`unexpected answer ${response.status}`)
      return response.text()
    },
  }
}

// A limit no run reaches: the kit's default (10,000 a minute) would answer 429s within a run.
const unlimited = { rateLimit: { limit: 1e9, windowMs: 60_000 } }
const today = paths(await current.createTestApi(unlimited))
const before = paths((await base.createTestApi(unlimited)) as unknown as CurrentTesting.TestApi)
console.log(`\nGET /tickets?limit=25 in process, today beside ${BASE}, ${ROUNDS} rounds of ${BATCH}:`)
for (const [name, title] of [
  ['request', "the kit's request(), read by json()"],
  ['client', "the kit's client, listTickets({ limit: 25 })"],
  ['handler', 'the Fetch handler, api(new Request(...)), read by text()'],
] as const) {
  const { a, b, ratio } = await paired(today[name], before[name], { rounds: ROUNDS, batch: BATCH, beforeBatch: gc })
  console.log(`  ${title.padEnd(58)} ${ms(a)} vs ${ms(b)}: ${ratio.toFixed(2)}x`)
}
