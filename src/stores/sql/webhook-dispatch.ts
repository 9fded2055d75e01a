/**
 * Webhook dispatch on SQL (tables of migration 0005, docs/webhooks.md). A claim is one UPDATE of
 * the rows its subquery picks, inside a write transaction: on Postgres the subquery locks what it
 * picks and skips what another claim has locked (`FOR UPDATE ... SKIP LOCKED`), so concurrent
 * dispatchers split the work without waiting on each other; on SQLite `BEGIN IMMEDIATE` runs one
 * claim at a time. Every write under a claim names its owner (and the position or attempt it
 * claimed) in its WHERE, so a claim that was taken over writes nothing. Claims span tenants, so they
 * read the tenant as a column (`tenantColumn`, context.ts); every other statement is one tenant's.
 */
import { sql } from 'kysely'
import type { FinishedWebhookJob, WebhookDispatchPort, WebhookJob } from '../../ports/webhook-dispatch.js'
import { type Exec, insertOfTenant, json, ofTenant, type SqlContext, tenantColumn } from './context.js'

/** The tenant column as the claims' rows name it. */
const TENANT = sql`${tenantColumn()} AS tenant`

interface JobRow {
  tenant: string
  id: string
  endpoint_id: string
  event_id: string
  event_position: unknown
  event_type: string
  attempt: unknown
  next_attempt_at: unknown
}

