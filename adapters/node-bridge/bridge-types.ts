/** What the Node bridge reads from and writes to, and what a mount may tell it. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2'

/** What the bridge reads a request from: `node:http`/`https` or `node:http2` compatibility API. */
export type NodeIncoming = IncomingMessage | Http2ServerRequest
/** What the bridge writes a response to. */
export type NodeOutgoing = ServerResponse | Http2ServerResponse

/** Options of the Node bridge (and so of `toNodeHandler` and the Express mount). */
export interface NodeBridgeOptions {
  /**
   * Believe `X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-For` (first entries) for the
   * request URL and the client address. Only behind a proxy that sets them. Default `false`.
   */
  trustProxy?: boolean
  /** The host used when a request carries none (HTTP/1.0). Default `localhost`. */
  defaultHost?: string
}

/** What a mount may override when the request stream has already been read (Express body parsers). */
export interface BridgeRequestOverrides {
  /** The URL's path and query, when the framework rewrote `incoming.url` (Express `originalUrl`). */
  target?: string
  /** A body that replaces the already consumed stream; its length replaces `Content-Length`. */
  body?: Uint8Array
  /** Computes the client address instead of the socket (Express `req.ip`). */
  address?: () => string | undefined
}

/** The first entry of a comma-separated header (`X-Forwarded-For: client, proxy`), trimmed. */
export function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (value === undefined) return undefined
  const comma = value.indexOf(',')
  const first = (comma === -1 ? value : value.slice(0, comma)).trim()
  return first === '' ? undefined : first
}

/**
 * The client's address as the socket gives it, or with `trustProxy` the first `X-Forwarded-For`
 * entry when there is one.
 *
 * @example
 * peerAddress(req, options.trustProxy === true) // '203.0.113.7'
 */
export function peerAddress(incoming: NodeIncoming, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const forwarded = firstValue(incoming.headers['x-forwarded-for'])
    if (forwarded !== undefined) return forwarded
  }
  return incoming.socket?.remoteAddress
}
