/**
 * What a webhook dispatcher is given and what it reports: its options, their defaults and checks,
 * the counts of a pass and the error of a gap in the feed.
 */
import { checkOptions, is, type OptionChecks } from '../model/options.js'
import type { Store } from '../ports/store.js'
import type { WebhookResolver } from './url-safety.js'

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

/** What each option must be (src/model/options.ts); `resolveOptions` then compares `leaseMs` with `timeoutMs`. */
const CHECKS: OptionChecks<WebhookDispatcherOptions> = {
  store: (value) =>
    typeof (value as Partial<Store> | null)?.claimWebhookJobs === 'function'
      ? undefined
      : 'must be a store with the webhook dispatch methods',
  allowInsecureUrls: is.boolean,
  timeoutMs: is.positiveNumber,
  retryScheduleMs: (value) =>
    Array.isArray(value) && value.every((ms) => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0)
      ? undefined
      : 'must be an array of non-negative numbers',
  concurrency: is.integer(1),
  maxEventsReadBytes: is.integer(1),
  leaseMs: is.positiveNumber,
  pollIntervalMs: is.positiveNumber,
  now: is.function,
  resolver: is.function,
  onError: is.function,
}

/** The options with their defaults applied: what the dispatcher's parts read. */
export interface DispatchSettings {
  readonly store: Store
  readonly allowInsecureUrls: boolean
  readonly timeoutMs: number
  readonly leaseMs: number
  readonly schedule: readonly number[]
  readonly concurrency: number
  /** The byte budget of each read of the feed (`maxEventsReadBytes`). */
  readonly maxBytes: number
  readonly pollIntervalMs: number
  readonly now: () => Date
  readonly resolver: WebhookResolver | undefined
  readonly onError: (error: unknown) => void
}

/** Checks `options` and applies their defaults; throws a `TypeError` naming each bad one. */
export function resolveOptions(options: WebhookDispatcherOptions): DispatchSettings {
  if (typeof options?.store?.claimWebhookJobs !== 'function')
    throw new TypeError('createWebhookDispatcher needs a store with the webhook dispatch methods')
  checkOptions(options, CHECKS, { name: 'createWebhookDispatcher' })
  const timeoutMs = options.timeoutMs ?? 10_000
  const leaseMs = options.leaseMs ?? timeoutMs + 30_000
  if (leaseMs <= timeoutMs) throw new TypeError('leaseMs must exceed timeoutMs, or two processes could run one attempt')
  return {
    store: options.store,
    allowInsecureUrls: options.allowInsecureUrls === true,
    timeoutMs,
    leaseMs,
    schedule: [...(options.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS)],
    concurrency: options.concurrency ?? 10,
    maxBytes: options.maxEventsReadBytes ?? DEFAULT_EVENTS_READ_BYTES,
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    now: options.now ?? (() => new Date()),
    resolver: options.resolver,
    onError: options.onError ?? ((error: unknown) => console.error('[tenant-public-api] webhook dispatcher:', error)),
  }
}
