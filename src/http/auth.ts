import { ApiError } from './errors.js'
import { hasScope, type Scope } from '../model/scopes.js'
import { checkPrincipal, type Principal } from './principal.js'

export { grantingScopes, hasScope, SCOPES, type Scope } from '../model/scopes.js'

export type { Principal, RateLimitRule } from './principal.js'

/**
 * Resolves a bearer token to a principal, or `null` for an unknown or revoked key.
 *
 * @example
 * const keyResolver: KeyResolver = async (token) => (await db.apiKeys.find(hash(token)))?.principal ?? null
 */
export type KeyResolver = (token: string, request: Request) => Principal | null | Promise<Principal | null>

const BEARER = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i

/**
 * The token of an `Authorization: Bearer <token>` header, or `null`.
 *
 * @example
 * bearerToken('Bearer tpa_123') // 'tpa_123'
 */
export function bearerToken(header: string | null): string | null {
  if (header === null) return null
  return BEARER.exec(header)?.[1] ?? null
}

/**
 * Authenticates a request: 401 `UNAUTHORIZED` (with `WWW-Authenticate: Bearer`) unless the
 * bearer token resolves to a principal.
 */
export async function authenticate(request: Request, keyResolver: KeyResolver): Promise<Principal> {
  const token = bearerToken(request.headers.get('authorization'))
  const principal = token === null ? null : checkPrincipal(await keyResolver(token, request))
  if (principal === null) {
    throw new ApiError('UNAUTHORIZED', 'A valid API key is required: send Authorization: Bearer <key>', undefined, {
      'www-authenticate': token === null ? 'Bearer realm="api"' : 'Bearer realm="api", error="invalid_token"',
    })
  }
  return principal
}

/** 403 `INSUFFICIENT_SCOPE` unless the principal holds `required`. */
export function requireScope(principal: Principal, required: Scope): void {
  if (!hasScope(principal.scopes, required)) {
    throw new ApiError('INSUFFICIENT_SCOPE', `This key lacks the ${required} scope`, { requiredScopes: [required] })
  }
}
