/**
 * The request's absolute URL, from its target and `Host` (or `:authority`), without `new URL` for
 * the plain targets nearly every request has.
 */
import { errorResponse, resolveRequestId } from 'tenant-public-api'
import { firstValue, type NodeBridgeOptions, type NodeIncoming } from './bridge-types.js'

/** Thrown for a request whose target or Host cannot make a URL; mounts answer it with a 400. */
export class BadRequestTargetError extends Error {
  constructor(
    message: string,
    /** What made no URL: the `Host` header (or `X-Forwarded-Host`, `:authority`) or the request target. */
    readonly part: 'host' | 'target' = 'target',
  ) {
    super(message)
    this.name = 'BadRequestTargetError'
  }
}

/**
 * The mounts' 400 for a {@link BadRequestTargetError}: the API's Error shape (`VALIDATION_ERROR`,
 * naming the header, never echoing it) with the request id the client sent if it is valid, as in
 * the body's `requestId` and the `X-Request-Id` header alike.
 */
export function badRequestTargetResponse(error: BadRequestTargetError, incoming: NodeIncoming): Response {
  const sent = incoming.headers['x-request-id']
  const requestId = resolveRequestId((Array.isArray(sent) ? sent[0] : sent) ?? null)
  const details =
    error.part === 'host'
      ? [{ in: 'header', path: 'host', message: 'Must be a host name or IP address, with an optional port' }]
      : undefined
  return errorResponse(400, 'VALIDATION_ERROR', error.message, requestId, details, { 'cache-control': 'no-store' })
}

// Targets made only of characters that a URL parser leaves alone (no dot segments, no backslash,
// no quote, no fragment) are used as they are; the rest go through `new URL`.
const PLAIN_TARGET = /^\/[!$%&(-;=?-[\]_a-z~]*$/
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/
const FORBIDDEN_IN_HOST = /[/?#@\\\s]/

// A server sees few distinct Host values; each is validated and normalised by `new URL` once.
const origins = new Map<string, string>()

function originOf(scheme: string, host: string): string {
  const key = `${scheme}://${host}`
  let origin = origins.get(key)
  if (origin === undefined) {
    if (FORBIDDEN_IN_HOST.test(host)) throw new BadRequestTargetError('Invalid Host header', 'host')
    try {
      origin = new URL(key).origin
    } catch {
      throw new BadRequestTargetError('Invalid Host header', 'host')
    }
    if (origin === 'null') throw new BadRequestTargetError('Invalid Host header', 'host')
    if (origins.size >= 1000) origins.clear()
    origins.set(key, origin)
  }
  return origin
}

/**
 * The absolute URL of a request whose target is `target` (origin form `/path?query`, or absolute
 * form as sent to proxies). Throws {@link BadRequestTargetError} when no URL can be made.
 */
export function requestUrl(incoming: NodeIncoming, target: string, options: NodeBridgeOptions): string {
  if (target.charCodeAt(0) !== 47 /* / */) {
    // Absolute form (`GET http://host/path`, sent to proxies); anything else (`*`) has no URL here.
    if (/^https?:\/\//i.test(target)) {
      try {
        return new URL(target).href
      } catch {
        throw new BadRequestTargetError('Invalid request target')
      }
    }
    throw new BadRequestTargetError('Invalid request target')
  }
  const headers = incoming.headers
  const http2 = headers[':authority'] !== undefined || headers[':scheme'] !== undefined
  let scheme = http2
    ? String(headers[':scheme'] ?? 'https')
    : (incoming.socket as { encrypted?: boolean } | null)?.encrypted
      ? 'https'
      : 'http'
  let host = http2 ? String(headers[':authority'] ?? headers.host ?? '') : (headers.host ?? '')
  if (options.trustProxy) {
    const proto = firstValue(headers['x-forwarded-proto'])?.toLowerCase()
    if (proto === 'http' || proto === 'https') scheme = proto
    host = firstValue(headers['x-forwarded-host']) ?? host
  }
  const origin = originOf(scheme, host === '' ? (options.defaultHost ?? 'localhost') : host)
  if (PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(target)) return origin + target
  if (target.includes('\\')) throw new BadRequestTargetError('Invalid request target')
  try {
    return new URL(origin + target).href
  } catch {
    throw new BadRequestTargetError('Invalid request target')
  }
}
