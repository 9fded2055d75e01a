/**
 * A child process for the events multi-process test: opens a store on a shared SQLite file or
 * Postgres schema and serves its own handler. `write` creates `count` rules at once and prints the
 * ids of those acknowledged (201); `tail` follows `GET /events?after=` until it has seen `expect`
 * rule events (or 30 s pass) and prints every event id and rule id it saw, in order.
 * Run with `node --import tsx test/stores/events-worker.ts <json-args>`.
 */
import { createPublicApi } from '../../src/create-public-api.js'
import { sqlRateLimiter } from '../../src/stores/postgres/index.js'
import { openWorkerStore, type WorkerTarget } from '../support/worker-process.js'
import { testKey, testKeyResolver } from '../../src/testing/keys.js'

interface Args {
  target: WorkerTarget
  job: 'write' | 'tail'
  tenantId: string
  count: number
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args
const store = await openWorkerStore(args.target)
const api = createPublicApi({
  store,
  keyResolver: testKeyResolver(),
  rateLimiter: sqlRateLimiter(store, { limit: 1_000_000 }),
})
const headers = { authorization: `Bearer ${testKey(args.tenantId)}`, 'content-type': 'application/json' }
const base = 'http://x/api/public/v1'

const result: { acknowledged: string[]; statuses: number[]; seen: { id: string; rule: string }[] } = {
  acknowledged: [],
  statuses: [],
  seen: [],
}
if (args.job === 'write') {
  await Promise.all(
    Array.from({ length: args.count }, async (_, i) => {
      const body = {
        name: `pid ${process.pid} #${i}`,
        triggerType: 'scheduled',
        triggerConfig: {},
        entityType: 'ticket',
        conditions: [],
        actions: [],
      }
      const response = await api(
        new Request(`${base}/automation`, { method: 'POST', headers, body: JSON.stringify(body) }),
      )
      result.statuses.push(response.status)
      if (response.status === 201)
        result.acknowledged.push(((await response.json()) as { data: { id: string } }).data.id)
    }),
  )
} else {
  const until = Date.now() + 30_000
  let after: string | null = null
  while (result.seen.length < args.count && Date.now() < until) {
    const query = `limit=100&types=automation_rule.created${after === null ? '' : `&after=${after}`}`
    const response = await api(new Request(`${base}/events?${query}`, { headers }))
    result.statuses.push(response.status)
    const page = (await response.json()) as { data: { id: string; resource: { id: string } }[] }
    for (const event of page.data ?? []) {
      result.seen.push({ id: event.id, rule: event.resource.id })
      after = event.id
    }
    if ((page.data ?? []).length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
await store.close()
process.stdout.write(`${JSON.stringify(result)}\n`)
