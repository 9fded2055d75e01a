/**
 * A fixed-window rate limiter kept in the store's database, so that every process on that
 * database shares one limit. Each request is one atomic upsert timed by the database's clock.
 */
import { type RawBuilder, sql } from 'kysely'
import type { RateLimiter, RateLimitResult, RateLimitRule } from '../../ports/rate-limiter.js'
import { checkOptions, is, type OptionChecks } from '../../model/options.js'
import type { Store } from '../../ports/store.js'
import { sqlStoreInternals } from './sql-store.js'

/** Options of {@link sqlRateLimiter}. */
export interface SqlRateLimiterOptions {
  /** Requests per window. Default 120. */
  limit?: number
  /** Window length. Default 60,000 ms. */
  windowMs?: number
}

const CHECKS: OptionChecks<SqlRateLimiterOptions> = { limit: is.integer(1), windowMs: is.integer(1) }

/**
 * A rate limiter on a SQL store's database (the `rate_limits` table of its migrations).
 *
 * @example
 * const store = await createPostgresStore({ connectionString })
 * const api = createPublicApi({ store, keyResolver, rateLimiter: sqlRateLimiter(store, { limit: 600 }) })
 */
export function sqlRateLimiter(store: Store, options: SqlRateLimiterOptions = {}): RateLimiter {
  checkOptions(options, CHECKS, { name: 'sqlRateLimiter' })
  const { db, engine, table, unavailable } = sqlStoreInternals(store)
  const defaults: RateLimitRule = { limit: options.limit ?? 120, windowMs: options.windowMs ?? 60_000 }
  let calls = 0
  const resultOf = (rule: RateLimitRule, count: number, resetAt: unknown, allowed: boolean): RateLimitResult => ({
    allowed,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - count),
    resetAt: new Date(Number(resetAt)),
    windowMs: rule.windowMs,
  })
  /**
   * Counts `cost` requests at once, or none: the update runs only while the window has room for
   * them all (or has expired), so a refused cost leaves no row changed and returns no row; the
   * window is then read for the answer.
   */
  const consumeCost = async (id: string, rule: RateLimitRule, cost: number, now: RawBuilder<number>) => {
    if (cost <= rule.limit) {
      const result = await sql<{ count: unknown; reset_at: unknown }>`
        INSERT INTO ${table('rate_limits')} AS cur (key, reset_at, count)
        VALUES (${id}, ${now} + ${rule.windowMs}, ${cost})
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN cur.reset_at <= ${now} THEN ${cost} ELSE cur.count + ${cost} END,
          reset_at = CASE WHEN cur.reset_at <= ${now} THEN ${now} + ${rule.windowMs} ELSE cur.reset_at END
          WHERE cur.reset_at <= ${now} OR cur.count + ${cost} <= ${rule.limit}
        RETURNING count, reset_at`.execute(db)
      const row = result.rows[0]
      if (row !== undefined) return resultOf(rule, Number(row.count), row.reset_at, true)
    }
    const current = await sql<{ now: unknown; count: unknown; reset_at: unknown }>`
      SELECT ${now} AS now,
        (SELECT count FROM ${table('rate_limits')} WHERE key = ${id}) AS count,
        (SELECT reset_at FROM ${table('rate_limits')} WHERE key = ${id}) AS reset_at`.execute(db)
    const row = current.rows[0]!
    const at = Number(row.now)
    const live = row.reset_at !== null && Number(row.reset_at) > at
    return resultOf(rule, live ? Number(row.count) : 0, live ? row.reset_at : at + rule.windowMs, false)
  }
  return {
    countsCost: true,
    async consume(key, rule = defaults, cost = 1): Promise<RateLimitResult> {
      const id = `${rule.limit}/${rule.windowMs}/${key}`
      const now = engine.fragments.nowMs()
      try {
        if (++calls % 1000 === 0)
          await sql`DELETE FROM ${table('rate_limits')} WHERE reset_at < ${now} - 3600000`.execute(db)
        if (cost !== 1) return await consumeCost(id, rule, cost, now)
        // The count keeps rising past the limit, so one statement says both "how many" and "allowed"
        // (a refused request is refused only once nothing is left, so it spends nothing that was left).
        const result = await sql<{ count: unknown; reset_at: unknown }>`
          INSERT INTO ${table('rate_limits')} AS cur (key, reset_at, count) VALUES (${id}, ${now} + ${rule.windowMs}, 1)
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN cur.reset_at <= ${now} THEN 1 ELSE cur.count + 1 END,
            reset_at = CASE WHEN cur.reset_at <= ${now} THEN ${now} + ${rule.windowMs} ELSE cur.reset_at END
          RETURNING count, reset_at`.execute(db)
        const row = result.rows[0]
        const count = Number(row?.count ?? 1)
        return resultOf(rule, count, row?.reset_at, count <= rule.limit)
      } catch (error) {
        throw unavailable(error)
      }
    },
  }
}
