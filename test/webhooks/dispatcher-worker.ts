/**
 * A dispatcher process for the multi-process tests (and the bench): opens a store on a shared
 * SQLite file or Postgres schema, starts a webhook dispatcher, says `ready` over IPC, and on
 * `stop` stops it (waiting for deliveries in flight), closes the store and prints one JSON line:
 * the deliveries it recorded as succeeded, and what reached `onError`.
 * Run with `node --import tsx test/webhooks/dispatcher-worker.ts <json-args>`.
 */
import { openWorkerStore, type WorkerTarget } from '../support/worker-process.js'
import { createWebhookDispatcher } from '../../src/webhooks/index.js'

interface Args {
  target: WorkerTarget
  leaseMs: number
  timeoutMs: number
  concurrency: number
  pollIntervalMs?: number
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args
const store = await openWorkerStore(args.target, args.concurrency + 2)
const errors: string[] = []
// Counts this process's recorded successes (the receiver cannot tell processes apart).
let delivered = 0
const counted: typeof store = {
  ...store,
  async finishWebhookJobs(owner, finished) {
    const results = await store.finishWebhookJobs(owner, finished)
    finished.forEach(({ outcome }, i) => {
      if (results[i]?.held && outcome.kind === 'attempted' && outcome.delivery.status === 'succeeded') delivered += 1
    })
    return results
  },
}
const dispatcher = createWebhookDispatcher({
  store: counted,
  allowInsecureUrls: true,
  leaseMs: args.leaseMs,
  timeoutMs: args.timeoutMs,
  concurrency: args.concurrency,
  pollIntervalMs: args.pollIntervalMs ?? 20,
  onError: (error) => errors.push(String(error)),
})
dispatcher.start()
process.send?.('ready')
process.on('message', async (message) => {
  if (message !== 'stop') return
  await dispatcher.stop()
  await store.close()
  process.stdout.write(`${JSON.stringify({ pid: process.pid, delivered, errors })}\n`)
  process.disconnect()
})
