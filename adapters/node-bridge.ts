/**
 * The one bridge between Node's `(IncomingMessage, ServerResponse)` and the Fetch handler, shared by
 * the `node:http`/`https`/`http2`-compat mount and the Express mount.
 *
 * Why it is not just `new Request(...)` / `await response.arrayBuffer()`: on Node 20 a native
 * `Request` with a signal costs ~12 µs and draining a string `Response` through its stream ~40 µs,
 * more than the API's own work for a page of tickets. So the request is a lightweight object that
 * inherits from `Request.prototype` and answers `method`, `url`, `headers`, `signal` and `body`
 * straight from the IncomingMessage; any other member builds the native `Request` once and
 * delegates to it. Responses whose body was given as a string or bytes are written from that
 * source directly; any other body is streamed with back-pressure. Globals are never touched.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2'
import type { PublicApiHandler } from '../src/create-public-api.js'
import { Reply, replyHandlerOf } from '../src/http/responses.js'
import { CLIENT_ADDRESS } from './client-address.js'

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

const kIncoming = Symbol('incoming')
const kUrl = Symbol('url')
const kMethod = Symbol('method')
const kHeaders = Symbol('headers')
const kBody = Symbol('body')
const kBodyOverride = Symbol('bodyOverride')
const kController = Symbol('controller')
const kAbortReason = Symbol('abortReason')
const kNative = Symbol('native')
const kTrustProxy = Symbol('trustProxy')
const kAddress = Symbol('address')
const kDisturbed = Symbol('disturbed')

/** The lightweight request; see the file comment. Its prototype chain ends in `Request.prototype`. */
class NodeRequest {
  [kIncoming]: NodeIncoming;
  [kUrl]: string;
  [kMethod]: string;
  [kTrustProxy]: boolean
  // Set only when used: a request object is made per request, and most need none of these.
  declare [kHeaders]?: Headers
  declare [kBody]?: ReadableStream<Uint8Array> | null
  declare [kBodyOverride]?: Uint8Array
  declare [kController]?: AbortController
  declare [kAbortReason]?: unknown
  declare [kNative]?: Request
  declare [kAddress]?: () => string | undefined
  declare [kDisturbed]?: boolean

  constructor(incoming: NodeIncoming, url: string, method: string, trustProxy: boolean) {
    this[kIncoming] = incoming
    this[kUrl] = url
    this[kMethod] = method
    this[kTrustProxy] = trustProxy
  }

  get method(): string {
    return this[kMethod]
  }

  get url(): string {
    return this[kUrl]
  }

  get headers(): Headers {
    return (this[kHeaders] ??= headersOf(this[kIncoming], this[kBodyOverride]))
  }

  get signal(): AbortSignal {
    const controller = (this[kController] ??= new AbortController())
    if (this[kAbortReason] !== undefined && !controller.signal.aborted) controller.abort(this[kAbortReason])
    return controller.signal
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this[kNative] !== undefined) return this[kNative].body
    if (this[kBody] === undefined) {
      const method = this[kMethod]
      if (method === 'GET' || method === 'HEAD') this[kBody] = null
      else if (this[kBodyOverride] !== undefined) this[kBody] = bytesStream(this[kBodyOverride], this)
      else this[kBody] = incomingStream(this[kIncoming], this)
    }
    return this[kBody]
  }

  get bodyUsed(): boolean {
    return this[kNative] !== undefined ? this[kNative].bodyUsed : this[kDisturbed] === true
  }

  get [CLIENT_ADDRESS](): string | undefined {
    if (this[kAddress] !== undefined) return this[kAddress]()
    const incoming = this[kIncoming]
    if (this[kTrustProxy]) {
      const forwarded = firstValue(incoming.headers['x-forwarded-for'])
      if (forwarded !== undefined) return forwarded
    }
    return incoming.socket?.remoteAddress
  }

  /** The native Request, built once, for everything the lightweight one does not answer itself. */
  native(): Request {
    if (this[kNative] === undefined) {
      const method = this[kMethod]
      const hasBody = method !== 'GET' && method !== 'HEAD'
      const init: RequestInit & { duplex?: 'half' } = { method, headers: this.headers, signal: this.signal }
      if (hasBody) {
        init.body = this.body
        init.duplex = 'half'
      }
      this[kNative] = new Request(this[kUrl], init)
    }
    return this[kNative]
  }

  /** Aborts `signal` (and the body stream, if it is still being read). */
  abort(reason: unknown): void {
    if (this[kAbortReason] !== undefined) return
    this[kAbortReason] = reason
    const controller = this[kController]
    if (controller !== undefined && !controller.signal.aborted) controller.abort(reason)
  }
}

