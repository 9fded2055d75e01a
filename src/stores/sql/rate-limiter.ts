/**
 * A fixed-window rate limiter kept in the store's database, so that every process on that
 * database shares one limit. Each request is one atomic upsert timed by the database's clock.
 */
import { sql } from 'kysely'
import type { RateLimiter, RateLimitResult, RateLimitRule } from '../../ports/rate-limiter.js'
import type { Store } from '../../ports/store.js'
import { sqlStoreInternals } from './sql-store.js'

/** Options of {@link sqlRateLimiter}. */
export interface SqlRateLimiterOptions {
  /** Requests per window. Default 120. */
  limit?: number
  /** Window length. Default 60,000 ms. */
  windowMs?: number
}

/**
 * A rate limiter on a SQL store's database (the `rate_limits` table of its migrations).
 *
 * @example
 * const store = await createPostgresStore({ connectionString })
 * const api = createPublicApi({ store, keyResolver, rateLimiter: sqlRateLimiter(store, { limit: 600 }) })
 */
export function sqlRateLimiter(store: Store, options: SqlRateLimiterOptions = {}): RateLimiter {
  const { db, engine, table, unavailable } = sqlStoreInternals(store)
  const defaults: RateLimitRule = { limit: options.limit ?? 120, windowMs: options.windowMs ?? 60_000 }
  let calls = 0
  return {
    async consume(key, rule = defaults): Promise<RateLimitResult> {
      const id = `${rule.limit}/${rule.windowMs}/${key}`
      const now = engine.nowMs()
      try {
        if (++calls % 1000 === 0)
          await sql`DELETE FROM ${table('rate_limits')} WHERE reset_at < ${now} - 3600000`.execute(db)
        // The count keeps rising past the limit, so one statement says both "how many" and "allowed".
        const result = await sql<{ count: unknown; reset_at: unknown }>`
          INSERT INTO ${table('rate_limits')} AS cur (key, reset_at, count) VALUES (${id}, ${now} + ${rule.windowMs}, 1)
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN cur.reset_at <= ${now} THEN 1 ELSE cur.count + 1 END,
            reset_at = CASE WHEN cur.reset_at <= ${now} THEN ${now} + ${rule.windowMs} ELSE cur.reset_at END
          RETURNING count, reset_at`.execute(db)
        const row = result.rows[0]
        const count = Number(row?.count ?? 1)
        return {
          allowed: count <= rule.limit,
          limit: rule.limit,
          remaining: Math.max(0, rule.limit - count),
          resetAt: new Date(Number(row?.reset_at)),
          windowMs: rule.windowMs,
        }
      } catch (error) {
        throw unavailable(error)
      }
    },
  }
}
