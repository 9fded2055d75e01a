/**
 * A child process for the multi-process tests: opens a store on a shared SQLite file or Postgres
 * schema, serves one handler, and runs `count` requests of one kind. Prints one JSON line of the
 * statuses it saw. Run with `node --import tsx test/stores/worker.ts <json-args>`.
 */
import { createPublicApi } from '../../src/create-public-api.js'
import { sqlRateLimiter } from '../../src/stores/postgres/index.js'
import { openWorkerStore, type WorkerTarget } from '../support/worker-process.js'
import { testKey, testKeyResolver } from '../../src/testing/keys.js'

interface Args {
  target: WorkerTarget
  job: 'patch-rule' | 'rate-limited'
  tenantId: string
  ruleId?: string
  count: number
  limit?: number
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args
const store = await openWorkerStore(args.target)
const rateLimiter =
  args.job === 'rate-limited'
    ? sqlRateLimiter(store, { limit: args.limit ?? 10, windowMs: 60_000 })
    : sqlRateLimiter(store, { limit: 1_000_000 })
const api = createPublicApi({ store, keyResolver: testKeyResolver(), rateLimiter })
const headers = { authorization: `Bearer ${testKey(args.tenantId)}`, 'content-type': 'application/json' }

const statuses: number[] = []
await Promise.all(
  Array.from({ length: args.count }, async (_, i) => {
    const response =
      args.job === 'patch-rule'
        ? await api(
            new Request(`http://x/api/public/v1/automation/${args.ruleId}`, {
              method: 'PATCH',
              headers,
              body: JSON.stringify({ description: `pid ${process.pid} #${i}` }),
            }),
          )
        : await api(new Request('http://x/api/public/v1/calendar/types', { headers }))
    statuses.push(response.status)
  }),
)
await store.close()
process.stdout.write(`${JSON.stringify({ statuses })}\n`)
