/**
 * The `Request` the Node mounts hand the API itself (a handler `createPublicApi` made, which says so:
 * bridge-request.ts). The API reads `method`, `url`, `headers.get` and `has`, the body stream and
 * `signal`, which this one answers straight from the IncomingMessage: no native `Request`, no
 * `Headers`, no stream is built unless used (a native Request is a measurable share of a small
 * request's cost: bench/README.md#http). It inherits from `Request.prototype`.
 *
 * Every other member (the body readers, `clone()`, the rarely read Fetch attributes) comes from a
 * native `Request` built once from the public members above. Nothing here names those members: a
 * Proxy between this class and `Request.prototype` sees each lookup that reaches it. What it cannot
 * be is a request the runtime made: undici's `new Request(request)` and `fetch(request)` check a
 * private field (Node.js 24 and later), so code the API hands it to (a `keyResolver`, `onError`)
 * passes `request.clone()` there, a native copy (docs/mounts.md). Globals are never touched.
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
import { requestHeaders } from './raw-headers.js'
import { makeLightweightResponse } from './lightweight-response.js'
import { bytesBodyStream, clientGoneError, incomingBodyStream, type BodyOwner } from './request-body.js'

/** Where the API looks for a request's reply factory (src/http/reply.ts): a registry symbol, heard across copies. */
const MAKE_REPLY = Symbol.for('tenant-public-api.make-reply')

/** See the file comment. */
class LightweightRequest {
  #incoming: NodeIncoming
  #url: string
  #method: string
  #trustProxy: boolean
  // Set only when used: a request object is made per request, and most need none of these.
  #headers: Headers | undefined = undefined
  #body: ReadableStream<Uint8Array> | null | undefined = undefined
  #bodyOverride: Uint8Array | undefined = undefined
  #bodyUsed = false
  #controller: AbortController | undefined = undefined
  #abortReason: unknown = undefined
  #native: Request | undefined = undefined
  #address: (() => string | undefined) | undefined = undefined

  constructor(
    incoming: NodeIncoming,
    url: string,
    options: NodeBridgeOptions,
    overrides: BridgeRequestOverrides | undefined,
  ) {
    this.#incoming = incoming
    this.#url = url
    this.#method = incoming.method ?? 'GET'
    this.#trustProxy = options.trustProxy === true
    if (overrides !== undefined) {
      this.#bodyOverride = overrides.body
      this.#address = overrides.address
    }
  }

  // The bridge's own operations are static, so that the request shows no member a Request has not.

  /** True for a request of this class (and not merely something whose prototype chain leads here). */
  static is(value: unknown): value is LightweightRequest {
    return typeof value === 'object' && value !== null && #incoming in value
  }

  /** Aborts `signal` (and the body stream, if it is still being read). */
  static abort(request: LightweightRequest, reason: unknown): void {
    if (request.#abortReason !== undefined) return
    request.#abortReason = reason
    const controller = request.#controller
    if (controller !== undefined && !controller.signal.aborted) controller.abort(reason)
  }

  /** The native Request, built once from the public members, for everything the lightweight one does not answer. */
  static native(request: LightweightRequest): Request {
    if (request.#native === undefined) {
      const method = request.#method
      const init: RequestInit & { duplex?: 'half' } = { method, headers: request.headers, signal: request.signal }
      if (method !== 'GET' && method !== 'HEAD') {
        init.body = request.body
        init.duplex = 'half'
      }
      request.#native = new Request(request.#url, init)
    }
    return request.#native
  }

  get method(): string {
    return this.#method
  }

  get url(): string {
    return this.#url
  }

  get headers(): Headers {
    return (this.#headers ??= requestHeaders(this.#incoming, this.#bodyOverride))
  }

  get signal(): AbortSignal {
    const controller = (this.#controller ??= new AbortController())
    if (this.#abortReason !== undefined && !controller.signal.aborted) controller.abort(this.#abortReason)
    return controller.signal
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#native !== undefined) return this.#native.body
    if (this.#body === undefined) {
      const method = this.#method
      if (method === 'GET' || method === 'HEAD') this.#body = null
      else {
        const owner: BodyOwner = {
          markBodyUsed: () => {
            this.#bodyUsed = true
          },
          abortReason: () => this.#abortReason,
        }
        const override = this.#bodyOverride
        this.#body =
          override !== undefined ? bytesBodyStream(override, owner) : incomingBodyStream(this.#incoming, owner)
      }
    }
    return this.#body
  }

  get bodyUsed(): boolean {
    return this.#native !== undefined ? this.#native.bodyUsed : this.#bodyUsed
  }

  get [CLIENT_ADDRESS](): string | undefined {
    return this.#address !== undefined ? this.#address() : peerAddress(this.#incoming, this.#trustProxy)
  }

  /** The API's replies to this request: lightweight responses, which write-response.ts writes from their parts. */
  [MAKE_REPLY](parts: ReplyParts): Response {
    return makeLightweightResponse(parts)
  }
}

/** Well-known symbols (`Symbol.iterator`, `Symbol.toPrimitive`...): asked of any object, never a Request's state. */
const WELL_KNOWN_SYMBOLS = new Set(
  Object.getOwnPropertyNames(Symbol)
    .map((name) => (Symbol as unknown as Record<string, unknown>)[name])
    .filter((value) => typeof value === 'symbol'),
)

/**
 * Which lookups the native Request answers: the members of `Request.prototype` this class does not
 * define, and symbols private to some module (neither registered nor well-known), which is where a
 * runtime keeps a Request's state. Anything else (a router's `request.params`, `then`) is plainly
 * absent, and costs no native Request.
 */
function answeredByNative(key: string | symbol): boolean {
  if (typeof key === 'string') return key in Request.prototype
  return Symbol.keyFor(key) === undefined && !WELL_KNOWN_SYMBOLS.has(key)
}

const requestPrototype = Object.create(Request.prototype) as object
Object.setPrototypeOf(
  LightweightRequest.prototype,
  new Proxy(requestPrototype, {
    get(target, key, receiver) {
      if (!LightweightRequest.is(receiver) || !answeredByNative(key)) return Reflect.get(target, key, receiver)
      const native = LightweightRequest.native(receiver)
      const value = Reflect.get(native, key)
      // Methods run on the native Request, whose state they read.
      return typeof value === 'function' ? value.bind(native) : value
    },
  }),
)

/**
 * The lightweight `Request` for one Node request whose URL is `url`: cheap (no native Request, no
 * Headers, no stream until they are used) and tied to the response, so that a client that goes
 * away before the response is finished aborts `request.signal` and the body stream.
 *
 * @example
 * const request = lightweightRequest(req, res, requestUrl(req, req.url ?? '/', options), options, undefined)
 */
export function lightweightRequest(
  incoming: NodeIncoming,
  outgoing: NodeOutgoing,
  url: string,
  options: NodeBridgeOptions,
  overrides: BridgeRequestOverrides | undefined,
): Request {
  const request = new LightweightRequest(incoming, url, options, overrides)
  // 'close' comes once; `on` spares the wrapper `once` would allocate per request.
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) LightweightRequest.abort(request, clientGoneError())
  })
  return request as unknown as Request
}