// Members answered by the native Request: body readers and the rarely used Fetch attributes.
for (const name of ['text', 'json', 'arrayBuffer', 'blob', 'formData', 'bytes', 'clone'] as const) {
  Object.defineProperty(NodeRequest.prototype, name, {
    value(this: NodeRequest) {
      const native = this.native() as unknown as Record<string, () => unknown>
      return native[name]!()
    },
    configurable: true,
    writable: true,
  })
}
for (const name of [
  'cache',
  'credentials',
  'destination',
  'duplex',
  'integrity',
  'keepalive',
  'mode',
  'redirect',
  'referrer',
  'referrerPolicy',
  'isHistoryNavigation',
  'isReloadNavigation',
]) {
  Object.defineProperty(NodeRequest.prototype, name, {
    get(this: NodeRequest) {
      return (this.native() as unknown as Record<string, unknown>)[name]
    },
    configurable: true,
  })
}
// The runtime's own internal slots (undici keeps a Request's state under symbols): delegating them
// lets `new Request(request)` and `fetch(request)` accept the lightweight request too.
for (const symbol of Object.getOwnPropertySymbols(new Request('http://localhost/'))) {
  Object.defineProperty(NodeRequest.prototype, symbol, {
    get(this: NodeRequest) {
      return (this.native() as unknown as Record<symbol, unknown>)[symbol]
    },
    configurable: true,
  })
}
Object.setPrototypeOf(NodeRequest.prototype, Request.prototype)

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (value === undefined) return undefined
  const comma = value.indexOf(',')
  const first = (comma === -1 ? value : value.slice(0, comma)).trim()
  return first === '' ? undefined : first
}

/** A header name as Fetch accepts it (an RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const kRaw = Symbol('raw')
const kNativeHeaders = Symbol('nativeHeaders')

/**
 * The request's headers. `get` and `has` (all the API itself asks) read the raw list directly and
 * answer as a native `Headers` would: case-insensitive, repeated headers joined with ", " (Cookie
 * with "; "), HTTP/2 pseudo-headers left out. Building a native `Headers` validates every header of every request;
 * that happens only when anything else (iteration, `set`, `append`...) is used, once.
 */
class NodeHeaders {
  [kRaw]: string[];
  [kNativeHeaders]: Headers | undefined = undefined

  constructor(raw: string[]) {
    this[kRaw] = raw
  }

  get(name: string): string | null {
    if (this[kNativeHeaders] !== undefined || !HEADER_NAME.test(name)) return this.native().get(name)
    const raw = this[kRaw]
    const lower = name.toLowerCase()
    let value: string | null = null
    for (let i = 0; i < raw.length; i += 2) {
      const key = raw[i]!
      if (key.length === lower.length && key.toLowerCase() === lower)
        value =
          value === null
            ? trimValue(raw[i + 1]!)
            : `${value}${lower === 'cookie' ? '; ' : ', '}${trimValue(raw[i + 1]!)}`
    }
    return value
  }

  has(name: string): boolean {
    if (this[kNativeHeaders] !== undefined || !HEADER_NAME.test(name)) return this.native().has(name)
    const raw = this[kRaw]
    const lower = name.toLowerCase()
    for (let i = 0; i < raw.length; i += 2)
      if (raw[i]!.length === lower.length && raw[i]!.toLowerCase() === lower) return true
    return false
  }

  /** The native Headers, built once from the raw list, for everything else. */
  native(): Headers {
    if (this[kNativeHeaders] === undefined) {
      const headers = new Headers()
      const raw = this[kRaw]
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i]!
        if (name.charCodeAt(0) !== 58 /* : */) headers.append(name, raw[i + 1]!)
      }
      this[kNativeHeaders] = headers
    }
    return this[kNativeHeaders]
  }
}

for (const name of [
  'append',
  'delete',
  'set',
  'getSetCookie',
  'keys',
  'values',
  'entries',
  'forEach',
  Symbol.iterator,
] as const) {
  Object.defineProperty(NodeHeaders.prototype, name, {
    value(this: NodeHeaders, ...args: unknown[]) {
      const native = this.native() as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>
      return name === 'forEach'
        ? native.forEach!((value: unknown, key: unknown) =>
            (args[0] as (v: unknown, k: unknown, h: unknown) => void).call(args[1], value, key, this),
          )
        : native[name]!(...args)
    },
    configurable: true,
    writable: true,
  })
}
// undici's own state, so that `new Headers(headers)` and `new Request(url, { headers })` see the native one.
for (const symbol of Object.getOwnPropertySymbols(new Headers())) {
  Object.defineProperty(NodeHeaders.prototype, symbol, {
    get(this: NodeHeaders) {
      return (this.native() as unknown as Record<symbol, unknown>)[symbol]
    },
    configurable: true,
  })
}
Object.setPrototypeOf(NodeHeaders.prototype, Headers.prototype)

