/**
 * One claimed job to its recorded end: the attempt (or the drop, when its endpoint no longer wants
 * it), its delivery record and next attempt on the retry schedule, and disabling an endpoint that
 * has failed for too long.
 */
import type { Event } from '../model/events.js'
import {
  endpointWantsEvent,
  signingSecrets,
  type WebhookEndpointRecord,
  webhookEndpoints,
} from '../model/webhook-endpoints.js'
import type { WebhookJob, WebhookJobOutcome } from '../ports/webhook-dispatch.js'
import type { WebhookDeliveryRecord } from '../ports/webhook-store.js'
import type { DispatchContext } from './context.js'
import { FAILING_ENDPOINT_DISABLE_MS, type WebhookDispatchCounts } from './options.js'
import { webhookHeaders } from './signing.js'
import { postWebhook, type WebhookAttemptResult } from './url-safety.js'

/** Disables the endpoint as failing, unless it changed (or was re-enabled) since `failingSince`. */
async function disableIfFailing(
  ctx: DispatchContext,
  tenantId: string,
  endpointId: string,
  failingSince: string,
  at: Date,
): Promise<void> {
  const cutoff = new Date(at.getTime() - FAILING_ENDPOINT_DISABLE_MS).toISOString()
  for (let round = 0; round < 10; round++) {
    const current = await ctx.store.get(webhookEndpoints, tenantId, endpointId)
    // A change to the endpoint (a new URL, re-enabling it) starts its count of failing days again.
    const since = current === null || current.updatedAt < failingSince ? failingSince : current.updatedAt
    if (current === null || current.status !== 'enabled' || since > cutoff) return
    const next: WebhookEndpointRecord = {
      ...current,
      status: 'disabled',
      disabledReason: 'failing',
      updatedAt: at.toISOString(),
      version: current.version + 1,
    }
    if (await ctx.store.replaceVersioned(webhookEndpoints, tenantId, next, current.version)) {
      ctx.endpointCache.delete(`${tenantId}\u0000${endpointId}`)
      return
    }
  }
}

/** One attempt of `job` to `endpoint`: what to record and when to try again. */
async function attempt(
  ctx: DispatchContext,
  job: WebhookJob,
  endpoint: WebhookEndpointRecord,
  event: Event | null,
): Promise<WebhookJobOutcome> {
  const started = ctx.now()
  let result: Pick<WebhookAttemptResult, 'responseStatus' | 'error' | 'durationMs'>
  if (event === null) {
    // Pruned (kept 30 days by default, far beyond the schedule): no retry can deliver it.
    result = { responseStatus: null, error: 'The event is no longer in the feed', durationMs: 0 }
  } else {
    const body = JSON.stringify(event)
    const secrets = signingSecrets(endpoint, started)
    const headers = webhookHeaders({ id: event.id, body, secrets, timestamp: started })
    result = await postWebhook(endpoint.url, body, headers, {
      allowInsecureUrls: ctx.allowInsecureUrls,
      resolver: ctx.resolver,
      timeoutMs: ctx.timeoutMs,
      pool: ctx.pool,
    })
  }
  const succeeded = result.error === null
  const wait = succeeded || event === null ? undefined : ctx.schedule[job.attempt - 1]
  const nextAttemptAt = wait === undefined ? null : ctx.now().getTime() + wait
  const delivery: WebhookDeliveryRecord = {
    id: crypto.randomUUID(),
    endpointId: job.endpointId,
    eventId: job.eventId,
    eventType: job.eventType,
    attempt: job.attempt,
    status: succeeded ? 'succeeded' : nextAttemptAt === null ? 'failed' : 'pending',
    responseStatus: result.responseStatus,
    durationMs: result.durationMs,
    error: result.error,
    createdAt: started.toISOString(),
    nextAttemptAt: nextAttemptAt === null ? null : new Date(nextAttemptAt).toISOString(),
  }
  return { kind: 'attempted', delivery, nextAttemptAt }
}

/** Runs one claimed job to its recorded end, and counts it in `counts`. */
export async function deliver(
  ctx: DispatchContext,
  job: WebhookJob,
  endpoint: WebhookEndpointRecord | null,
  event: Event | null,
  claimedAt: number,
  counts: WebhookDispatchCounts,
): Promise<void> {
  // An attempt must end within its lease, or another process could take the job over mid-attempt:
  // one that can no longer is left to its lease (a store slower than the lease's margin).
  if (ctx.now().getTime() + ctx.timeoutMs >= claimedAt + ctx.leaseMs) return
  const wanted = endpoint?.status === 'enabled' && endpointWantsEvent(endpoint, job.eventType)
  const outcome = wanted ? await attempt(ctx, job, endpoint, event) : ({ kind: 'dropped' } as const)
  const finish = await ctx.record(job, outcome)
  if (!finish.held) return
  if (outcome.kind === 'dropped') {
    counts.dropped += 1
    return
  }
  const { status, createdAt } = outcome.delivery
  if (status === 'succeeded') counts.delivered += 1
  else if (status === 'pending') counts.retrying += 1
  else counts.failed += 1
  if (status !== 'succeeded' && finish.failingSince !== null)
    await disableIfFailing(ctx, job.tenantId, job.endpointId, finish.failingSince, new Date(createdAt))
}
