/**
 * Recording finished attempts: each is a job's end (its delivery record, or its drop) written by
 * the store in one transaction with the others finished meanwhile (docs/webhooks.md).
 */
import type { Store } from '../ports/store.js'
import type { FinishedWebhookJob, WebhookJob, WebhookJobFinish, WebhookJobOutcome } from '../ports/webhook-dispatch.js'

/** Records one finished job; resolves with what the store made of it. */
export type RecordAttempt = (job: WebhookJob, outcome: WebhookJobOutcome) => Promise<WebhookJobFinish>

/**
 * A {@link RecordAttempt} over `store` for the claims of `owner`. Attempts that finish while a batch
 * is being recorded wait and go in the next batch, one transaction for all of them: the busier the
 * dispatcher, the larger the batches; an idle one records each attempt at once.
 */
export function createAttemptRecorder(store: Store, owner: string): RecordAttempt {
  /** Finished attempts waiting to be recorded, while a batch of them is being recorded. */
  const unrecorded: {
    finished: FinishedWebhookJob
    resolve: (finish: WebhookJobFinish) => void
    reject: (error: unknown) => void
  }[] = []
  let recording = false

  async function recordAll(): Promise<void> {
    while (unrecorded.length > 0) {
      const batch = unrecorded.splice(0, unrecorded.length)
      try {
        const results = await store.finishWebhookJobs(
          owner,
          batch.map((entry) => entry.finished),
        )
        for (const [i, entry] of batch.entries()) entry.resolve(results[i] ?? { held: false })
      } catch (error) {
        for (const entry of batch) entry.reject(error)
      }
    }
    recording = false
  }

  return (job, outcome) =>
    new Promise<WebhookJobFinish>((resolve, reject) => {
      unrecorded.push({ finished: { job, outcome }, resolve, reject })
      // After the current I/O phase: the answers that arrived with this one join its batch (on
      // SQLite a batch is recorded without leaving the microtask queue, so none would join it later).
      if (!recording) {
        recording = true
        setImmediate(() => void recordAll())
      }
    })
}
