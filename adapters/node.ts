/**
 * `tenant-public-api/node`: the API as a `node:http` / `node:https` / `node:http2` (compatibility
 * API) request listener.
 *
 * @example
 * import { createServer } from 'node:http'
 * import { createPublicApi, createMemoryStore } from 'tenant-public-api'
 * import { toNodeHandler } from 'tenant-public-api/node'
 *
 * const api = createPublicApi({ store: createMemoryStore(), keyResolver })
 * createServer(toNodeHandler(api)).listen(3000)
 */
import type { PublicApiHandler } from '../src/create-public-api.js'
import {
  answer,
  BadRequestTargetError,
  createNodeRequest,
  writeJsonError,
  type NodeBridgeOptions,
  type NodeIncoming,
  type NodeOutgoing,
} from './node-bridge.js'

export { clientAddress } from './client-address.js'
export {
  createNodeRequest,
  writeResponse,
  type NodeBridgeOptions,
  type NodeIncoming,
  type NodeOutgoing,
} from './node-bridge.js'

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions extends NodeBridgeOptions {
  /** Receives a failure of the mount itself (the API answers its own errors). Default: `console.error`. */
  onError?: (error: unknown) => void
}

/**
 * Turns the API into a Node request listener `(req, res) => void` for `http.createServer`,
 * `https.createServer` or `http2.createSecureServer` (compatibility API). The request body is
 * streamed to the API (which refuses it with 413 as soon as it passes `maxBodyBytes`), a client
 * that disconnects aborts `request.signal`, and `clientAddress(request)` gives the peer address.
 *
 * @example
 * import { createServer } from 'node:http'
 * import { toNodeHandler } from 'tenant-public-api/node'
 *
 * createServer(toNodeHandler(api, { trustProxy: true })).listen(3000)
 */
export function toNodeHandler(
  api: PublicApiHandler,
  options: NodeHandlerOptions = {},
): (req: NodeIncoming, res: NodeOutgoing) => void {
  const onError = options.onError ?? ((error: unknown) => console.error('[tenant-public-api] node mount:', error))
  return (req, res) => {
    let request: Request
    try {
      request = createNodeRequest(req, res, options)
    } catch (error) {
      if (error instanceof BadRequestTargetError) return writeJsonError(res, 400, error.message)
      onError(error)
      return writeJsonError(res, 500, 'An unexpected error occurred', 'INTERNAL_ERROR')
    }
    answer(api, request, req, res).catch((error: unknown) => {
      onError(error)
      if (!res.headersSent) writeJsonError(res, 500, 'An unexpected error occurred', 'INTERNAL_ERROR')
      else res.destroy()
    })
  }
}
