/**
 * The webhook dispatch part of the store port (docs/webhooks.md): what several dispatcher processes
 * on one database share. Each endpoint has a dispatch row (the last event position fanned out to
 * it, since when its deliveries have failed, and a fan-out claim); each pending attempt is a job
 * (which event, which attempt, when it is due, and a claim). Claims are leases: the process that
 * holds one works on the row, any other takes it over once the lease has passed, and a write made
 * under a claim that was lost changes nothing. These are the only methods that read across tenants.
 */
import type { WebhookDeliveryRecord } from './webhook-store.js'

/**
 * An endpoint claimed for fan-out: the last event position its events were fanned out to.
 *
 * @example
 * const [claim] = await store.claimWebhookFanOuts('dispatcher-1', new Date(), 40_000, 10)
 */
export interface WebhookFanOutClaim {
  tenantId: string
  endpointId: string
  /** The position of the last event fanned out (0 before any). */
  position: number
}

/**
 * A job to add: the first attempt of one event's delivery to the claimed endpoint.
 *
 * @example
 * const job: NewWebhookJob = {
 *   id: crypto.randomUUID(), eventId: event.id, eventPosition: 7, eventType: event.type, nextAttemptAt: now,
 * }
 */
export interface NewWebhookJob {
  id: string
  eventId: string
  eventPosition: number
  eventType: string
  /** When the first attempt is due, in epoch milliseconds. */
  nextAttemptAt: number
}

/**
 * A pending attempt, as claimed: `attempt` counts from 1.
 *
 * @example
 * const jobs = await store.claimWebhookJobs('dispatcher-1', new Date(), 40_000, 10)
 */
export interface WebhookJob {
  tenantId: string
  id: string
  endpointId: string
  eventId: string
  eventPosition: number
  eventType: string
  attempt: number
  /** When this attempt was due, in epoch milliseconds. */
  nextAttemptAt: number
}

/**
 * How a claimed job ended.
 *
 * @example
 * await store.finishWebhookJobs(owner, [{ job, outcome: { kind: 'attempted', delivery, nextAttemptAt: null } }])
 */
export type WebhookJobOutcome =
  /** Its endpoint is disabled (or gone): the job is deleted, nothing is recorded. */
  | { kind: 'dropped' }
  /**
   * The attempt was made: `delivery` is recorded; the job is then due again at `nextAttemptAt`
   * (epoch ms, attempt + 1), or deleted when null. A `succeeded` delivery clears the endpoint's
   * `failingSince`; any other sets it to the delivery's `createdAt` unless it is set already.
   */
  | { kind: 'attempted'; delivery: WebhookDeliveryRecord; nextAttemptAt: number | null }

/**
 * A claimed job and how it ended, as handed to {@link WebhookDispatchPort.finishWebhookJobs}.
 *
 * @example
 * const finished: FinishedWebhookJob = { job, outcome: { kind: 'dropped' } }
 */
export interface FinishedWebhookJob {
  job: WebhookJob
  outcome: WebhookJobOutcome
}

/**
 * What {@link WebhookDispatchPort.finishWebhookJobs} did with one job: nothing when the claim was
 * lost (the job was taken over, or its endpoint deleted); otherwise the endpoint's `failingSince`
 * once the whole batch is applied.
 *
 * @example
 * if (finish.held && finish.failingSince !== null) maybeDisable(finish.failingSince)
 */
export type WebhookJobFinish = { held: false } | { held: true; failingSince: string | null }

/**
 * The dispatch methods every store implements (docs/webhooks.md). Inserting an endpoint
 * (`replaceVersioned(webhookEndpoints, ...)`) starts its position at the tenant's last event position
 * (it gets only later events);
 * `deleteWebhookEndpoint` removes its dispatch row and jobs.
 *
 * @example
 * const claims = await store.claimWebhookFanOuts(owner, new Date(), 40_000, 10)
 */
export interface WebhookDispatchPort {
  /**
   * Claims, across tenants, up to `limit` endpoints whose position is behind their tenant's last
   * event position and whose fan-out claim is free or has expired at `now`; each is held by
   * `owner` until `now + leaseMs`. Two concurrent callers never get the same endpoint.
   */
  claimWebhookFanOuts(owner: string, now: Date, leaseMs: number, limit: number): Promise<WebhookFanOutClaim[]>
  /**
   * In one transaction: adds `jobs` for the claimed endpoint, moves its position to `position` and
   * frees the claim, only if `owner` still holds it at `claim.position`; false (nothing written)
   * otherwise.
   */
  enqueueWebhookJobs(
    claim: WebhookFanOutClaim,
    owner: string,
    jobs: readonly NewWebhookJob[],
    position: number,
  ): Promise<boolean>
  /**
   * Claims, across tenants, up to `limit` jobs due at `now` (`nextAttemptAt <= now`, earliest
   * first) whose claim is free or has expired; each is held by `owner` until `now + leaseMs`. Two
   * concurrent callers never get the same job.
   */
  claimWebhookJobs(owner: string, now: Date, leaseMs: number, limit: number): Promise<WebhookJob[]>
  /**
   * In one transaction, for each of `finished` (distinct jobs) that `owner` still holds at its
   * `attempt`: applies its outcome (see {@link WebhookJobOutcome}), in the order given; a job whose
   * claim was lost changes nothing and does not stop the others. Resolves to one
   * {@link WebhookJobFinish} per job, in the same order. One transaction for a batch is what lets a
   * dispatcher record many attempts for the cost of one commit.
   */
  finishWebhookJobs(owner: string, finished: readonly FinishedWebhookJob[]): Promise<WebhookJobFinish[]>
}
