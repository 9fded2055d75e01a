/**
 * What a `keyResolver` must return, checked at the boundary: a host's bug (a `scopes` string, a
 * missing tenant) must become a loud 500 reported to `onError`, never a silent privilege or data
 * error (a string's `includes` would match `tickets.readXX` as `tickets.read`).
 */
import * as v from 'valibot'
import type { RateLimitRule } from '../ports/rate-limiter.js'

export type { RateLimitRule } from '../ports/rate-limiter.js'

const PositiveIntegerSchema = v.pipe(v.number(), v.safeInteger(), v.minValue(1))

/**
 * A per-key rate limit rule: at most `limit` requests per `windowMs`.
 *
 * @example
 * const rule: RateLimitRule = { limit: 600, windowMs: 60_000 }
 */
export const RateLimitRuleSchema = v.object({ limit: PositiveIntegerSchema, windowMs: PositiveIntegerSchema })

/**
 * Who is calling: what `keyResolver` returns for a valid key. Fields beyond these are ignored;
 * scopes this API does not know are ignored too, so a host may share keys with other services.
 *
 * @example
 * v.parse(PrincipalSchema, { tenantId: 't1', keyId: 'k1', scopes: ['tickets.read'], actor: { id: 'u1', name: 'Ada' } })
 */
export const PrincipalSchema = v.object({
  tenantId: v.pipe(v.string(), v.minLength(1)),
  keyId: v.pipe(v.string(), v.minLength(1)),
  scopes: v.array(v.string()),
  actor: v.object({ id: v.string(), name: v.string() }),
  rateLimit: v.optional(RateLimitRuleSchema),
})

/** Who is calling: what `keyResolver` returns for a valid key. */
export interface Principal {
  /** The one tenant this key sees (a non-empty string). */
  tenantId: string
  /** The key's id (a non-empty string): the rate limit is counted per key id. */
  keyId: string
  /** Granted scopes, an array of strings; unknown strings are ignored. */
  scopes: readonly string[]
  /** Becomes `createdBy` / `updatedBy` of what this key writes. */
  actor: { id: string; name: string }
  /** Overrides the rate limiter's own rule for this key (positive integers). */
  rateLimit?: RateLimitRule
}

/**
 * Thrown (and reported to `onError`, answered 500 `INTERNAL_ERROR`) when a `keyResolver` returns
 * something that is not a {@link Principal}: a misconfigured host, never served.
 *
 * @example
 * onError: (error) => { if (error instanceof InvalidPrincipalError) alert(error.message) }
 */
export class InvalidPrincipalError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`keyResolver returned an invalid principal: ${problems.join('; ')}`)
    this.name = 'InvalidPrincipalError'
  }
}

/** What each check of {@link PrincipalSchema} expects, in words: a kind, never a value. */
const EXPECTED_KINDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  array: 'an array',
  object: 'an object',
  min_length: 'a non-empty string',
  safe_integer: 'a whole number',
  min_value: 'a positive number',
}

/**
 * Problems that name a field and the kind it expects, never what was received (valibot's
 * `received` is the value itself: a key, a token a host put there by mistake).
 */
function describe(issues: readonly v.BaseIssue<unknown>[]): string[] {
  const problems = issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => String(item.key)).join('.') || '(the principal)'
    return `${path}: expected ${EXPECTED_KINDS[issue.type] ?? 'another kind of value'}`
  })
  return [...new Set(problems)].slice(0, 10)
}

/**
 * The principal a resolver returned, checked; `null` stays `null` (an unknown key, a 401).
 *
 * @example
 * const principal = checkPrincipal(await keyResolver(token, request))
 */
export function checkPrincipal(value: unknown): Principal | null {
  if (value === null || value === undefined) return null
  const result = v.safeParse(PrincipalSchema, value)
  if (!result.success) throw new InvalidPrincipalError(describe(result.issues))
  return result.output
}