/** Fetch strips leading and trailing HTTP whitespace from header values (Node's parser already does, mostly). */
function trimValue(value: string): string {
  const first = value.charCodeAt(0)
  const last = value.charCodeAt(value.length - 1)
  return first === 32 || first === 9 || last === 32 || last === 9 ? value.replace(/^[\t ]+|[\t ]+$/g, '') : value
}

/** The request's headers: lightweight from the raw list, or native when a pre-read body changes them. */
function headersOf(incoming: NodeIncoming, override: Uint8Array | undefined): Headers {
  const lightweight = new NodeHeaders(incoming.rawHeaders)
  if (override === undefined) return lightweight as unknown as Headers
  const headers = lightweight.native()
  headers.delete('transfer-encoding')
  headers.set('content-length', String(override.byteLength))
  return headers
}

const abortError = () => new DOMException('The client closed the connection before the request was read', 'AbortError')

/**
 * The request body as a stream, read as the handler pulls (which applies the size limit as it
 * reads). Cancelling it stops reading and lets the rest of the body be discarded; the connection is
 * then closed after the response (see {@link writeResponse}).
 */
function incomingStream(incoming: NodeIncoming, request: NodeRequest): ReadableStream<Uint8Array> {
  let cleanup = () => {}
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (incoming.readableEnded) {
          controller.close()
          return
        }
        if (incoming.destroyed) {
          controller.error(request[kAbortReason] ?? abortError())
          return
        }
        const onData = (chunk: Uint8Array) => {
          request[kDisturbed] = true
          controller.enqueue(chunk)
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause()
        }
        const onEnd = () => {
          cleanup()
          controller.close()
        }
        const onError = (error: unknown) => {
          cleanup()
          // Node reports a dropped upload as `Error: aborted` (ECONNRESET): it is the client's abort.
          const dropped = (error as { code?: unknown }).code === 'ECONNRESET' || (error as Error).message === 'aborted'
          controller.error(dropped ? (request[kAbortReason] ?? abortError()) : error)
        }
        const onClose = () => {
          if (incoming.readableEnded) return
          cleanup()
          controller.error(request[kAbortReason] ?? abortError())
        }
        cleanup = () => {
          incoming.off('data', onData)
          incoming.off('end', onEnd)
          incoming.off('error', onError)
          incoming.off('close', onClose)
        }
        incoming.on('data', onData)
        incoming.on('end', onEnd)
        incoming.on('error', onError)
        incoming.on('close', onClose)
      },
      pull() {
        incoming.resume()
      },
      cancel() {
        cleanup()
        // Discard what is still coming rather than leave it stuck in the socket.
        incoming.resume()
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
}

function bytesStream(bytes: Uint8Array, request: NodeRequest): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      request[kDisturbed] = true
      if (bytes.byteLength > 0) controller.enqueue(bytes)
      controller.close()
    },
  })
}

/** Thrown for a request whose target or Host cannot make a URL; mounts answer it with a 400. */
export class BadRequestTargetError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BadRequestTargetError'
  }
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
    if (FORBIDDEN_IN_HOST.test(host)) throw new BadRequestTargetError('Invalid Host header')
    try {
      origin = new URL(key).origin
    } catch {
      throw new BadRequestTargetError('Invalid Host header')
    }
    if (origin === 'null') throw new BadRequestTargetError('Invalid Host header')
    if (origins.size >= 1000) origins.clear()
    origins.set(key, origin)
  }
  return origin
}

function requestUrl(incoming: NodeIncoming, target: string, options: NodeBridgeOptions): string {
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

/**
 * Builds the `Request` for one Node request: cheap (no native Request, no Headers, no stream until
 * they are used) and tied to the response, so that a client that goes away before the response is
 * finished aborts `request.signal` and the body stream.
 *
 * @example
 * const request = createNodeRequest(req, res, { trustProxy: false })
 * const response = await api(request)
 * await writeResponse(response, req, res)
 */
export function createNodeRequest(
  incoming: NodeIncoming,
  outgoing: NodeOutgoing,
  options: NodeBridgeOptions = {},
  overrides: BridgeRequestOverrides = {},
): Request {
  const method = incoming.method ?? 'GET'
  const url = requestUrl(incoming, overrides.target ?? incoming.url ?? '/', options)
  const request = new NodeRequest(incoming, url, method, options.trustProxy === true)
  if (overrides.body !== undefined) request[kBodyOverride] = overrides.body
  if (overrides.address !== undefined) request[kAddress] = overrides.address
  // 'close' comes once; `on` spares the wrapper `once` would allocate per request.
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) request.abort(abortError())
  })
  return request as unknown as Request
}

