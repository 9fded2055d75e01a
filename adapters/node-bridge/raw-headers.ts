/**
 * A request's headers over Node's raw header list. `get` and `has` (all the API itself asks) read
 * the list directly and answer as a native `Headers` would: case-insensitive, repeated headers
 * joined with ", " (Cookie with "; "), HTTP/2 pseudo-headers left out. Everything else (iteration,
 * `set`, `append`...) is a native `Headers` holding the same list, which then answers `get` and
 * `has` too (the raw list no longer tells what a mutated one holds): the native request's own,
 * filled when it was made (`fillHeaders`), or for the lightweight request one built on first use.
 *
 * Only public members are involved: `new Headers(headers)` and `new Request(url, { headers })`
 * read these headers by iterating them, as they read any iterable of name/value pairs.
 */
import type { NodeIncoming } from './bridge-types.js'

/** A header name as Fetch accepts it (an RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/** Fetch strips leading and trailing HTTP whitespace from header values (Node's parser already does, mostly). */
function trimValue(value: string): string {
  const first = value.charCodeAt(0)
  const last = value.charCodeAt(value.length - 1)
  return first === 32 || first === 9 || last === 32 || last === 9 ? value.replace(/^[\t ]+|[\t ]+$/g, '') : value
}

/** See the file comment. Its prototype chain ends in `Headers.prototype`, so `instanceof Headers` holds. */
class RawHeaders {
  #raw: string[]
  #native: Headers | undefined
  // Set once a member other than get and has was used: from then on the native Headers answers all.
  #delegated = false

  constructor(raw: string[], native: Headers | undefined) {
    this.#raw = raw
    this.#native = native
  }

  get(name: string): string | null {
    if (this.#delegated || !HEADER_NAME.test(name)) return this.native().get(name)
    const raw = this.#raw
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
    if (this.#delegated || !HEADER_NAME.test(name)) return this.native().has(name)
    const raw = this.#raw
    const lower = name.toLowerCase()
    for (let i = 0; i < raw.length; i += 2)
      if (raw[i]!.length === lower.length && raw[i]!.toLowerCase() === lower) return true
    return false
  }

  /** The native Headers, for everything else (and, once used, for get and has too). */
  native(): Headers {
    this.#delegated = true
    if (this.#native === undefined) {
      const headers = new Headers()
      appendRaw(headers, this.#raw)
      this.#native = headers
    }
    return this.#native
  }
}

// Every other member of Headers answers from the native one.
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
  Object.defineProperty(RawHeaders.prototype, name, {
    value(this: RawHeaders, ...args: unknown[]) {
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
Object.setPrototypeOf(RawHeaders.prototype, Headers.prototype)

/** Appends a raw header list (name, value, name, value...) to `target`, HTTP/2 pseudo-headers left out. */
function appendRaw(target: Headers, raw: string[]): void {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    if (name.charCodeAt(0) !== 58 /* : */) target.append(name, raw[i + 1]!)
  }
}

/**
 * Fills a request's own (empty) `Headers` from the raw list, HTTP/2 pseudo-headers left out. When a
 * body read before the bridge replaces the stream, its length replaces `Content-Length`, and
 * `Transfer-Encoding` goes.
 *
 * @example
 * fillHeaders(super.headers, incoming, overrides?.body) // in a native Request subclass's constructor
 */
export function fillHeaders(target: Headers, incoming: NodeIncoming, bodyOverride: Uint8Array | undefined): void {
  appendRaw(target, incoming.rawHeaders)
  if (bodyOverride === undefined) return
  target.delete('transfer-encoding')
  target.set('content-length', String(bodyOverride.byteLength))
}

/**
 * What a request answers as its `headers`: a view that answers `get` and `has` from the raw list
 * over `native` (the native request's own, filled by `fillHeaders`; for the lightweight request
 * none, built on first use), or a native `Headers` itself when a body override changed the list.
 *
 * @example
 * const headers = requestHeaders(incoming, undefined)
 * headers.get('authorization') // read from the raw list; no Headers built
 */
export function requestHeaders(
  incoming: NodeIncoming,
  bodyOverride: Uint8Array | undefined,
  native?: Headers,
): Headers {
  if (bodyOverride === undefined) return new RawHeaders(incoming.rawHeaders, native) as unknown as Headers
  if (native !== undefined) return native
  const headers = new Headers()
  fillHeaders(headers, incoming, bodyOverride)
  return headers
}
