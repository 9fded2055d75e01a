/**
 * Fan-out: each claimed endpoint's new events become jobs, one per event the endpoint is
 * subscribed to, and its position in the feed moves past them in the same write.
 */
import { type Event, eventPosition } from '../model/events.js'
import { endpointWantsEvent, webhookEndpoints } from '../model/webhook-endpoints.js'
import type { WebhookFanOutClaim } from '../ports/webhook-dispatch.js'
import type { DispatchContext } from './context.js'
import { type WebhookDispatchCounts, WebhookFeedGapError } from './options.js'

/** Events read per fan-out claim; an endpoint further behind is claimed again in the same pass. */
export const FAN_OUT_EVENTS = 500
/** Endpoints claimed for fan-out at a time. */
const FAN_OUT_CLAIMS = 10
/** Fan-out claims per pass at most; what is left waits for the next pass. */
const FAN_OUT_ROUNDS = 50

/**
 * The events of one claimed endpoint after its position (at most FAN_OUT_EVENTS, within the byte
 * budget), and the position they end at: an endpoint with more left is claimed again.
 */
async function newEvents(
  ctx: DispatchContext,
  claim: WebhookFanOutClaim,
): Promise<{ events: Event[]; position: number }> {
  const query = { order: 'asc', types: null, limit: FAN_OUT_EVENTS, maxBytes: ctx.maxBytes } as const
  let page = await ctx.store.listEvents(claim.tenantId, { ...query, after: claim.position })
  if (page.state === 'expired') {
    ctx.onError(new WebhookFeedGapError(claim.tenantId, claim.endpointId, claim.position))
    page = await ctx.store.listEvents(claim.tenantId, { ...query, after: null })
    if (page.state === 'expired') return { events: [], position: claim.position }
  }
  const last = page.events.at(-1)
  return {
    events: page.events,
    position: last === undefined ? Math.max(claim.position, page.lastPosition) : eventPosition(last.id)!,
  }
}

/** Fans out one claimed endpoint; the number of jobs made. */
async function fanOutOne(ctx: DispatchContext, claim: WebhookFanOutClaim): Promise<number> {
  const endpoint = await ctx.store.get(webhookEndpoints, claim.tenantId, claim.endpointId)
  const { events, position } = await newEvents(ctx, claim)
  // A disabled endpoint moves on without jobs: it gets nothing of what happened while disabled.
  const wanted = endpoint?.status === 'enabled' ? events.filter((e) => endpointWantsEvent(endpoint, e.type)) : []
  const at = ctx.now().getTime()
  const jobs = wanted.map((event) => ({
    id: crypto.randomUUID(),
    eventId: event.id,
    eventPosition: eventPosition(event.id)!,
    eventType: event.type,
    nextAttemptAt: at,
  }))
  return (await ctx.store.enqueueWebhookJobs(claim, ctx.owner, jobs, position)) ? jobs.length : 0
}

/** Fans out the endpoints with new events, claim by claim; adds the jobs made to `counts.enqueued`. */
export async function fanOut(ctx: DispatchContext, counts: WebhookDispatchCounts): Promise<void> {
  // Bounded, so that a feed written faster than it is fanned out never starves delivery.
  for (let round = 0; round < FAN_OUT_ROUNDS && !ctx.stopping; round++) {
    const claims = await ctx.store.claimWebhookFanOuts(ctx.owner, ctx.now(), ctx.leaseMs, FAN_OUT_CLAIMS)
    if (claims.length === 0) return
    for (const claim of claims) counts.enqueued += await fanOutOne(ctx, claim)
  }
}
