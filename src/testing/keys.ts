/**
 * Test keys that need no key table: a token `test:<tenantId>:<scopes>` resolves to a principal of
 * that tenant with those scopes (comma-separated, or `*` for every scope).
 */
import { SCOPES, type KeyResolver, type Principal, type RateLimitRule, type Scope } from '../http/auth.js'

/**
 * The token of a test key for `tenantId` with `scopes` (default: every scope).
 *
 * @example
 * testKey('tenant-a', ['tickets.read']) // 'test:tenant-a:tickets.read'
 */
export function testKey(tenantId: string, scopes: readonly Scope[] | '*' = '*'): string {
  return `test:${tenantId}:${scopes === '*' ? '*' : scopes.join(',')}`
}

/**
 * Resolves {@link testKey} tokens; anything else is unknown (401). Every key gets `rateLimit`
 * when given, so tests can provoke 429s without waiting for the default limit.
 *
 * @example
 * const api = createPublicApi({ store, keyResolver: testKeyResolver() })
 * await api(new Request(url, { headers: { authorization: `Bearer ${testKey('tenant-a', ['tickets.read'])}` } }))
 */
export function testKeyResolver(options: { rateLimit?: RateLimitRule } = {}): KeyResolver {
  return (token) => {
    const match = /^test:([^:]+):(.*)$/.exec(token)
    const tenantId = match?.[1]
    const scopeList = match?.[2]
    if (tenantId === undefined || scopeList === undefined) return null
    const scopes = scopeList === '*' ? [...SCOPES] : scopeList.split(',').filter(Boolean)
    const principal: Principal = {
      tenantId,
      keyId: token,
      scopes,
      actor: { id: '00000000-0000-4000-8000-00000000a11c', name: 'Test Key' },
    }
    if (options.rateLimit) principal.rateLimit = options.rateLimit
    return principal
  }
}
