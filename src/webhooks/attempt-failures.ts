/**
 * What a tenant reads of a failed attempt (`error` on `GET /webhook-endpoints/{id}/deliveries`): a
 * short reason and the URL's host, `hooks.example.com: connection refused`, derived from the error's
 * code by one table. Never a library's message: Node's and OpenSSL's name addresses, source files
 * and internal states (`ssl3_record.c:350`), which say nothing to a tenant and something to an
 * attacker. The reasons are listed in docs/webhooks.md.
 */

/** An error code's reason, exactly; else {@link REASON_BY_PREFIX}. */
const REASON_BY_CODE: ReadonlyMap<string, string> = new Map(
  Object.entries({
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    EPIPE: 'connection reset',
    ECONNABORTED: 'connection reset',
    ETIMEDOUT: 'timed out connecting',
    EHOSTUNREACH: 'host unreachable',
    EHOSTDOWN: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ENETDOWN: 'network unreachable',
    // OpenSSL's errors that Node gives no code of their own (a record that is not TLS, an alert).
    EPROTO: 'TLS handshake failed',
    CERT_HAS_EXPIRED: 'TLS certificate expired',
    CERT_NOT_YET_VALID: 'TLS certificate not yet valid',
    ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate not trusted',
    SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate not trusted',
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
    UNABLE_TO_GET_ISSUER_CERT: 'TLS certificate not trusted',
    UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'TLS certificate not trusted',
    CERT_UNTRUSTED: 'TLS certificate not trusted',
    CERT_REVOKED: 'TLS certificate revoked',
  }),
)

/** Families of codes: OpenSSL's (`ERR_SSL_*`), Node's TLS layer's, X.509's (`CERT_*`) and the HTTP parser's. */
const REASON_BY_PREFIX: readonly (readonly [prefix: string, reason: string])[] = [
  ['ERR_SSL_', 'TLS handshake failed'],
  ['ERR_TLS_', 'TLS handshake failed'],
  ['CERT_', 'TLS certificate invalid'],
  ['HPE_', 'invalid HTTP response'],
]

/** The reason of an error whose code the table does not know (its message is never shown). */
export const UNKNOWN_FAILURE = 'connection failed'

/**
 * The short reason of a failed request's `error` (see the module comment): by its `code`, or
 * {@link UNKNOWN_FAILURE}.
 *
 * @example
 * failureReason(Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:443'), { code: 'ECONNREFUSED' }))
 * // 'connection refused'
 */
export function failureReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return UNKNOWN_FAILURE
  const exact = REASON_BY_CODE.get(code)
  if (exact !== undefined) return exact
  return REASON_BY_PREFIX.find(([prefix]) => code.startsWith(prefix))?.[1] ?? UNKNOWN_FAILURE
}

/**
 * A failed attempt's `error` as tenants see it: `reason` after the URL's host (and port when it is not
 * the scheme's), or `reason` alone for a URL that names none.
 *
 * @example
 * attemptError(new URL('https://hooks.example.com:8443/in'), 'status 503') // 'hooks.example.com:8443: status 503'
 */
export function attemptError(url: URL | null, reason: string): string {
  return url === null || url.host === '' ? reason : `${url.host}: ${reason}`
}
