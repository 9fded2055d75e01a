/**
 * Delivery of due jobs: claiming them in batches, reading each batch's endpoints and events once,
 * and running its jobs with at most `concurrency` in flight.
 */
import { type Event, eventPosition } from '../model/events.js'
import { type WebhookEndpointRecord, webhookEndpoints } from '../model/webhook-endpoints.js'
import type { WebhookJob } from '../ports/webhook-dispatch.js'
import { deliver } from './attempts.js'
import type { DispatchContext } from './context.js'
import { FAN_OUT_EVENTS } from './fan-out.js'
import type { WebhookDispatchCounts } from './options.js'

/** How long an endpoint read for delivery serves later deliveries of the same pass. */
const ENDPOINT_CACHE_MS = 1_000

/**
 * The events `jobs` deliver, by tenant and id (pruned ones missing): one page per tenant when its
 * positions are close together (a claimed batch mostly is), else one read per job. The tenants'
 * pages share the byte budget, and keep only the events of `jobs`; the jobs a page did not reach
 * (it stopped at its budget) are read one by one.
 */
async function eventsOf(ctx: DispatchContext, jobs: readonly WebhookJob[]): Promise<Map<string, Event>> {
  const found = new Map<string, Event>()
  const byTenant = new Map<string, Set<number>>()
  for (const job of jobs) {
    const positions = byTenant.get(job.tenantId) ?? new Set<number>()
    byTenant.set(job.tenantId, positions.add(job.eventPosition))
  }
  const share = Math.max(1, Math.floor(ctx.maxBytes / byTenant.size))
  /**
   * Reads events from position `first`, at most `count` within `budget`, keeping those of `wanted`: the
   * last position read, or null when `first` was pruned.
   */
  const read = async (tenantId: string, wanted: Set<number>, first: number, count: number, budget: number) => {
    const query = { after: first - 1, order: 'asc', types: null, limit: count, maxBytes: budget } as const
    const page = await ctx.store.listEvents(tenantId, query)
    if (page.state !== 'ok') return null
    for (const event of page.events)
      if (wanted.has(eventPosition(event.id)!)) found.set(`${tenantId}\u0000${event.id}`, event)
    const last = page.events.at(-1)
    return last === undefined ? first + count - 1 : eventPosition(last.id)!
  }
  const each = (tenantId: string, positions: Set<number>) =>
    Promise.all([...positions].map((position) => read(tenantId, positions, position, 1, 1)))
  await Promise.all(
    [...byTenant].map(async ([tenantId, positions]) => {
      const low = Math.min(...positions)
      const span = Math.max(...positions) - low + 1
      // A range whose start was pruned is read job by job: the later events may still be kept.
      const reached = span > FAN_OUT_EVENTS ? null : await read(tenantId, positions, low, span, share)
      const left = reached === null ? positions : new Set([...positions].filter((position) => position > reached))
      if (left.size > 0) await each(tenantId, left)
    }),
  )
  return found
}

/** The endpoints and events of a claimed batch, by tenant and id (endpoints from the pass's cache). */
async function loadBatch(ctx: DispatchContext, jobs: readonly WebhookJob[]) {
  const keys = new Map(jobs.map((job) => [`${job.tenantId}\u0000${job.endpointId}`, job]))
  const fresh = performance.now() - ENDPOINT_CACHE_MS
  const [found, events] = await Promise.all([
    Promise.all(
      [...keys].map(async ([key, job]) => {
        const cached = ctx.endpointCache.get(key)
        if (cached !== undefined && cached.readAt >= fresh) return [key, cached.endpoint] as const
        const readAt = performance.now()
        const endpoint = await ctx.store.get(webhookEndpoints, job.tenantId, job.endpointId)
        ctx.endpointCache.set(key, { endpoint, readAt })
        return [key, endpoint] as const
      }),
    ),
    eventsOf(ctx, jobs),
  ])
  const endpoints = new Map<string, WebhookEndpointRecord>()
  for (const [key, endpoint] of found) if (endpoint !== null) endpoints.set(key, endpoint)
  return { endpoints, events }
}

/**
 * Claims and delivers due jobs, at most `concurrency` in flight, until none is due. Claims wait
 * for half the slots to be free (or none in flight): one claim, one endpoint read and one events
 * read serve a batch, not each job.
 */
export async function deliverDue(ctx: DispatchContext, counts: WebhookDispatchCounts): Promise<void> {
  const { store, owner, leaseMs, concurrency } = ctx
  const inFlight = new Set<Promise<void>>()
  let failure: unknown
  for (;;) {
    const free = concurrency - inFlight.size
    const claiming = !ctx.stopping && failure === undefined && (inFlight.size === 0 || free >= concurrency / 2)
    const claimedAt = ctx.now().getTime()
    const claimed = claiming
      ? await store.claimWebhookJobs(owner, new Date(claimedAt), leaseMs, free).catch((error: unknown) => {
          failure = error
          return []
        })
      : []
    if (claimed.length > 0) {
      const batch = loadBatch(ctx, claimed)
      for (const job of claimed) {
        const running: Promise<void> = batch
          .then(({ endpoints, events }) =>
            deliver(
              ctx,
              job,
              endpoints.get(`${job.tenantId}\u0000${job.endpointId}`) ?? null,
              events.get(`${job.tenantId}\u0000${job.eventId}`) ?? null,
              claimedAt,
              counts,
            ),
          )
          .catch(ctx.onError)
          .finally(() => inFlight.delete(running))
        inFlight.add(running)
      }
    }
    if (inFlight.size === 0) break
    if (!claiming || claimed.length === 0 || inFlight.size >= concurrency / 2) await Promise.race(inFlight)
  }
  if (failure !== undefined) throw failure
}
