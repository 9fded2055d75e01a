/**
 * The `Request` the Node mounts hand any handler other than the API itself: a native `Request` (a
 * subclass), so that code which needs one gets one: `new Request(request)` and `fetch(request)`
 * accept only a request the runtime made (Node.js 24 and later check a private field), and
 * `clone()`, `text()` and the rest are the runtime's own.
 *
 * A native Request is a measurable share of a small request's cost (bench/README.md#http), so
 * what can be left out is: it gets no signal (undici follows a signal it is given with listeners
 * and a finaliser); its `signal` is its own, aborted when the client goes away (a copy's signal
 * never aborts). Its body is read from the socket only when someone reads it (`lazyBodyStream`). A
 * GET is made with no init, and the headers are appended to its own list (an init's headers would
 * be converted, then copied); its `headers` answer `get` and `has` from the raw list (raw-headers.ts).
 *
 * It also carries the bridge's reply factory under the API's key (`Symbol.for('tenant-public-api.make-reply')`,
 * docs/mounts.md): the API's answer to it is a lightweight response (lightweight-response.ts).
 */
import type { ReplyParts } from 'tenant-public-api'
import { CLIENT_ADDRESS } from '../client-address.js'
import {
  peerAddress,
  type BridgeRequestOverrides,
  type NodeBridgeOptions,
  type NodeIncoming,
  type NodeOutgoing,
} from './bridge-types.js'
import { fillHeaders, requestHeaders } from './raw-headers.js'
import { makeLightweightResponse } from './lightweight-response.js'
import { bytesBodyStream, clientGoneError, incomingBodyStream, lazyBodyStream, type BodyOwner } from './request-body.js'

/** Where the API looks for a request's reply factory (src/http/reply.ts): a registry symbol, heard across copies. */
const MAKE_REPLY = Symbol.for('tenant-public-api.make-reply')

/** See the file comment. */
class NodeRequest extends Request {
  #incoming: NodeIncoming
  #trustProxy: boolean
  #address: (() => string | undefined) | undefined
  #bodyOverride: Uint8Array | undefined
  // Set only when used: a request object is made per request, and most need neither.
  #headers: Headers | undefined = undefined
  #controller: AbortController | undefined = undefined
  #aborted: { reason: unknown }

  constructor(
    incoming: NodeIncoming,
    url: string,
    options: NodeBridgeOptions,
    overrides: BridgeRequestOverrides | undefined,
  ) {
    const method = incoming.method ?? 'GET'
    const aborted = { reason: undefined as unknown }
    const bytes = overrides?.body
    // A GET is made with no init at all: undici then converts no RequestInit and rebuilds no header list.
    if (method === 'GET') super(url)
    else if (method === 'HEAD') super(url, { method })
    else {
      // The native Request tells `bodyUsed` from its stream; the owner only hears why the client went away.
      const owner: BodyOwner = { markBodyUsed: () => {}, abortReason: () => aborted.reason }
      const body = lazyBodyStream(() =>
        bytes !== undefined ? bytesBodyStream(bytes, owner) : incomingBodyStream(incoming, owner),
      )
      const init: RequestInit & { duplex: 'half' } = { method, body, duplex: 'half' }
      super(url, init)
    }
    // Appended one by one to the request's own list: a Headers or a sequence given in the init
    // would be converted and then copied.
    fillHeaders(super.headers, incoming, bytes)
    this.#incoming = incoming
    this.#trustProxy = options.trustProxy === true
    this.#address = overrides?.address
    this.#bodyOverride = bytes
    this.#aborted = aborted
  }

  // The bridge's own operations are static, so that the request shows no member a Request has not.

  /** Aborts `signal` (and the body stream, if it is still being read). */
  static abort(request: NodeRequest, reason: unknown): void {
    if (request.#aborted.reason !== undefined) return
    request.#aborted.reason = reason
    const controller = request.#controller
    if (controller !== undefined && !controller.signal.aborted) controller.abort(reason)
  }

  override get headers(): Headers {
    return (this.#headers ??= requestHeaders(this.#incoming, this.#bodyOverride, super.headers))
  }

  override get signal(): AbortSignal {
    const controller = (this.#controller ??= new AbortController())
    const { reason } = this.#aborted
    if (reason !== undefined && !controller.signal.aborted) controller.abort(reason)
    return controller.signal
  }

  get [CLIENT_ADDRESS](): string | undefined {
    return this.#address !== undefined ? this.#address() : peerAddress(this.#incoming, this.#trustProxy)
  }

  /** The API's replies to this request: lightweight responses, which write-response.ts writes from their parts. */
  [MAKE_REPLY](parts: ReplyParts): Response {
    return makeLightweightResponse(parts)
  }
}

/**
 * The native `Request` for one Node request whose URL is `url`, tied to the response, so that a
 * client that goes away before the response is finished aborts `request.signal` and the body stream.
 *
 * @example
 * const request = nativeRequest(req, res, requestUrl(req, req.url ?? '/', options), options, undefined)
 */
export function nativeRequest(
  incoming: NodeIncoming,
  outgoing: NodeOutgoing,
  url: string,
  options: NodeBridgeOptions,
  overrides: BridgeRequestOverrides | undefined,
): Request {
  const request = new NodeRequest(incoming, url, options, overrides)
  // 'close' comes once; `on` spares the wrapper `once` would allocate per request.
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) NodeRequest.abort(request, clientGoneError())
  })
  return request
}
