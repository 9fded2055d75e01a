/**
 * The webhook dispatcher (docs/webhooks.md): fans each tenant's events out to its endpoints as
 * jobs, delivers due jobs with {@link postWebhook}, records every attempt, retries on the
 * schedule and disables endpoints that keep failing. All its state is in the store, shared by
 * every dispatcher on the same database through claims with leases, so any number of processes
 * can run one; delivery is at least once.
 */
import { hostname } from 'node:os'
import { type Event, eventPosition } from '../model/events.js'
import { endpointWantsEvent, signingSecrets, type WebhookEndpointRecord } from '../model/webhook-endpoints.js'
import type { Store } from '../ports/store.js'
import type {
  FinishedWebhookJob,
  WebhookFanOutClaim,
  WebhookJob,
  WebhookJobFinish,
  WebhookJobOutcome,
} from '../ports/webhook-dispatch.js'
import type { WebhookDeliveryRecord } from '../ports/webhook-store.js'
import { webhookHeaders } from './signing.js'
import {
  createWebhookConnectionPool,
  postWebhook,
  type WebhookAttemptResult,
  type WebhookResolver,
} from './url-safety.js'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/**
 * The default retry schedule: the wait after each failed attempt (5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 10 h); after the last, the delivery is `failed`.
 *
 * @example
 * createWebhookDispatcher({ store, retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS.slice(0, 3) })
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = Object.freeze([
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
])

/**
 * An endpoint whose deliveries have all failed this long (since its last success, or since it
 * was last changed) is disabled with `disabledReason: "failing"`: 5 days.
 *
 * @example
 * failingSince <= now - FAILING_ENDPOINT_DISABLE_MS
 */
export const FAILING_ENDPOINT_DISABLE_MS = 5 * 24 * HOUR

/** Events read per fan-out claim; an endpoint further behind is claimed again in the same pass. */
const FAN_OUT_EVENTS = 500
/** Endpoints claimed for fan-out at a time. */
const FAN_OUT_CLAIMS = 10
/** Fan-out claims per pass at most; what is left waits for the next pass. */
const FAN_OUT_ROUNDS = 50
/** How long an endpoint read for delivery serves later deliveries of the same pass. */
const ENDPOINT_CACHE_MS = 1_000

/**
 * The default byte budget of one read of the feed by the dispatcher: 4 MiB of event JSON.
 *
 * @example
 * createWebhookDispatcher({ store, maxEventsReadBytes: DEFAULT_EVENTS_READ_BYTES / 4 })
 */
export const DEFAULT_EVENTS_READ_BYTES = 4 * 1024 * 1024

/** Options of {@link createWebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  /** Any store: memory (one process), SQLite or Postgres (several processes on one database). */
  store: Store
  /** Allow `http` and private addresses: development and tests only. Default false. */
  allowInsecureUrls?: boolean
  /** The longest one attempt may take, answer included. Default 10,000. */
  timeoutMs?: number
  /**
   * The wait after each failed attempt; its length is the number of retries.
   * Default {@link DEFAULT_RETRY_SCHEDULE_MS}.
   */
  retryScheduleMs?: readonly number[]
  /** Deliveries in flight at once in this process. Default 10. */
  concurrency?: number
  /**
   * The byte budget of each read of the feed (fan-out, and the events of a claimed batch): a read
   * stops before its events' JSON passes it, holding one event at least. The events a process holds
   * are then about this plus `concurrency` events being delivered, whatever their size. Default
   * {@link DEFAULT_EVENTS_READ_BYTES} (4 MiB).
   */
  maxEventsReadBytes?: number
  /**
   * How long a claim holds a job or an endpoint's fan-out; another process takes it over after.
   * Must exceed `timeoutMs`. Default `timeoutMs + 30,000`.
   */
  leaseMs?: number
  /** The pause of `start()`'s loop after a pass that found nothing to do. Default 1,000. */
  pollIntervalMs?: number
  /** The clock of schedules, leases and signatures. Default `() => new Date()` (tests move it). */
  now?: () => Date
  /** Resolves host names at each delivery. Default the system resolver (tests pass their own). */
  resolver?: WebhookResolver
  /**
   * Sees what went wrong without stopping the dispatcher: a store that failed (the pass stops; the
   * claims it held are taken over after their lease), a {@link WebhookFeedGapError}. Default
   * `console.error`.
   */
  onError?: (error: unknown) => void
}

/**
 * What one pass did.
 *
 * @example
 * const { enqueued, delivered, retrying, failed, dropped } = await dispatcher.runOnce()
 */
