/**
 * A child process for the large-events memory test: opens the store on a shared SQLite file or
 * Postgres schema and, after a garbage collection, notes its RSS; then either walks the tenant's feed
 * through `GET /events?limit=100` to its end, reading every body (`pages`), or runs a webhook
 * dispatcher until `count` deliveries succeeded (`dispatch`). Prints the baseline and the peak RSS.
 * Run with `node --expose-gc --import tsx test/stores/large-events-worker.ts <json-args>`.
 */
import { createPublicApi } from '../../src/create-public-api.js'
import { memoryRateLimiter } from '../../src/http/rate-limit.js'
import { testKey, testKeyResolver } from '../../src/testing/keys.js'
import { createWebhookDispatcher } from '../../src/webhooks/index.js'
import { openWorkerStore, type WorkerTarget } from '../support/worker-process.js'

interface Args {
  target: WorkerTarget
  job: 'pages' | 'dispatch'
  tenantId: string
  count: number
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args
const store = await openWorkerStore(args.target)
const rateLimiter = memoryRateLimiter({ limit: 1_000_000, windowMs: 60_000 })
const api = createPublicApi({ store, keyResolver: testKeyResolver(), rateLimiter })
const headers = { authorization: `Bearer ${testKey(args.tenantId)}` }
const page = (query: string) => api(new Request(`http://x/api/public/v1/events?${query}`, { headers }))
// Code and connections warmed up, garbage collected: what follows is what the job holds.
await (await page('limit=1&order=desc')).text()
;(globalThis as { gc?: () => void }).gc?.()
const baseline = process.memoryUsage().rss
let done = 0
if (args.job === 'pages') {
  let after = ''
  for (;;) {
    const response = await page(`limit=100${after}`)
    if (response.status !== 200) throw new Error(`GET /events answered ${response.status}`)
    const body = JSON.parse(await response.text()) as { data: { id: string }[]; pagination: { nextCursor: string } }
    if (body.data.length === 0) break
    done += body.data.length
    after = `&after=${body.pagination.nextCursor}`
  }
} else {
  const dispatcher = createWebhookDispatcher({ store, allowInsecureUrls: true, onError: (e) => console.error(e) })
  for (let pass = 0; done < args.count && pass < 1_000; pass++) done += (await dispatcher.runOnce()).delivered
  await dispatcher.stop()
}
const peak = process.resourceUsage().maxRSS * 1024
await store.close()
console.log(JSON.stringify({ baseline, peak, done }))