// On Node, undici keeps a Response's body source (the string or bytes it was made from) in its
// internal state; writing that source skips a stream read that costs more than the whole request.
const kResponseState = Object.getOwnPropertySymbols(new Response(null)).find((symbol) => symbol.description === 'state')

function bufferedSource(response: Response): string | Uint8Array | undefined {
  if (kResponseState === undefined || response.bodyUsed || response.body?.locked) return undefined
  const state = (response as unknown as Record<symbol, { body?: { source?: unknown } | null } | undefined>)[
    kResponseState
  ]
  const source = state?.body?.source
  return typeof source === 'string' || source instanceof Uint8Array ? source : undefined
}

function headerRecord(response: Response): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {}
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') record[name] = value
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) record['set-cookie'] = cookies
  return record
}

function waitForDrain(outgoing: NodeOutgoing): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done)
      outgoing.off('close', done)
      resolve()
    }
    outgoing.on('drain', done)
    outgoing.on('close', done)
  })
}

/**
 * Answers a Node request with the API: through its plain reply when the handler is one
 * `createPublicApi` made (no native `Response` is built: on Node that costs more than the rest of
 * a small request), else through the `Response` it returns.
 *
 * @example
 * await answer(api, request, req, res)
 */
export async function answer(
  api: PublicApiHandler,
  request: Request,
  incoming: NodeIncoming,
  outgoing: NodeOutgoing,
): Promise<void> {
  const reply = replyHandlerOf(api)
  if (reply === undefined) return writeResponse(await api(request), incoming, outgoing)
  const result = await reply(request)
  if (!(result instanceof Reply)) return writeResponse(result, incoming, outgoing)
  if (outgoing.destroyed) return
  // The reply is this request's own (the pipeline builds one per request): its headers are written as they are.
  const headers = result.headers
  if (!incoming.complete && incoming.httpVersionMajor === 1) headers.connection = 'close'
  if (result.body === null) {
    outgoing.writeHead(result.status, headers)
    outgoing.end()
    return
  }
  headers['content-length'] = String(Buffer.byteLength(result.body))
  outgoing.writeHead(result.status, headers)
  ;(outgoing as ServerResponse).end(result.body)
}

/**
 * Writes a Fetch `Response` to a Node response: status, headers (`Set-Cookie` kept apart), then the
 * body from its string/bytes source in one write, or streamed chunk by chunk, waiting for `drain`
 * whenever `write()` says the socket is full and stopping when the client goes away. When the
 * request body was not read to its end (a 413, or an answer that did not need it), the HTTP/1
 * connection is closed after the response instead of being kept alive with unread bytes in it.
 *
 * @example
 * await writeResponse(await api(request), req, res)
 */
export async function writeResponse(response: Response, incoming: NodeIncoming, outgoing: NodeOutgoing): Promise<void> {
  if (outgoing.destroyed) {
    // The client is gone: nothing to write, but release the body's source.
    await response.body?.cancel().catch(() => {})
    return
  }
  const headers = headerRecord(response)
  if (!incoming.complete && incoming.httpVersionMajor === 1) headers.connection = 'close'
  const source = bufferedSource(response)
  if (source !== undefined || response.body === null) {
    if (source !== undefined && headers['content-length'] === undefined) {
      headers['content-length'] = String(typeof source === 'string' ? Buffer.byteLength(source) : source.byteLength)
    }
    outgoing.writeHead(response.status, headers)
    // Written as it is: a string goes out as UTF-8 without an intermediate copy.
    if (source === undefined) outgoing.end()
    else (outgoing as ServerResponse).end(source)
    return
  }
  outgoing.writeHead(response.status, headers)
  const reader = response.body.getReader()
  const stop = () => void reader.cancel().catch(() => {})
  outgoing.on('close', stop)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (outgoing.destroyed) return
      if (!(outgoing as ServerResponse).write(value)) await waitForDrain(outgoing)
    }
    outgoing.end()
  } catch (error) {
    outgoing.destroy(error instanceof Error ? error : new Error(String(error)))
  } finally {
    outgoing.off('close', stop)
  }
}

/**
 * Writes a small JSON Error-shape answer (for failures before the API is reached, like a request
 * target that makes no URL).
 *
 * @example
 * writeJsonError(res, 400, 'Invalid Host header')
 */
export function writeJsonError(outgoing: NodeOutgoing, status: number, message: string, code?: string): void {
  const body = JSON.stringify(code === undefined ? { error: message } : { error: message, code })
  outgoing.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
  })
  ;(outgoing as ServerResponse).end(body)
}
