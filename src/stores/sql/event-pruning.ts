/**
 * Pruning a tenant's expired events (docs/extensions.md, section 3): a write deletes the tenant's
 * events older than the retention, at most once per `PRUNE_EVERY_MS` per tenant and process, as one
 * more statement of its own (chained into its one statement on Postgres, `event-writes.ts`).
 */
import { type RawBuilder, sql } from 'kysely'
import { ofTenant, type SqlContext } from './context.js'

/**
 * A store prunes a tenant's expired events at most once per this interval (per process): one
 * minute, or a hundredth of a shorter retention. Pruning on every write cost every write a
 * statement; an expired event now stays listed at most this much longer (and, as before, until
 * the tenant's next write).
 */
export const PRUNE_EVERY_MS = 60_000

/** The tenants whose last prune time this process remembers; beyond that it forgets them all. */
const PRUNED_TENANTS = 10_000

/** The moment of a write: its time, and the statements that prune the tenant's events (none when not due). */
export interface WriteMoment {
  createdAt: string
  prune: RawBuilder<unknown>[]
}

/**
 * The moments of the writes of the store on `ctx`, keeping events for `retentionMs`. A prune deletes
 * a prefix of positions: every event before the first one created at the cutoff or later (found
 * along the primary key, reading the expired events it deletes and one more), or every event when
 * all have expired. An expired event after a kept one (clocks of two processes a little apart) stays
 * until a later prune, so pruning never leaves a hole in the feed.
 *
 * @example
 * const momentOf = writeMoments(ctx, EVENT_RETENTION_MS)
 * const { createdAt, prune } = momentOf(tenantId)
 */
export function writeMoments(ctx: SqlContext, retentionMs: number): (tenantId: string) => WriteMoment {
  const { table: t } = ctx
  const pruneEveryMs = Math.min(PRUNE_EVERY_MS, retentionMs / 100)
  const lastPruned = new Map<string, number>()

  /** Whether this write prunes the tenant's events (then it counts as pruned from `nowMs`). */
  function pruneDue(tenantId: string, nowMs: number): boolean {
    const last = lastPruned.get(tenantId)
    if (last !== undefined && nowMs - last < pruneEveryMs && nowMs >= last) return false
    if (last === undefined && lastPruned.size >= PRUNED_TENANTS) lastPruned.clear()
    lastPruned.set(tenantId, nowMs)
    return true
  }

  return (tenantId) => {
    const now = new Date()
    const prune: RawBuilder<unknown>[] = []
    if (pruneDue(tenantId, now.getTime())) {
      const cutoff = new Date(now.getTime() - retentionMs).toISOString()
      const events = t('events')
      const firstKept = sql`SELECT position FROM ${events} WHERE ${ofTenant(tenantId)} AND created_at >= ${cutoff}
                            ORDER BY position LIMIT 1`
      const last = sql`SELECT position FROM ${t('event_positions')} WHERE ${ofTenant(tenantId)}`
      prune.push(
        sql`DELETE FROM ${events} WHERE ${ofTenant(tenantId)} AND position < COALESCE((${firstKept}), (${last}) + 1)`,
      )
    }
    return { createdAt: now.toISOString(), prune }
  }
}
