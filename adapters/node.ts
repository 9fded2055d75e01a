/**
 * `tenant-public-api/node`: the API as a `node:http` / `node:https` / `node:http2` (compatibility
 * API) request listener.
 *
 * @example
 * import { createServer } from 'node:http'
 * import { createPublicApi, createMemoryStore } from 'tenant-public-api'
 * import { nodeServerOptions, toNodeHandler } from 'tenant-public-api/node'
 *
 * const api = createPublicApi({ store: createMemoryStore(), keyResolver })
 * createServer(nodeServerOptions, toNodeHandler(api)).listen(3000)
 */
import {
  checkOptions,
  errorResponse,
  guardErrorListener,
  type OptionChecks,
  resolveRequestId,
  type PublicApiHandler,
} from 'tenant-public-api'
import type { NodeBridgeOptions, NodeIncoming, NodeOutgoing } from './node-bridge/bridge-types.js'
import { requestFor } from './node-bridge/bridge-request.js'
import { BadRequestTargetError, badRequestTargetResponse } from './node-bridge/request-url.js'
import { respond, writeResponse } from './node-bridge/write-response.js'

export { clientAddress } from './client-address.js'
export type {
  BridgeRequestOverrides,
  NodeBridgeOptions,
  NodeIncoming,
  NodeOutgoing,
} from './node-bridge/bridge-types.js'
export { createNodeRequest } from './node-bridge/bridge-request.js'
export { writeResponse } from './node-bridge/write-response.js'

/**
 * Server timeouts for a public API, to pass to `http.createServer` / `https.createServer`. Node's
 * defaults let a client take 60 s to send its headers and 300 s to send a request, and check for
 * that only every 30 s, so slow-header clients can hold many sockets open for minutes.
 *
 * - `headersTimeout`: 10 s to send the request line and headers;
 * - `requestTimeout`: 30 s to send the whole request (at 1 MiB, the default `maxBodyBytes`, a
 *   35 KB/s client still makes it);
 * - `keepAliveTimeout`: 5 s idle between requests on a kept-alive connection (Node's default);
 * - `connectionsCheckingInterval`: the two timeouts above are enforced every second.
 *
 * @example
 * import { createServer } from 'node:http'
 * import { nodeServerOptions, toNodeHandler } from 'tenant-public-api/node'
 *
 * createServer(nodeServerOptions, toNodeHandler(api)).listen(3000)
 */
export const nodeServerOptions = Object.freeze({
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
})

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions extends NodeBridgeOptions {
  /**
   * Receives a failure of the mount itself (the API answers its own errors). Default: `console.error`.
   * What it throws or rejects with is dropped with one line on stderr; the mount still answers.
   */
  onError?: (error: unknown) => void
}

/** What each option must be: an unknown key or a wrong type is a TypeError when the mount is made. */
const CHECKS: OptionChecks<NodeHandlerOptions> = {
  trustProxy: (value) => (typeof value === 'boolean' ? undefined : 'must be a boolean'),
  defaultHost: (value) => (typeof value === 'string' ? undefined : 'must be a string'),
  onError: (value) => (typeof value === 'function' ? undefined : 'must be a function'),
}

/**
 * Turns the API into a Node request listener `(req, res) => void` for `http.createServer`,
 * `https.createServer` or `http2.createSecureServer` (compatibility API). The request body is
 * streamed to the API (which refuses it with 413 as soon as it passes `maxBodyBytes`), a client
 * that disconnects aborts `request.signal`, and `clientAddress(request)` gives the peer address.
 *
 * @example
 * import { createServer } from 'node:http'
 * import { nodeServerOptions, toNodeHandler } from 'tenant-public-api/node'
 *
 * createServer(nodeServerOptions, toNodeHandler(api, { trustProxy: true })).listen(3000)
 */
export function toNodeHandler(
  api: PublicApiHandler,
  options: NodeHandlerOptions = {},
): (req: NodeIncoming, res: NodeOutgoing) => void {
  checkOptions(options, CHECKS, { name: 'toNodeHandler' })
  const onError = guardErrorListener(
    options.onError ?? ((error: unknown) => console.error('[tenant-public-api] node mount:', error)),
    'node mount onError',
  )
  return (req, res) => {
    let request: Request
    try {
      request = requestFor(api, req, res, options)
    } catch (error) {
      return void writeResponse(mountFailure(req, error, onError), req, res).catch(onError)
    }
    respond(api, request, req, res).catch((error: unknown) => {
      if (res.headersSent) {
        onError(error)
        res.destroy()
      } else writeResponse(mountFailure(req, error, onError), req, res).catch(onError)
    })
  }
}

/**
 * The answer to a failure of the mount itself: a 400 for a target or Host that makes no URL, else
 * (reported to `onError`) the API's 500; both in the Error shape, with the request id the client
 * sent if it is valid.
 */
function mountFailure(req: NodeIncoming, error: unknown, onError: (error: unknown) => void): Response {
  if (error instanceof BadRequestTargetError) return badRequestTargetResponse(error, req)
  onError(error)
  const sent = req.headers['x-request-id']
  const requestId = resolveRequestId((Array.isArray(sent) ? sent[0] : sent) ?? null)
  return errorResponse(500, 'INTERNAL_ERROR', 'An unexpected error occurred', requestId)
}
