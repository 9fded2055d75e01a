/**
 * Webhook dispatch on SQL (tables of migration 0005, docs/webhooks.md). A claim is one UPDATE of
 * the rows its subquery picks, inside a write transaction: on Postgres the subquery locks what it
 * picks and skips what another claim has locked (`FOR UPDATE ... SKIP LOCKED`), so concurrent
 * dispatchers split the work without waiting on each other; on SQLite `BEGIN IMMEDIATE` runs one
 * claim at a time. Every write under a claim names its owner (and the position or attempt it
 * claimed) in its WHERE, so a claim that was taken over writes nothing.
 */
import { sql } from 'kysely'
import type { WebhookDispatchStore, WebhookJob } from '../webhook-dispatch.js'
import { json, type SqlContext } from './context.js'

interface JobRow {
  tenant_id: string
  id: string
  endpoint_id: string
  event_id: string
  event_position: unknown
  event_type: string
  attempt: unknown
  next_attempt_at: unknown
}

const jobOf = (row: JobRow): WebhookJob => ({
  tenantId: row.tenant_id,
  id: row.id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  eventPosition: Number(row.event_position),
  eventType: row.event_type,
  attempt: Number(row.attempt),
  nextAttemptAt: Number(row.next_attempt_at),
})

/** Jobs per INSERT: 9 values each, well under SQLite's bound-parameter limit. */
const JOBS_PER_STATEMENT = 100

/**
 * The store's dispatch methods over `ctx`.
 *
 * @example
 * const store = { ...webhookDispatchMethods(ctx), ... }
 */
export function webhookDispatchMethods(ctx: SqlContext): WebhookDispatchStore {
  const { db, engine, table: t, rows } = ctx
  return {
    async claimWebhookFanOuts(owner, now, leaseMs, limit) {
      const at = now.getTime()
      const found = await engine.writeTransaction(db, (trx) =>
        rows<{ tenant_id: string; endpoint_id: string; position: unknown }>(
          sql`UPDATE ${t('webhook_dispatch')} SET lease_owner = ${owner}, lease_until = ${at + leaseMs}
              WHERE (tenant_id, endpoint_id) IN (
                SELECT d.tenant_id, d.endpoint_id FROM ${t('webhook_dispatch')} d
                JOIN ${t('event_positions')} p ON p.tenant_id = d.tenant_id
                WHERE d.position < p.position AND (d.lease_until IS NULL OR d.lease_until <= ${at})
                LIMIT ${limit}${sql.raw(engine.skipLocked('d'))})
              RETURNING tenant_id, endpoint_id, position`,
          trx,
        ),
      )
      return found.map((row) => ({
        tenantId: row.tenant_id,
        endpointId: row.endpoint_id,
        position: Number(row.position),
      }))
    },

    async enqueueWebhookJobs(claim, owner, jobs, position) {
      return engine.writeTransaction(db, async (trx) => {
        const moved = await rows(
          sql`UPDATE ${t('webhook_dispatch')} SET position = ${position}, lease_owner = NULL, lease_until = NULL
              WHERE tenant_id = ${claim.tenantId} AND endpoint_id = ${claim.endpointId}
                AND lease_owner = ${owner} AND position = ${claim.position}
              RETURNING endpoint_id`,
          trx,
        )
        if (moved.length === 0) return false
        for (let start = 0; start < jobs.length; start += JOBS_PER_STATEMENT) {
          const values = jobs.slice(start, start + JOBS_PER_STATEMENT).map(
            (job) =>
              sql`(${claim.tenantId}, ${job.id}, ${claim.endpointId}, ${job.eventId}, ${job.eventPosition},
                     ${job.eventType}, 1, ${job.nextAttemptAt})`,
          )
          await sql`INSERT INTO ${t('webhook_jobs')}
                      (tenant_id, id, endpoint_id, event_id, event_position, event_type, attempt, next_attempt_at)
                    VALUES ${sql.join(values)}`.execute(trx)
        }
        return true
      })
    },

    async claimWebhookJobs(owner, now, leaseMs, limit) {
      const at = now.getTime()
      const found = await engine.writeTransaction(db, (trx) =>
        rows<JobRow>(
          sql`UPDATE ${t('webhook_jobs')} SET lease_owner = ${owner}, lease_until = ${at + leaseMs}
              WHERE (tenant_id, id) IN (
                SELECT j.tenant_id, j.id FROM ${t('webhook_jobs')} j
                WHERE j.next_attempt_at <= ${at} AND (j.lease_until IS NULL OR j.lease_until <= ${at})
                ORDER BY j.next_attempt_at LIMIT ${limit}${sql.raw(engine.skipLocked('j'))})
              RETURNING tenant_id, id, endpoint_id, event_id, event_position, event_type, attempt, next_attempt_at`,
          trx,
        ),
      )
      return found.map(jobOf).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt)
    },

    async finishWebhookJob(job, owner, outcome) {
      return engine.writeTransaction(db, async (trx) => {
        const held = sql`tenant_id = ${job.tenantId} AND id = ${job.id} AND lease_owner = ${owner}
                         AND attempt = ${job.attempt}`
        const done =
          outcome.kind === 'dropped' || outcome.nextAttemptAt === null
            ? await rows(sql`DELETE FROM ${t('webhook_jobs')} WHERE ${held} RETURNING id`, trx)
            : await rows(
                sql`UPDATE ${t('webhook_jobs')}
                    SET attempt = attempt + 1, next_attempt_at = ${outcome.nextAttemptAt},
                        lease_owner = NULL, lease_until = NULL
                    WHERE ${held} RETURNING id`,
                trx,
              )
        if (done.length === 0) return { held: false } as const
        const endpoint = sql`tenant_id = ${job.tenantId} AND endpoint_id = ${job.endpointId}`
        if (outcome.kind === 'attempted') {
          const { delivery } = outcome
          await sql`INSERT INTO ${t('webhook_deliveries')} (tenant_id, id, endpoint_id, created_at, doc)
                    VALUES (${job.tenantId}, ${delivery.id}, ${delivery.endpointId}, ${delivery.createdAt},
                            ${json(delivery)})
                    ON CONFLICT (tenant_id, id) DO UPDATE
                    SET endpoint_id = excluded.endpoint_id, created_at = excluded.created_at,
                        doc = excluded.doc`.execute(trx)
          // Written only when it changes: a success on a healthy endpoint (the usual case) neither
          // writes nor locks the endpoint's row, which its other deliveries finish beside.
          if (delivery.status === 'succeeded') {
            await sql`UPDATE ${t('webhook_dispatch')} SET failing_since = NULL
                      WHERE ${endpoint} AND failing_since IS NOT NULL`.execute(trx)
            return { held: true, failingSince: null } as const
          }
          await sql`UPDATE ${t('webhook_dispatch')} SET failing_since = ${delivery.createdAt}
                    WHERE ${endpoint} AND failing_since IS NULL`.execute(trx)
        }
        const failing = await rows<{ failing_since: string | null }>(
          sql`SELECT failing_since FROM ${t('webhook_dispatch')} WHERE ${endpoint}`,
          trx,
        )
        return { held: true, failingSince: failing[0]?.failing_since ?? null } as const
      })
    },
  }
}