export interface WebhookDispatchCounts {
  /** Jobs made by fan-out: one per new event and enabled endpoint subscribed to its type. */
  enqueued: number
  /** Attempts answered with a 2xx. */
  delivered: number
  /** Attempts that failed and were scheduled again (recorded `pending`). */
  retrying: number
  /** Attempts that failed with no retry left (recorded `failed`). */
  failed: number
  /** Jobs dropped unattempted: their endpoint is disabled or no longer subscribed to the type. */
  dropped: number
}

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

/**
 * Reported to `onError` when an endpoint's position in the feed was pruned before it was fanned
 * out (the dispatcher was stopped longer than the store keeps events): those events are skipped,
 * and the endpoint carries on from the oldest event kept.
 *
 * @example
 * onError: (error) => { if (error instanceof WebhookFeedGapError) alert(error.message) }
 */
export class WebhookFeedGapError extends Error {
  constructor(
    readonly tenantId: string,
    readonly endpointId: string,
    readonly position: number,
  ) {
    super(`Events after position ${position} of tenant ${tenantId} were pruned before endpoint ${endpointId} got them`)
    this.name = 'WebhookFeedGapError'
  }
}

function checkOptions(options: WebhookDispatcherOptions): void {
  if (typeof options?.store?.claimWebhookJobs !== 'function')
    throw new TypeError('createWebhookDispatcher needs a store with the webhook dispatch methods')
  const positive = (name: string, value: unknown) => {
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0))
      throw new TypeError(`${name} must be a positive number`)
  }
  positive('timeoutMs', options.timeoutMs)
  positive('leaseMs', options.leaseMs)
  positive('pollIntervalMs', options.pollIntervalMs)
  if (options.concurrency !== undefined && !(Number.isInteger(options.concurrency) && options.concurrency > 0))
    throw new TypeError('concurrency must be a positive integer')
  const budget = options.maxEventsReadBytes
  if (budget !== undefined && !(Number.isSafeInteger(budget) && budget > 0))
    throw new TypeError('maxEventsReadBytes must be a positive integer')
  const schedule = options.retryScheduleMs
  if (schedule !== undefined && !(Array.isArray(schedule) && schedule.every((ms) => Number.isFinite(ms) && ms >= 0)))
    throw new TypeError('retryScheduleMs must be an array of non-negative numbers')
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
  checkOptions(options)
  const { store } = options
  const timeoutMs = options.timeoutMs ?? 10_000
  const leaseMs = options.leaseMs ?? timeoutMs + 30_000
  if (leaseMs <= timeoutMs) throw new TypeError('leaseMs must exceed timeoutMs, or two processes could run one attempt')
  const schedule = [...(options.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS)]
  const concurrency = options.concurrency ?? 10
  const maxBytes = options.maxEventsReadBytes ?? DEFAULT_EVENTS_READ_BYTES
  const pollIntervalMs = options.pollIntervalMs ?? 1_000
  const now = options.now ?? (() => new Date())
  const onError =
    options.onError ?? ((error: unknown) => console.error('[tenant-public-api] webhook dispatcher:', error))
  const owner = `${hostname()}:${process.pid}:${crypto.randomUUID()}`
  // Kept-alive connections per checked address (docs/webhooks.md): closed by stop(); idle ones
  // also close after a few seconds, and never keep the process alive.
  const pool = createWebhookConnectionPool({ socketsPerAgent: concurrency })
  let stopping = false
  /**
   * Endpoints read for delivery, by tenant and id, with when (performance.now()): a pass reuses one
   * for ENDPOINT_CACHE_MS rather than reading it per claimed batch; every pass starts empty.
   */
  const endpointCache = new Map<string, { endpoint: WebhookEndpointRecord | null; readAt: number }>()
  /** Finished attempts waiting to be recorded, while a batch of them is being recorded. */
  const unrecorded: {
    finished: FinishedWebhookJob
    resolve: (finish: WebhookJobFinish) => void
    reject: (error: unknown) => void
  }[] = []
  let recording = false

  /**
   * Records one finished job. Attempts that finish while a batch is being recorded wait and go in
   * the next batch, one transaction for all of them (docs/webhooks.md): the busier the dispatcher,
   * the larger the batches; an idle one records each attempt at once.
   */
  function record(job: WebhookJob, outcome: WebhookJobOutcome): Promise<WebhookJobFinish> {
    return new Promise<WebhookJobFinish>((resolve, reject) => {
      unrecorded.push({ finished: { job, outcome }, resolve, reject })
      // After the current I/O phase: the answers that arrived with this one join its batch (on
      // SQLite a batch is recorded without leaving the microtask queue, so none would join it later).
      if (!recording) {
        recording = true
        setImmediate(() => void recordAll())
      }
    })
  }

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

  /**
   * The events of one claimed endpoint after its position (at most FAN_OUT_EVENTS, within the byte
   * budget), and the position they end at: an endpoint with more left is claimed again.
   */
  async function newEvents(claim: WebhookFanOutClaim): Promise<{ events: Event[]; position: number }> {
    const query = { order: 'asc', types: null, limit: FAN_OUT_EVENTS, maxBytes } as const
    let page = await store.listEvents(claim.tenantId, { ...query, after: claim.position })
    if (page.state === 'expired') {
      onError(new WebhookFeedGapError(claim.tenantId, claim.endpointId, claim.position))
      page = await store.listEvents(claim.tenantId, { ...query, after: null })
      if (page.state === 'expired') return { events: [], position: claim.position }
    }
    const last = page.events.at(-1)
    return {
      events: page.events,
      position: last === undefined ? Math.max(claim.position, page.lastPosition) : eventPosition(last.id)!,
    }
  }

  /** Fans out one claimed endpoint; the number of jobs made. */
  async function fanOutOne(claim: WebhookFanOutClaim): Promise<number> {
    const endpoint = await store.getWebhookEndpoint(claim.tenantId, claim.endpointId)
    const { events, position } = await newEvents(claim)
    // A disabled endpoint moves on without jobs: it gets nothing of what happened while disabled.
    const wanted = endpoint?.status === 'enabled' ? events.filter((e) => endpointWantsEvent(endpoint, e.type)) : []
    const at = now().getTime()
    const jobs = wanted.map((event) => ({
      id: crypto.randomUUID(),
      eventId: event.id,
      eventPosition: eventPosition(event.id)!,
      eventType: event.type,
      nextAttemptAt: at,
    }))
    return (await store.enqueueWebhookJobs(claim, owner, jobs, position)) ? jobs.length : 0
  }

  async function fanOut(counts: WebhookDispatchCounts): Promise<void> {
    // Bounded, so that a feed written faster than it is fanned out never starves delivery.
    for (let round = 0; round < FAN_OUT_ROUNDS && !stopping; round++) {
      const claims = await store.claimWebhookFanOuts(owner, now(), leaseMs, FAN_OUT_CLAIMS)
      if (claims.length === 0) return
      for (const claim of claims) counts.enqueued += await fanOutOne(claim)
    }
  }

  /**
   * The events `jobs` deliver, by tenant and id (pruned ones missing): one page per tenant when its
   * positions are close together (a claimed batch mostly is), else one read per job. The tenants'
   * pages share the byte budget, and keep only the events of `jobs`; the jobs a page did not reach
   * (it stopped at its budget) are read one by one.
   */
  async function eventsOf(jobs: readonly WebhookJob[]): Promise<Map<string, Event>> {
    const found = new Map<string, Event>()
    const byTenant = new Map<string, Set<number>>()
    for (const job of jobs) {
      const positions = byTenant.get(job.tenantId) ?? new Set<number>()
      byTenant.set(job.tenantId, positions.add(job.eventPosition))
    }
    const share = Math.max(1, Math.floor(maxBytes / byTenant.size))
    /**
     * Reads events from position `first`, at most `count` within `budget`, keeping those of `wanted`: the
     * last position read, or null when `first` was pruned.
     */
    const read = async (tenantId: string, wanted: Set<number>, first: number, count: number, budget: number) => {
      const query = { after: first - 1, order: 'asc', types: null, limit: count, maxBytes: budget } as const
      const page = await store.listEvents(tenantId, query)
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

  /** Disables the endpoint as failing, unless it changed (or was re-enabled) since `failingSince`. */
  async function disableIfFailing(tenantId: string, endpointId: string, failingSince: string, at: Date) {
    const cutoff = new Date(at.getTime() - FAILING_ENDPOINT_DISABLE_MS).toISOString()
    for (let round = 0; round < 10; round++) {
      const current = await store.getWebhookEndpoint(tenantId, endpointId)
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
      if (await store.replaceWebhookEndpoint(tenantId, next, current.version)) {
        endpointCache.delete(`${tenantId}\u0000${endpointId}`)
        return
      }
    }
  }

  /** One attempt of `job` to `endpoint`: what to record and when to try again. */
  async function attempt(
    job: WebhookJob,
    endpoint: WebhookEndpointRecord,
    event: Event | null,
  ): Promise<WebhookJobOutcome> {
    const started = now()
    let result: Pick<WebhookAttemptResult, 'responseStatus' | 'error' | 'durationMs'>
    if (event === null) {
      // Pruned (kept 30 days by default, far beyond the schedule): no retry can deliver it.
      result = { responseStatus: null, error: 'The event is no longer in the feed', durationMs: 0 }
    } else {
      const body = JSON.stringify(event)
      const secrets = signingSecrets(endpoint, started)
      const headers = webhookHeaders({ id: event.id, body, secrets, timestamp: started })
      result = await postWebhook(endpoint.url, body, headers, {
        allowInsecureUrls: options.allowInsecureUrls === true,
        resolver: options.resolver,
        timeoutMs,
        pool,
      })
    }
    const succeeded = result.error === null
    const wait = succeeded || event === null ? undefined : schedule[job.attempt - 1]
    const nextAttemptAt = wait === undefined ? null : now().getTime() + wait
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

  /** Runs one claimed job to its recorded end. */
  async function deliver(
    job: WebhookJob,
    endpoint: WebhookEndpointRecord | null,
    event: Event | null,
    claimedAt: number,
    counts: WebhookDispatchCounts,
  ): Promise<void> {
    // An attempt must end within its lease, or another process could take the job over mid-attempt:
    // one that can no longer is left to its lease (a store slower than the lease's margin).
    if (now().getTime() + timeoutMs >= claimedAt + leaseMs) return
    const wanted = endpoint?.status === 'enabled' && endpointWantsEvent(endpoint, job.eventType)
    const outcome = wanted ? await attempt(job, endpoint, event) : ({ kind: 'dropped' } as const)
    const finish = await record(job, outcome)
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
      await disableIfFailing(job.tenantId, job.endpointId, finish.failingSince, new Date(createdAt))
  }

  /**
   * Claims and delivers due jobs, at most `concurrency` in flight, until none is due. Claims wait
   * for half the slots to be free (or none in flight): one claim, one endpoint read and one events
   * read serve a batch, not each job.
   */
  async function deliverDue(counts: WebhookDispatchCounts): Promise<void> {
    const inFlight = new Set<Promise<void>>()
    let failure: unknown
    for (;;) {
      const free = concurrency - inFlight.size
      const claiming = !stopping && failure === undefined && (inFlight.size === 0 || free >= concurrency / 2)
      const claimedAt = now().getTime()
      const claimed = claiming
        ? await store.claimWebhookJobs(owner, new Date(claimedAt), leaseMs, free).catch((error: unknown) => {
            failure = error
            return []
          })
        : []
      if (claimed.length > 0) {
        const batch = loadBatch(claimed)
        for (const job of claimed) {
          const running: Promise<void> = batch
            .then(({ endpoints, events }) =>
              deliver(
                job,
                endpoints.get(`${job.tenantId}\u0000${job.endpointId}`) ?? null,
                events.get(`${job.tenantId}\u0000${job.eventId}`) ?? null,
                claimedAt,
                counts,
              ),
            )
            .catch(onError)
            .finally(() => inFlight.delete(running))
          inFlight.add(running)
        }
      }
      if (inFlight.size === 0) break
      if (!claiming || claimed.length === 0 || inFlight.size >= concurrency / 2) await Promise.race(inFlight)
    }
    if (failure !== undefined) throw failure
  }

  /** The endpoints and events of a claimed batch, by tenant and id (endpoints from the pass's cache). */
  async function loadBatch(jobs: readonly WebhookJob[]) {
    const keys = new Map(jobs.map((job) => [`${job.tenantId}\u0000${job.endpointId}`, job]))
    const fresh = performance.now() - ENDPOINT_CACHE_MS
    const [found, events] = await Promise.all([
      Promise.all(
        [...keys].map(async ([key, job]) => {
          const cached = endpointCache.get(key)
          if (cached !== undefined && cached.readAt >= fresh) return [key, cached.endpoint] as const
          const readAt = performance.now()
          const endpoint = await store.getWebhookEndpoint(job.tenantId, job.endpointId)
          endpointCache.set(key, { endpoint, readAt })
          return [key, endpoint] as const
        }),
      ),
      eventsOf(jobs),
    ])
    const endpoints = new Map<string, WebhookEndpointRecord>()
    for (const [key, endpoint] of found) if (endpoint !== null) endpoints.set(key, endpoint)
    return { endpoints, events }
  }

  async function pass(): Promise<WebhookDispatchCounts> {
    const counts: WebhookDispatchCounts = { enqueued: 0, delivered: 0, retrying: 0, failed: 0, dropped: 0 }
    endpointCache.clear()
    await fanOut(counts)
    await deliverDue(counts)
    return counts
  }

  let loop: Promise<void> | undefined
  let wake: (() => void) | undefined

  return {
    start() {
      if (loop !== undefined) return
      stopping = false
      loop = (async () => {
        while (!stopping) {
          let idle = true
          try {
            const counts = await pass()
            idle = Object.values(counts).every((n) => n === 0)
          } catch (error) {
            onError(error)
          }
          if (idle && !stopping)
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, pollIntervalMs)
              wake = () => {
                clearTimeout(timer)
                resolve()
              }
            })
        }
      })()
    },
    async stop() {
      stopping = true
      wake?.()
      await loop
      loop = undefined
      pool.close()
    },
    async runOnce() {
      if (loop === undefined) stopping = false
      return pass()
    },
  }
}
