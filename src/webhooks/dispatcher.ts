/**
 * The webhook dispatcher (docs/webhooks.md): fans each tenant's events out to its endpoints as
 * jobs, delivers due jobs with `postWebhook` (url-safety.ts), records every attempt, retries on
 * the schedule and disables endpoints that keep failing. All its state is in the store, shared by
 * every dispatcher on the same database through claims with leases, so any number of processes
 * can run one; delivery is at least once.
 *
 * This file is the loop (start, stop, runOnce) over one pass: fan-out.ts, then batches.ts (claims,
 * with attempts.ts per job and recorder.ts for their records); context.ts is the state they share.
 */
import { deliverDue } from './batches.js'
import { createDispatchContext, type DispatchContext } from './context.js'
import { fanOut } from './fan-out.js'
import type { WebhookDispatchCounts, WebhookDispatcherOptions } from './options.js'

/**
 * A running (or runnable) dispatcher.
 *
 * @example
 * const dispatcher = createWebhookDispatcher({ store }); dispatcher.start(); ...; await dispatcher.stop()
 */
export interface WebhookDispatcher {
  /** Runs passes in the background until {@link stop}; pauses `pollIntervalMs` after an idle pass. */
  start(): void
  /**
   * Stops claiming and resolves once the deliveries in flight have been recorded; then closes the
   * connections kept for later deliveries.
   */
  stop(): Promise<void>
  /** One full pass: fans out every new event, then delivers every due attempt (for tests and cron). */
  runOnce(): Promise<WebhookDispatchCounts>
}

/** One pass: fan-out first, then delivery, with the endpoint cache emptied. */
async function pass(ctx: DispatchContext): Promise<WebhookDispatchCounts> {
  const counts: WebhookDispatchCounts = { enqueued: 0, delivered: 0, retrying: 0, failed: 0, dropped: 0 }
  ctx.endpointCache.clear()
  await fanOut(ctx, counts)
  await deliverDue(ctx, counts)
  return counts
}

/**
 * Creates a webhook dispatcher over `options.store` (docs/webhooks.md).
 *
 * @example
 * import { createWebhookDispatcher } from 'tenant-public-api/webhooks'
 * const dispatcher = createWebhookDispatcher({ store, concurrency: 20 })
 * dispatcher.start()
 * process.on('SIGTERM', () => dispatcher.stop().then(() => store.close()))
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const ctx = createDispatchContext(options)
  let loop: Promise<void> | undefined
  let wake: (() => void) | undefined

  return {
    start() {
      if (loop !== undefined) return
      ctx.stopping = false
      loop = (async () => {
        while (!ctx.stopping) {
          let idle = true
          try {
            const counts = await pass(ctx)
            idle = Object.values(counts).every((n) => n === 0)
          } catch (error) {
            ctx.onError(error)
          }
          if (idle && !ctx.stopping)
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, ctx.pollIntervalMs)
              wake = () => {
                clearTimeout(timer)
                resolve()
              }
            })
        }
      })()
    },
    async stop() {
      ctx.stopping = true
      wake?.()
      await loop
      loop = undefined
      ctx.pool.close()
    },
    async runOnce() {
      if (loop === undefined) ctx.stopping = false
      return pass(ctx)
    },
  }
}