const jobOf = (row: JobRow): WebhookJob => ({
  tenantId: row.tenant,
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
export function webhookDispatchMethods(ctx: SqlContext): WebhookDispatchPort {
  const { db, engine, writes, table: t, rows } = ctx
  return {
    async claimWebhookFanOuts(owner, now, leaseMs, limit) {
      const at = now.getTime()
      const found = await writes.transaction(db, (trx) =>
        rows<{ tenant: string; endpoint_id: string; position: unknown }>(
          sql`UPDATE ${t('webhook_dispatch')} SET lease_owner = ${owner}, lease_until = ${at + leaseMs}
              WHERE (${tenantColumn()}, endpoint_id) IN (
                SELECT ${tenantColumn('d')}, d.endpoint_id FROM ${t('webhook_dispatch')} d
                JOIN ${t('event_positions')} p ON ${ofTenant(tenantColumn('d'), 'p')}
                WHERE d.position < p.position AND (d.lease_until IS NULL OR d.lease_until <= ${at})
                LIMIT ${limit}${sql.raw(engine.fragments.skipLocked('d'))})
              RETURNING ${TENANT}, endpoint_id, position`,
          trx,
        ),
      )
      return found.map((row) => ({
        tenantId: row.tenant,
        endpointId: row.endpoint_id,
        position: Number(row.position),
      }))
    },

    async enqueueWebhookJobs(claim, owner, jobs, position) {
      return writes.transaction(db, async (trx) => {
        const moved = await rows(
          sql`UPDATE ${t('webhook_dispatch')} SET position = ${position}, lease_owner = NULL, lease_until = NULL
              WHERE ${ofTenant(claim.tenantId)} AND endpoint_id = ${claim.endpointId}
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
          const columns = [
            'id',
            'endpoint_id',
            'event_id',
            'event_position',
            'event_type',
            'attempt',
            'next_attempt_at',
          ]
          await insertOfTenant(t('webhook_jobs'), columns, sql`VALUES ${sql.join(values)}`).execute(trx)
        }
        return true
      })
    },

    async claimWebhookJobs(owner, now, leaseMs, limit) {
      const at = now.getTime()
      const found = await writes.transaction(db, (trx) =>
        rows<JobRow>(
          sql`UPDATE ${t('webhook_jobs')} SET lease_owner = ${owner}, lease_until = ${at + leaseMs}
              WHERE (${tenantColumn()}, id) IN (
                SELECT ${tenantColumn('j')}, j.id FROM ${t('webhook_jobs')} j
                WHERE j.next_attempt_at <= ${at} AND (j.lease_until IS NULL OR j.lease_until <= ${at})
                ORDER BY j.next_attempt_at LIMIT ${limit}${sql.raw(engine.fragments.skipLocked('j'))})
              RETURNING ${TENANT}, id, endpoint_id, event_id, event_position, event_type, attempt, next_attempt_at`,
          trx,
        ),
      )
      return found.map(jobOf).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt)
    },

    async finishWebhookJobs(owner, finished) {
      if (finished.length === 0) return []
      return writes.transaction(db, async (trx) => {
        const held = await endJobs(ctx, trx, owner, finished)
        const kept = finished.filter(({ job }) => held.has(keyOf(job.tenantId, job.id)))
        await recordAttempts(ctx, trx, kept)
        const after = await settleFailingSince(ctx, trx, kept)
        return finished.map(({ job }) =>
          held.has(keyOf(job.tenantId, job.id))
            ? ({ held: true, failingSince: after.get(keyOf(job.tenantId, job.endpointId)) ?? null } as const)
            : ({ held: false } as const),
        )
      })
    },
  }
}

/** The key of a job or an endpoint of a tenant, in maps and sets. */
const keyOf = (tenantId: string, id: string) => `${tenantId}\u0000${id}`

/**
 * Ends or reschedules the `finished` jobs `owner` still holds: the jobs that end (dropped,
 * delivered, failed for good) go in one DELETE per chunk, the usual case; the jobs due again are
 * moved to their own time each. Returns the keys of the jobs `owner` still held.
 */
async function endJobs(
  ctx: SqlContext,
  trx: Exec,
  owner: string,
  finished: readonly FinishedWebhookJob[],
): Promise<Set<string>> {
  const { table: t, rows } = ctx
  const held = new Set<string>()
  const ending = finished.filter(({ outcome }) => outcome.kind === 'dropped' || outcome.nextAttemptAt === null)
  for (const chunk of chunks(ending)) {
    const which = sql.join(
      chunk.map(({ job }) => sql`(${ofTenant(job.tenantId)} AND id = ${job.id} AND attempt = ${job.attempt})`),
      sql` OR `,
    )
    const gone = await rows<{ tenant: string; id: string }>(
      sql`DELETE FROM ${t('webhook_jobs')} WHERE lease_owner = ${owner} AND (${which}) RETURNING ${TENANT}, id`,
      trx,
    )
    for (const row of gone) held.add(keyOf(row.tenant, row.id))
  }
  for (const { job, outcome } of finished) {
    if (outcome.kind !== 'attempted' || outcome.nextAttemptAt === null) continue
    const moved = await rows(
      sql`UPDATE ${t('webhook_jobs')}
          SET attempt = attempt + 1, next_attempt_at = ${outcome.nextAttemptAt},
              lease_owner = NULL, lease_until = NULL
          WHERE ${ofTenant(job.tenantId)} AND id = ${job.id} AND lease_owner = ${owner}
            AND attempt = ${job.attempt}
          RETURNING id`,
      trx,
    )
    if (moved.length > 0) held.add(keyOf(job.tenantId, job.id))
  }
  return held
}

/** Records the delivery of every attempt among the `kept` jobs (a delivery written again is replaced). */
async function recordAttempts(ctx: SqlContext, trx: Exec, kept: readonly FinishedWebhookJob[]): Promise<void> {
  const attempts = kept.flatMap(({ job, outcome }) =>
    outcome.kind === 'attempted' ? [{ tenantId: job.tenantId, delivery: outcome.delivery }] : [],
  )
  for (const chunk of chunks(attempts)) {
    const values = chunk.map(
      ({ tenantId, delivery }) =>
        sql`(${tenantId}, ${delivery.id}, ${delivery.endpointId}, ${delivery.createdAt}, ${json(delivery)})`,
    )
    await insertOfTenant(
      ctx.table('webhook_deliveries'),
      ['id', 'endpoint_id', 'created_at', 'doc'],
      sql`VALUES ${sql.join(values)}`,
      {
        key: ['id'],
        set: sql`endpoint_id = excluded.endpoint_id, created_at = excluded.created_at, doc = excluded.doc`,
      },
    ).execute(trx)
  }
}

/** What the attempts of one batch did to an endpoint: any success, and the first failure after the last. */
interface EndpointAttempts {
  tenantId: string
  endpointId: string
  success: boolean
  failure?: string
}

/** The endpoints of the `kept` jobs, by key, with what their attempts did, as if applied one by one. */
function endpointAttempts(kept: readonly FinishedWebhookJob[]): Map<string, EndpointAttempts> {
  const endpoints = new Map<string, EndpointAttempts>()
  for (const { job, outcome } of kept) {
    const key = keyOf(job.tenantId, job.endpointId)
    let state = endpoints.get(key)
    if (state === undefined)
      endpoints.set(key, (state = { tenantId: job.tenantId, endpointId: job.endpointId, success: false }))
    if (outcome.kind !== 'attempted') continue
    if (outcome.delivery.status === 'succeeded') {
      state.success = true
      state.failure = undefined
    } else state.failure ??= outcome.delivery.createdAt
  }
  return endpoints
}

/**
 * Sets failing_since per endpoint of the `kept` jobs, as if the attempts were applied one by one: a
 * success clears it, a failure sets it unless set. The rows that change are locked first, in one
 * total order, the key's (chunks of the sorted list, each `ORDER BY` the key `FOR UPDATE`: Postgres
 * locks in the order it sorts), and only those are then written: two finishes that flip endpoints in
 * opposite orders wait for each other rather than deadlock (test/webhooks/finish-deadlock.test.ts).
 * A success on a healthy endpoint (the usual case) neither writes nor locks its row. Returns
 * failing_since after the batch, by endpoint key.
 */
async function settleFailingSince(
  ctx: SqlContext,
  trx: Exec,
  kept: readonly FinishedWebhookJob[],
): Promise<Map<string, string | null>> {
  const { engine, table: t, rows } = ctx
  const endpoints = endpointAttempts(kept)
  const tenant = tenantColumn()
  const sorted = [...endpoints].sort(([a], [b]) => compareBytes(a, b)).map(([, state]) => state)
  const endpointIs = (state: { tenantId: string; endpointId: string }) =>
    sql`(${ofTenant(state.tenantId)} AND endpoint_id = ${state.endpointId})`
  /** Where the row changes: set and cleared by a success, unset and failed, or failed after a success. */
  const changes = (state: EndpointAttempts) =>
    state.failure === undefined
      ? sql`(${endpointIs(state)} AND failing_since IS NOT NULL)`
      : state.success
        ? endpointIs(state)
        : sql`(${endpointIs(state)} AND failing_since IS NULL)`
  /** failing_since after the batch, by endpoint, where known without reading it. */
  const after = new Map<string, string | null>()
  const changing = sorted.filter((state) => state.success || state.failure !== undefined)
  for (const chunk of chunks(changing)) {
    const locked = await rows<{ tenant: string; endpoint_id: string }>(
      sql`SELECT ${TENANT}, endpoint_id FROM ${t('webhook_dispatch')}
          WHERE ${sql.join(chunk.map(changes), sql` OR `)}
          ORDER BY ${tenant}, endpoint_id${sql.raw(engine.fragments.forUpdate)}`,
      trx,
    )
    const states = locked.map((row) => endpoints.get(keyOf(row.tenant, row.endpoint_id))!)
    const clearing = states.filter((state) => state.failure === undefined)
    if (clearing.length > 0)
      await sql`UPDATE ${t('webhook_dispatch')} SET failing_since = NULL
                WHERE ${sql.join(clearing.map(endpointIs), sql` OR `)}`.execute(trx)
    for (const state of states) {
      if (state.failure !== undefined)
        await sql`UPDATE ${t('webhook_dispatch')} SET failing_since = ${state.failure}
                  WHERE ${endpointIs(state)}`.execute(trx)
      after.set(keyOf(state.tenantId, state.endpointId), state.failure ?? null)
    }
    // A success left unlocked found the row healthy: it stays so.
    for (const state of chunk) if (state.failure === undefined) after.set(keyOf(state.tenantId, state.endpointId), null)
  }
  const unknown = sorted.filter((state) => !after.has(keyOf(state.tenantId, state.endpointId)))
  for (const chunk of chunks(unknown)) {
    const found = await rows<{ tenant: string; endpoint_id: string; failing_since: string | null }>(
      sql`SELECT ${TENANT}, endpoint_id, failing_since FROM ${t('webhook_dispatch')}
          WHERE ${sql.join(chunk.map(endpointIs), sql` OR `)}`,
      trx,
    )
    for (const row of found) after.set(keyOf(row.tenant, row.endpoint_id), row.failing_since)
  }
  return after
}

/**
 * Compares two strings by their UTF-8 bytes: the order of Postgres's `COLLATE "C"` keys, which
 * `<` (UTF-16 code units) differs from past U+FFFF, so that chunks of a sorted list lock in order.
 */
function compareBytes(a: string, b: string): number {
  const x = UTF8.encode(a)
  const y = UTF8.encode(b)
  for (let i = 0; i < x.length && i < y.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}
const UTF8 = new TextEncoder()

/** `list` in chunks of `JOBS_PER_STATEMENT`, so a statement's bound parameters stay few. */
function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = []
  for (let start = 0; start < list.length; start += JOBS_PER_STATEMENT)
    out.push(list.slice(start, start + JOBS_PER_STATEMENT))
  return out
}
