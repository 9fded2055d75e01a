/**
 * `npm run bench events` (or `npx tsx bench/events.ts`): the events feed on SQLite (a file). A
 * tenant with BENCH_EVENTS tickets (default 100,000), each seeded with its event, so its feed
 * holds as many events. Measured through the handler, paired in turns in the same run:
 *
 * - a page of 100 events from the middle of the feed, against the first ticket page (the
 *   baseline, target <= 2x);
 * - a seed of BENCH_LOAD tickets (default 20,000) into an empty tenant with `events: true`
 *   against the same load with `events: false` (what change detection and events add to a sync).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicApi } from '../src/create-public-api.js'
import { memoryRateLimiter } from '../src/http/rate-limit.js'
import type { SeedData } from '../src/stores/seed.js'
import { createSqliteStore } from '../src/stores/sqlite/index.js'
import { testKey, testKeyResolver } from '../src/testing/keys.js'

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000)
const LOAD = Number(process.env.BENCH_LOAD ?? 20_000)
const TENANT = 'bench-events'

function tickets(count: number, prefix: string): NonNullable<SeedData['tickets']> {
  const start = Date.parse('2024-01-01T00:00:00.000Z')
  return Array.from({ length: count }, (_, i) => ({
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

/** Per-call medians of each function, in turns after a warm-up (see bench/stores.ts). */
async function pairedMedians(rounds: number, batch: number, fns: Array<() => Promise<unknown>>): Promise<number[]> {
  for (let i = 0; i < batch * 2; i++) for (const fn of fns) await fn()
  const times = fns.map((): number[] => [])
  for (let round = 0; round < rounds; round++)
    for (const [side, fn] of fns.entries()) {
      const started = performance.now()
      for (let i = 0; i < batch; i++) await fn()
      times[side]!.push((performance.now() - started) / batch)
    }
  return times.map((list) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)]!)
}

const dir = mkdtempSync(join(tmpdir(), 'bench-events-'))
try {
  const store = await createSqliteStore({ filename: join(dir, 'events.db') })
  let started = performance.now()
  await store.seed(TENANT, { tickets: tickets(EVENTS, 'tk') })
  console.log(
    `seeded ${EVENTS.toLocaleString('en')} tickets with their events in ${(performance.now() - started).toFixed(0)} ms`,
  )
  const api = createPublicApi({ store, keyResolver: testKeyResolver(), rateLimiter: memoryRateLimiter({ limit: 1e9 }) })
  const headers = { authorization: `Bearer ${testKey(TENANT)}` }
  const get = async (path: string) => {
    const response = await api(new Request(`http://bench/api/public/v1${path}`, { headers }))
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
    return response.text()
  }
  const middle = `evt_${String(Math.floor(EVENTS / 2)).padStart(12, '0')}`
  const [ticketMs, eventsMs] = await pairedMedians(15, 20, [
    () => get('/tickets'),
    () => get(`/events?limit=100&after=${middle}`),
  ])
  const pageRatio = eventsMs! / ticketMs!
  console.log(
    `events page of 100 (after the middle of ${EVENTS.toLocaleString('en')}): ${eventsMs!.toFixed(3)} ms; ` +
      `first ticket page: ${ticketMs!.toFixed(3)} ms; ratio ${pageRatio.toFixed(2)} (target <= 2)`,
  )

  const load = tickets(LOAD, 'load')
  const loads = { true: [] as number[], false: [] as number[] }
  for (let round = 0; round < 3; round++)
    for (const events of [false, true]) {
      const tenant = `load-${round}-${events}`
      started = performance.now()
      await store.seed(tenant, { tickets: load }, { events })
      loads[`${events}`].push(performance.now() - started)
    }
  const median = (list: number[]) => list.sort((x, y) => x - y)[1]!
  const [withMs, withoutMs] = [median(loads.true), median(loads.false)]
  console.log(
    `seed of ${LOAD.toLocaleString('en')} tickets: events:false ${withoutMs.toFixed(0)} ms, ` +
      `events:true ${withMs.toFixed(0)} ms; ratio ${(withMs / withoutMs).toFixed(2)}`,
  )
  await store.close()
  if (pageRatio > 2) process.exitCode = 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
