/**
 * The fixtures and helpers of the store-level webhook dispatch tests (store-webhook-dispatch.ts):
 * endpoints, jobs and attempts to write, and claims filtered to a test's own tenants, since claims
 * read across tenants.
 */
import { expect } from 'vitest'
import { type WebhookEndpointRecord, webhookEndpoints } from '../../model/webhook-endpoints.js'
import type { Store } from '../../ports/store.js'
import type { NewWebhookJob, WebhookJob, WebhookJobFinish, WebhookJobOutcome } from '../../ports/webhook-dispatch.js'
import type { WebhookDeliveryRecord } from '../../ports/webhook-store.js'
import type { ConformanceContext } from './context.js'
import { numberedCompany as company } from './webhook-fixtures.js'

/** The lease of every claim in these tests, in milliseconds. */
export const LEASE = 30_000
/** Claims take everything claimable (other suites' tenants included), then keep this test's. */
export const ALL = 10_000

/**
 * An enabled endpoint for every event, with one secret.
 *
 * @example
 * await store.replaceVersioned(webhookEndpoints, tenantId, endpoint(), null)
 */
export function endpoint(id: string = crypto.randomUUID()): WebhookEndpointRecord {
  return {
    id,
    url: 'https://hooks.example.com/in',
    events: ['*'],
    description: null,
    status: 'enabled',
    disabledReason: null,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    secrets: [{ secret: `whsec_${btoa('conformance-dispatch-secret')}`, expiresAt: null }],
    eventScopes: ['companies.read'],
    version: 1,
  }
}

/**
 * A job for the company event at `position`, due at `nextAttemptAt`.
 *
 * @example
 * await store.enqueueWebhookJobs(claim, who, [newJob(1, Date.now())], 1)
 */
export function newJob(position: number, nextAttemptAt: number): NewWebhookJob {
  return {
    id: crypto.randomUUID(),
    eventId: `evt_${String(position).padStart(12, '0')}`,
    eventPosition: position,
    eventType: 'company.created',
    nextAttemptAt,
  }
}

/**
 * The delivery record of one attempt of a job.
 *
 * @example
 * await finish(job, who, { kind: 'attempted', delivery: attempt(job, 'succeeded', new Date()), nextAttemptAt: null })
 */
export function attempt(
  job: WebhookJob,
  status: WebhookDeliveryRecord['status'],
  createdAt: Date,
): WebhookDeliveryRecord {
  return {
    id: crypto.randomUUID(),
    endpointId: job.endpointId,
    eventId: job.eventId,
    eventType: job.eventType,
    attempt: job.attempt,
    status,
    responseStatus: status === 'succeeded' ? 204 : 500,
    durationMs: 3,
    error: status === 'succeeded' ? null : 'hooks.example.com: status 500',
    createdAt: createdAt.toISOString(),
    nextAttemptAt: null,
  }
}

/**
 * The dispatch helpers bound to a conformance context: owners, claims of its own tenants, and
 * tenants with an endpoint (and enqueued jobs) ready.
 *
 * @example
 * const { withJobs, jobs, owner } = dispatchKit(ctx)
 */
export function dispatchKit(ctx: ConformanceContext) {
  const store = (): Store => ctx.store
  const owner = (label: string) => `conformance-${label}-${crypto.randomUUID()}`
  const fanOuts = async (who: string, now: Date, tenants: readonly string[]) =>
    (await store().claimWebhookFanOuts(who, now, LEASE, ALL)).filter((c) => tenants.includes(c.tenantId))
  const jobs = async (who: string, now: Date, tenants: readonly string[]) =>
    (await store().claimWebhookJobs(who, now, LEASE, ALL)).filter((j) => tenants.includes(j.tenantId))
  /** Finishes one job: a batch of one. */
  const finish = async (job: WebhookJob, who: string, outcome: WebhookJobOutcome): Promise<WebhookJobFinish> => {
    const finished = await store().finishWebhookJobs(who, [{ job, outcome }])
    expect(finished, 'finishWebhookJobs returns one result per job').toHaveLength(1)
    return finished[0]!
  }

  /** A tenant with `events` company events, then an endpoint, then `later` more events. */
  async function tenantWithEndpoint(events: number, later: number, id?: string) {
    const { tenantId } = await ctx.fresh({})
    if (events > 0)
      await store().seed(tenantId, { companies: Array.from({ length: events }, (_, i) => company(i + 1)) })
    const record = endpoint(id)
    expect(await store().replaceVersioned(webhookEndpoints, tenantId, record, null), 'insert').toBe(true)
    if (later > 0)
      await store().seed(tenantId, {
        companies: Array.from({ length: later }, (_, i) => company(events + i + 1)),
      })
    return { tenantId, endpointId: record.id }
  }

  /** An endpoint with one enqueued job per position in `positions`, all due at `due`. */
  async function withJobs(positions: readonly number[], due: number, id?: string) {
    const t = await tenantWithEndpoint(0, Math.max(...positions), id)
    const who = owner('fan-out')
    const [claim] = await fanOuts(who, new Date(), [t.tenantId])
    const ok = await store().enqueueWebhookJobs(
      claim!,
      who,
      positions.map((p) => newJob(p, due)),
      Math.max(...positions),
    )
    expect(ok, 'enqueueWebhookJobs by the holder').toBe(true)
    return t
  }
  return { store, owner, fanOuts, jobs, finish, tenantWithEndpoint, withJobs }
}
