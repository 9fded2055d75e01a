/**
 * The API's one output type: every answer is a `Response`. The answers the API makes itself are
 * replies: a {@link LightweightResponse} holding a status, a headers record and a body string,
 * which builds the runtime's native `Response` only when a member needs it.
 *
 * Why: on Node, building a native `Response` (undici wraps even a string body in a stream) and
 * reading it back costs more than the rest of a small request, and every `Headers` change on it
 * costs far more than a property write. So the pipeline adds its headers to the record, and the
 * Node mounts write the parts, read through the {@link REPLY} brand, straight to the socket. Where
 * the host accepts only its own native `Response` (Bun, Deno, workerd, browsers), the handler
 * hands over a native one instead ({@link forHost}).
 */
import { stringifyReply } from './reply-json.js'
import type { ErrorBody, ErrorCode } from './errors.js'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * The brand under which a lightweight response carries its {@link ReplyParts}. A registry symbol, so
 * that a mount from one copy of the package (the CJS build) reads the replies of another (the ESM
 * build) where `instanceof` would fail.
 */
export const REPLY = Symbol.for('tenant-public-api.reply')

/** What a reply is made of: enough to write it to a socket without a native `Response`. */
export interface ReplyParts {
  /** The HTTP status. */
  status: number
  /** Header names in lower case; `set-cookie` never appears (the API sets no cookies). */
  headers: Record<string, string>
  /** The body as text (UTF-8 on the wire), or `null` for none (HEAD, 204). */
  body: string | null
}

/**
 * A `Response` (its prototype chain ends in `Response.prototype`, so `instanceof Response` holds)
 * that answers `status`, `ok` and the constant attributes from its parts, and `text()` and
 * `json()` from its body string while nothing else was used; it builds the native `Response` once,
 * the first time anything else is used (`headers`, `body`, `bytes()`, `clone()`...), delegating to
 * it from then on. From that moment the native one is the truth (its headers may be changed), so
 * the brand no longer offers the parts. A body read by `text()` or `json()` is read as a native
 * one's: `bodyUsed` is true, a second read rejects and `clone()` throws; only `body` differs, null
 * where a native response would give a used stream.
 */
export class LightweightResponse implements Response {
  /** The parts while no native `Response` exists; read by mounts through {@link replyParts}. */
  [REPLY]: ReplyParts | undefined
  #parts: ReplyParts
  #native: Response | undefined = undefined
  #bodyRead = false

  constructor(parts: ReplyParts) {
    this[REPLY] = parts
    this.#parts = parts
  }

  /** The runtime's own `Response` with the same status, headers and body, built once. */
  native(): Response {
    if (this.#native === undefined) {
      const { status, headers, body } = this.#parts
      // A body already read by text() or json() is gone, as it would be from a native response.
      this.#native = new Response(this.#bodyRead ? null : body, { status, headers })
      this[REPLY] = undefined
    }
    return this.#native
  }

  /**
   * The body text, for text() and json() while no native `Response` exists: read from the parts,
   * without the stream undici would build and drain (most of the cost of reading a small reply
   * in process, as test suites and in-process clients do). Null when the native one must answer.
   */
  #takeText(): Promise<string> | null {
    if (this.#bodyRead) return bodyAlreadyRead()
    if (this.#native !== undefined) return null
    this.#bodyRead = true
    this[REPLY] = undefined
    return Promise.resolve(this.#parts.body ?? '')
  }

  get status(): number {
    return this.#parts.status
  }
  get ok(): boolean {
    return this.#parts.status >= 200 && this.#parts.status < 300
  }
  // What a Response constructed from a body and { status, headers } always says.
  get statusText(): string {
    return ''
  }
  get type(): ResponseType {
    return 'default'
  }
  get url(): string {
    return ''
  }
  get redirected(): boolean {
    return false
  }
  get bodyUsed(): boolean {
    return this.#bodyRead || (this.#native?.bodyUsed ?? false)
  }
  get headers(): Headers {
    return this.native().headers
  }
  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.native().body
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bodyRead ? bodyAlreadyRead() : this.native().arrayBuffer()
  }
  blob(): Promise<Blob> {
    return this.#bodyRead ? bodyAlreadyRead() : this.native().blob()
  }
  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#bodyRead ? bodyAlreadyRead() : this.native().bytes()
  }
  formData(): Promise<FormData> {
    return this.#bodyRead ? bodyAlreadyRead() : this.native().formData()
  }
  json(): Promise<unknown> {
    return this.#takeText()?.then((text) => JSON.parse(text) as unknown) ?? this.native().json()
  }
  text(): Promise<string> {
    return this.#takeText() ?? this.native().text()
  }
  clone(): Response {
    if (this.#bodyRead) throw new TypeError('Response.clone: Body has already been consumed.')
    return this.native().clone()
  }
}

function bodyAlreadyRead(): Promise<never> {
  return Promise.reject(new TypeError('Body is unusable: Body has already been read'))
}

/**
 * The runtime's own `Response`: the global one, or the class it extends when a host replaced the
 * global with a subclass of its own (as @hono/node-server does).
 */
function runtimeResponse(): typeof Response {
  let found = Response
  for (let parent = Object.getPrototypeOf(found); typeof parent === 'function' && parent !== Function.prototype; ) {
    found = parent
    parent = Object.getPrototypeOf(parent)
  }
  return found
}

const RUNTIME_RESPONSE = runtimeResponse()
Object.setPrototypeOf(LightweightResponse.prototype, RUNTIME_RESPONSE.prototype)
Object.defineProperty(LightweightResponse.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: LightweightResponse, depth: number, options: object, inspect: (value: unknown, o: object) => string) {
    const parts = this[REPLY]
    const shown = parts === undefined ? { native: this.native() } : { ...parts }
    return `Response (lightweight) ${inspect(shown, { ...options, depth: depth < 0 ? null : depth - 1 })}`
  },
})

