/**
 * The rate limiter port: what the pipeline asks of a limiter, and what every limiter (in memory,
 * SQL, Redis) implements. Types only, beside the store port, so that stores implement it without
 * depending on the HTTP layer.
 */

/** A per-key rate limit rule: at most `limit` requests per `windowMs`. */
export interface RateLimitRule {
  limit: number
  windowMs: number
}

/** The outcome of one `consume` call. */
export interface RateLimitResult {
  allowed: boolean
  limit: number
  remaining: number
  resetAt: Date
  /** The window's length, for the `w` of `RateLimit-Policy` (left out when a limiter does not say). */
  windowMs?: number
}

/**
 * Counts requests per API key. `consume` is called once per authenticated request; `rule` is the
 * principal's own `rateLimit` when it has one. Implementations must be atomic: N concurrent calls
 * allow at most `limit` of them per window. A limiter whose backend is down may throw
 * `StoreUnavailableError` (503).
 *
 * `cost` is how many requests the call counts at once (an MCP POST counts one per JSON-RPC
 * message, docs/mcp.md); it is passed only above 1, and only to a limiter that declares
 * `countsCost: true`. Such a limiter counts the cost atomically: allowed when the window has `cost`
 * requests left, and then it spends them all; refused, it spends nothing, so `remaining` is what it
 * was. A limiter without `countsCost` is asked `cost` times instead, one request each, stopping at
 * the first refusal: a refused POST then keeps spent what was counted before the refusal.
 *
 * @example
 * const limiter: RateLimiter = { consume: (key) => ({ allowed: true, limit: 1, remaining: 1, resetAt: new Date() }) }
 */
export interface RateLimiter {
  consume(key: string, rule?: RateLimitRule, cost?: number): RateLimitResult | Promise<RateLimitResult>
  /** True when `consume` counts its `cost` argument atomically (every built-in limiter does). */
  readonly countsCost?: boolean
}
