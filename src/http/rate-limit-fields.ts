/**
 * The rate-limit header fields of every authenticated response: `X-RateLimit-*` as before, and
 * `RateLimit-Policy` / `RateLimit` of draft-ietf-httpapi-ratelimit-headers (structured-field
 * lists, docs/api-behaviour.md#rate-limits). With a tenant bucket beside the key's, both describe
 * the bucket the client must heed: the one that refused the request, else the one with the least left.
 */
import { retryAfterSeconds, type RateLimitResult, writeRateLimitHeaders } from './rate-limit.js'

/**
 * The tenant bucket is counted on the API's own `rateLimiter` under this prefix and the tenant id,
 * so it is shared across processes exactly when the key buckets are.
 */
export const TENANT_BUCKET_PREFIX = 'tenant:'

/** Which bucket a response describes. */
export interface ShownBucket {
  /** The draft's policy name: `key` or `tenant`. */
  name: 'key' | 'tenant'
  result: RateLimitResult
}

/**
 * The bucket to describe: a refusing one first; when both refuse, the one that blocks longest (its
 * reset is the `Retry-After`, so a client following `t` does not retry too early); else the least
 * remaining. The key's on a tie.
 */
export function shownBucket(key: RateLimitResult, tenant: RateLimitResult | undefined): ShownBucket {
  if (tenant === undefined) return { name: 'key', result: key }
  if (key.allowed !== tenant.allowed)
    return key.allowed ? { name: 'tenant', result: tenant } : { name: 'key', result: key }
  if (!key.allowed)
    return tenant.resetAt.getTime() > key.resetAt.getTime()
      ? { name: 'tenant', result: tenant }
      : { name: 'key', result: key }
  return tenant.remaining < key.remaining ? { name: 'tenant', result: tenant } : { name: 'key', result: key }
}

/** Writes `X-RateLimit-*`, `RateLimit-Policy` and `RateLimit` for the shown bucket into `headers`. */
export function writeRateLimitFields(
  headers: Record<string, string>,
  key: RateLimitResult,
  tenant: RateLimitResult | undefined,
  now = Date.now(),
): void {
  // Every response writes these: the usual case (no tenant bucket) allocates no ShownBucket.
  let name: ShownBucket['name'] = 'key'
  let result = key
  if (tenant !== undefined) ({ name, result } = shownBucket(key, tenant))
  writeRateLimitHeaders(headers, result)
  headers['ratelimit-policy'] = policyField(name, result.limit, result.windowMs)
  // The draft's `t` is whole seconds, rounded up; for a refusing bucket exactly the 429's Retry-After
  // (the same instant `now`, the same minimum of 1).
  const reset = result.allowed
    ? Math.max(0, Math.ceil((result.resetAt.getTime() - now) / 1000))
    : retryAfterSeconds(result, now)
  headers.ratelimit = `"${name}";r=${Math.max(0, result.remaining)};t=${reset}`
}

// The policy of a bucket is the same on every response: the last one's text is kept.
let lastPolicy = { name: '', limit: Number.NaN, windowMs: undefined as number | undefined, text: '' }

/** `RateLimit-Policy`'s item: the draft's `w` is whole seconds, the window rounded up. */
function policyField(name: ShownBucket['name'], limit: number, windowMs: number | undefined): string {
  const last = lastPolicy
  if (last.name === name && last.limit === limit && last.windowMs === windowMs) return last.text
  const window = windowMs === undefined ? '' : `;w=${Math.max(1, Math.ceil(windowMs / 1000))}`
  const text = `"${name}";q=${limit}${window}`
  lastPolicy = { name, limit, windowMs, text }
  return text
}