/** A reply of the API; the headers object becomes the reply's own (the pipeline adds to it). */
export function reply(status: number, body: string | null, headers: Record<string, string>): LightweightResponse {
  return new LightweightResponse({ status, headers, body })
}

/** The parts of a reply the pipeline is still finishing (no native `Response` exists yet). */
export function partsOf(response: LightweightResponse): ReplyParts {
  return response[REPLY]!
}

/** A JSON reply with the API's content type; the body is serialised once, here (stored records' text is reused). */
export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): LightweightResponse {
  // A fresh record, filled by assignment: a spread copy of a small literal (`{ link }`) takes on its
  // tight shape, and the pipeline's later additions to it (finishResponse) measured several µs slower.
  const all: Record<string, string> = {}
  if (headers !== undefined) for (const name of Object.keys(headers)) all[name] = headers[name]!
  all['content-type'] = JSON_TYPE
  return reply(status, stringifyReply(body), all)
}

/** An Error-shape reply whose `requestId` equals the `X-Request-Id` header the pipeline adds. */
export function errorReply(
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
  details?: unknown,
  headers?: Record<string, string>,
): LightweightResponse {
  const body: ErrorBody = { error: message, code, requestId }
  if (details !== undefined) body.details = details
  return jsonReply(status, body, headers)
}

/**
 * The status, headers and body of a response the API made, for a mount that writes them to a
 * socket itself; `undefined` for any other `Response`, and for one whose native `Response` has
 * been built (its headers may have been changed since: write that one as a `Response`). Works
 * across copies of the package (ESM and CJS builds side by side). The parts are the response's
 * own: a mount that writes them may add transport headers (`content-length`) to the record.
 *
 * @example
 * const response = await api(request)
 * const parts = replyParts(response)
 * if (parts !== undefined) res.writeHead(parts.status, parts.headers).end(parts.body ?? undefined)
 * else await writeResponse(response, req, res) // tenant-public-api/node: streams any Response
 */
export function replyParts(response: Response): ReplyParts | undefined {
  const parts = (response as { [REPLY]?: unknown })[REPLY]
  return parts === undefined || parts === null || typeof parts !== 'object' ? undefined : (parts as ReplyParts)
}

/**
 * The runtime's own `Response` for any `Response`: a lightweight one (from any copy of the package)
 * becomes native, anything else is returned as it is. For mounts whose runtime accepts nothing but
 * its native `Response` (`Bun.serve`, `Deno.serve`); cheap when it is already native.
 *
 * @example
 * Bun.serve({ fetch: async (request) => toNativeResponse(await handler(request)) })
 */
export function toNativeResponse(response: Response): Response {
  if (!(REPLY in response)) return response
  if (response instanceof LightweightResponse) return response.native()
  const parts = replyParts(response)
  if (parts !== undefined) return new Response(parts.body, { status: parts.status, headers: parts.headers })
  // Another copy's, whose native Response exists already: copied through its public members.
  return new Response(response.body, response)
}

/**
 * True where the runtime's `Response` is plain JavaScript that every consumer uses through its
 * public members (Node's undici), so a lightweight response goes anywhere a native one does. Bun,
 * Deno and workerd servers refuse anything but their own `Response`; browsers' `respondWith` too.
 * Node 21+ names itself in `navigator.userAgent`; Node 20 has no `navigator`.
 */
function lightweightResponsesWelcome(): boolean {
  const g = globalThis as {
    Bun?: unknown
    Deno?: unknown
    navigator?: { userAgent?: unknown }
    process?: { release?: { name?: unknown } }
  }
  if (g.Bun !== undefined || g.Deno !== undefined) return false
  const agent = g.navigator?.userAgent
  if (typeof agent === 'string' && !agent.startsWith('Node.js/')) return false
  return g.process?.release?.name === 'node'
}

const LIGHTWEIGHT_HOST = lightweightResponsesWelcome()

/**
 * What the handler hands its host: the lightweight response on Node, the native one elsewhere. A
 * host that replaced the global `Response` (@hono/node-server does, to write the Responses made
 * with it without reading a stream) is handed one made with its constructor, which it writes fastest.
 *
 * @example
 * return forHost(await reply(request))
 */
export const forHost: (response: LightweightResponse) => Response = LIGHTWEIGHT_HOST
  ? (response) => (Response === RUNTIME_RESPONSE ? response : response.native())
  : (response) => response.native()

/**
 * A JSON response with the API's content type and `X-Content-Type-Options: nosniff`, the body
 * serialised once. Lightweight on Node, native elsewhere, like the API's own answers.
 *
 * @example
 * return jsonResponse(400, { error: 'Invalid Host header' }, { 'cache-control': 'no-store' })
 */
export function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): Response {
  const response = jsonReply(status, body, headers)
  partsOf(response).headers['x-content-type-options'] = 'nosniff'
  return forHost(response)
}

/**
 * An Error-shape response as the API answers one: `{ error, code, requestId, details? }` with the
 * same `X-Request-Id` header (so body and header always agree) and `nosniff`. For a mount's own
 * failures, before or around the API (a body parser's 413, a crash of the mount itself).
 *
 * @example
 * const requestId = resolveRequestId(req.headers['x-request-id'] ?? null)
 * return errorResponse(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large', requestId)
 */
export function errorResponse(
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
  details?: unknown,
  headers?: Record<string, string>,
): Response {
  const response = errorReply(status, code, message, requestId, details, headers)
  const own = partsOf(response).headers
  own['x-request-id'] = requestId
  own['x-content-type-options'] = 'nosniff'
  return forHost(response)
}
