/**
 * A process that finishes webhook job batches for test/webhooks/finish-deadlock.test.ts: opens a
 * store on a shared Postgres schema, says `ready` over IPC, then for each `{ iteration, finished }`
 * it is sent runs `finishWebhookJobs` as `owner` and answers with how many jobs it held (for each
 * `{ iteration, deletes }`, deletes those endpoints one by one), or the error; on `stop` it closes
 * the store and prints one JSON line.
 * Run with `node --import tsx test/webhooks/finish-worker.ts <json-args>`.
 */
import type { FinishedWebhookJob } from '../../src/ports/webhook-dispatch.js'
import { openWorkerStore, type WorkerTarget } from '../support/worker-process.js'

interface Args {
  target: WorkerTarget
  owner: string
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args
const store = await openWorkerStore(args.target, 2)
let batches = 0
type Message =
  | 'stop'
  | { iteration: number; finished: FinishedWebhookJob[] }
  | { iteration: number; deletes: { tenantId: string; ids: string[] } }
process.on('message', async (message: Message) => {
  if (message === 'stop') {
    await store.close()
    process.stdout.write(`${JSON.stringify({ pid: process.pid, batches })}\n`)
    process.disconnect()
    return
  }
  const { iteration } = message
  try {
    if ('deletes' in message) {
      // One endpoint after another, each its own transaction, as API requests would.
      for (const id of message.deletes.ids) await store.deleteWebhookEndpoint(message.deletes.tenantId, id)
      process.send?.({ iteration, held: 0 })
      return
    }
    const results = await store.finishWebhookJobs(args.owner, message.finished)
    batches += 1
    process.send?.({ iteration, held: results.filter((result) => result.held).length })
  } catch (error) {
    process.send?.({ iteration, error: String(error) })
  }
})
process.send?.('ready')
