import { checkOptions, is, type OptionChecks } from '../model/options.js'
import type { RateLimiter, RateLimitResult, RateLimitRule } from '../ports/rate-limiter.js'

export type { RateLimiter, RateLimitResult, RateLimitRule } from '../ports/rate-limiter.js'

/** Options of {@link memoryRateLimiter}. */
export interface MemoryRateLimiterOptions {
  /** Requests per window. Default 120. */
  limit?: number
  /** Window length. Default 60,000 ms. */
  windowMs?: number
  /** The clock, for tests. Default `Date.now`. */
  now?: () => number
}

const MEMORY_CHECKS: OptionChecks<MemoryRateLimiterOptions> = {
  limit: is.integer(1),
  windowMs: is.integer(1),
  now: is.function,
}

/**
 * A fixed-window rate limiter in this process's memory: the default. Use `sqlRateLimiter` (from
 * the Postgres or SQLite entry) when several processes must share one limit.
 *
 * @example
 * createPublicApi({ store, keyResolver, rateLimiter: memoryRateLimiter({ limit: 600, windowMs: 60_000 }) })
 */
export function memoryRateLimiter(options: MemoryRateLimiterOptions = {}): RateLimiter {
  checkOptions(options, MEMORY_CHECKS, { name: 'memoryRateLimiter' })
  const defaults: RateLimitRule = { limit: options.limit ?? 120, windowMs: options.windowMs ?? 60_000 }
  const now = options.now ?? Date.now
  const windows = new Map<string, { resetAt: number; count: number }>()
  let nextSweep = 0

  return {
    countsCost: true,
    consume(key, rule = defaults, cost = 1) {
      const at = now()
      if (at >= nextSweep) {
        // Drop expired windows now and then, so that many one-off keys cannot grow the map forever.
        for (const [k, w] of windows) if (w.resetAt <= at) windows.delete(k)
        nextSweep = at + defaults.windowMs
      }
      const id = `${rule.limit}/${rule.windowMs}/${key}`
      let window = windows.get(id)
      if (window === undefined || window.resetAt <= at) {
        window = { resetAt: at + rule.windowMs, count: 0 }
        windows.set(id, window)
      }
      // Refused, a cost spends nothing: what is left stays left (src/ports/rate-limiter.ts).
      const allowed = window.count + cost <= rule.limit
      if (allowed) window.count += cost
      const remaining = rule.limit - window.count
      return { allowed, limit: rule.limit, remaining, resetAt: new Date(window.resetAt), windowMs: rule.windowMs }
    },
  }
}

/** Writes the `X-RateLimit-*` headers of every authenticated response into `headers`. */
export function writeRateLimitHeaders(headers: Record<string, string>, result: RateLimitResult): void {
  headers['x-ratelimit-limit'] = String(result.limit)
  headers['x-ratelimit-remaining'] = String(Math.max(0, result.remaining))
  headers['x-ratelimit-reset'] = isoString(result.resetAt)
}

// Every request of a window shares its reset instant: format it once, not per request.
let lastResetMs = Number.NaN
let lastResetIso = ''
function isoString(date: Date): string {
  const ms = date.getTime()
  if (ms !== lastResetMs) {
    lastResetIso = date.toISOString()
    lastResetMs = ms
  }
  return lastResetIso
}

/** Whole seconds until the window resets, at least 1: the `Retry-After` of a 429. */
export function retryAfterSeconds(result: RateLimitResult, now = Date.now()): number {
  return Math.max(1, Math.ceil((result.resetAt.getTime() - now) / 1000))
}
