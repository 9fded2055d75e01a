/**
 * The `Response` the Node mounts have the API answer with: a status, a headers record and a body
 * string behind `Response.prototype`, which builds the native `Response` only when a member needs
 * it. The bridge's requests carry {@link makeLightweightResponse} under the API's reply-factory key
 * (lightweight-request.ts, native-request.ts), so the API's replies to them are these, and
 * write-response.ts writes their parts straight to the socket.
 *
 * Why: on Node, building a native `Response` (undici wraps even a string body in a stream) and
 * reading it back costs more than the rest of a small request, and every `Headers` change on it
 * costs far more than a property write. Only a mount that writes its replies itself gains from
 * this, so it lives here; any other caller of the API gets a native `Response` (ARCHITECTURE.md,
 * "A request, end to end"), but for the testing kit's own requests (src/testing/test-api.ts), whose
 * callers read replies in process: the testing entry bundles this file.
 */
import type { ReplyParts } from 'tenant-public-api'

/**
 * The brand under which a lightweight response carries its {@link ReplyParts}. A registry symbol, so
 * that a mount from one copy of the package (the CJS build) recognises the responses another's
 * bridge made (the ESM build) where `instanceof` would fail.
 */
const PARTS = Symbol.for('tenant-public-api.reply')

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
class LightweightResponse implements Response {
  /** The parts while no native `Response` exists; read by the mounts through {@link replyParts}. */
  [PARTS]: ReplyParts | undefined
  #parts: ReplyParts
  #native: Response | undefined = undefined
  #bodyRead = false

  constructor(parts: ReplyParts) {
    this[PARTS] = parts
    this.#parts = parts
  }

  // The class's own operations are static, so that the response shows no member a Response has not.

  /** The runtime's own `Response` with the same status, headers and body, built once. */
  static native(response: LightweightResponse): Response {
    if (response.#native === undefined) {
      const { status, headers, body } = response.#parts
      // A body already read by text() or json() is gone, as it would be from a native response.
      response.#native = new Response(response.#bodyRead ? null : body, { status, headers })
      response[PARTS] = undefined
    }
    return response.#native
  }

  /**
   * The body text, for text() and json() while no native `Response` exists: read from the parts,
   * without the stream undici would build and drain. Null when the native one must answer.
   */
  #takeText(): Promise<string> | null {
    if (this.#bodyRead) return bodyAlreadyRead()
    if (this.#native !== undefined) return null
    this.#bodyRead = true
    this[PARTS] = undefined
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
    return LightweightResponse.native(this).headers
  }
  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return LightweightResponse.native(this).body
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bodyRead ? bodyAlreadyRead() : LightweightResponse.native(this).arrayBuffer()
  }
  blob(): Promise<Blob> {
    return this.#bodyRead ? bodyAlreadyRead() : LightweightResponse.native(this).blob()
  }
  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#bodyRead ? bodyAlreadyRead() : LightweightResponse.native(this).bytes()
  }
  formData(): Promise<FormData> {
    return this.#bodyRead ? bodyAlreadyRead() : LightweightResponse.native(this).formData()
  }
  json(): Promise<unknown> {
    return this.#takeText()?.then((text) => JSON.parse(text) as unknown) ?? LightweightResponse.native(this).json()
  }
  text(): Promise<string> {
    return this.#takeText() ?? LightweightResponse.native(this).text()
  }
  clone(): Response {
    if (this.#bodyRead) throw new TypeError('Response.clone: Body has already been consumed.')
    return LightweightResponse.native(this).clone()
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

Object.setPrototypeOf(LightweightResponse.prototype, runtimeResponse().prototype)
Object.defineProperty(LightweightResponse.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: LightweightResponse, depth: number, options: object, inspect: (value: unknown, o: object) => string) {
    const parts = this[PARTS]
    const shown = parts === undefined ? { native: LightweightResponse.native(this) } : { ...parts }
    return `Response (lightweight) ${inspect(shown, { ...options, depth: depth < 0 ? null : depth - 1 })}`
  },
})

/**
 * The bridge's reply factory: the API hands it a finished reply's parts, which become the
 * response's own (write-response.ts adds `content-length` to the record).
 *
 * @example
 * const response = makeLightweightResponse({ status: 204, headers: { allow: 'GET' }, body: null })
 */
export function makeLightweightResponse(parts: ReplyParts): Response {
  return new LightweightResponse(parts)
}

/**
 * The status, headers and body of a lightweight response, for the mount that writes them to a
 * socket itself; `undefined` for any other `Response`, and for one whose native `Response` has
 * been built (its headers may have been changed since: write that one as a `Response`). Works
 * across copies of the package (ESM and CJS builds side by side).
 *
 * @example
 * const parts = replyParts(response)
 * if (parts !== undefined) res.writeHead(parts.status, parts.headers).end(parts.body ?? undefined)
 */
export function replyParts(response: Response): ReplyParts | undefined {
  const parts = (response as { [PARTS]?: unknown })[PARTS]
  return parts === undefined || parts === null || typeof parts !== 'object' ? undefined : (parts as ReplyParts)
}
