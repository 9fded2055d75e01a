/**
 * A request's headers over Node's raw header list. `get` and `has` (all the API itself asks) read
 * the list directly and answer as a native `Headers` would: case-insensitive, repeated headers
 * joined with ", " (Cookie with "; "), HTTP/2 pseudo-headers left out. Building a native `Headers`
 * validates every header of every request; that happens only when anything else (iteration, `set`,
 * `append`...) is used, once, and everything then answers from it.
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
  #native: Headers | undefined = undefined

  constructor(raw: string[]) {
    this.#raw = raw
  }

  get(name: string): string | null {
    if (this.#native !== undefined || !HEADER_NAME.test(name)) return this.native().get(name)
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
    if (this.#native !== undefined || !HEADER_NAME.test(name)) return this.native().has(name)
    const raw = this.#raw
    const lower = name.toLowerCase()
    for (let i = 0; i < raw.length; i += 2)
      if (raw[i]!.length === lower.length && raw[i]!.toLowerCase() === lower) return true
    return false
  }

  /** The native Headers, built once from the raw list, for everything else. */
  native(): Headers {
    if (this.#native === undefined) {
      const headers = new Headers()
      const raw = this.#raw
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i]!
        if (name.charCodeAt(0) !== 58 /* : */) headers.append(name, raw[i + 1]!)
      }
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

/**
 * The request's headers: over the raw list, or native when a body read before the bridge
 * replaces the stream (its length then replaces `Content-Length`, and `Transfer-Encoding` goes).
 */
export function requestHeaders(incoming: NodeIncoming, bodyOverride: Uint8Array | undefined): Headers {
  const lightweight = new RawHeaders(incoming.rawHeaders)
  if (bodyOverride === undefined) return lightweight as unknown as Headers
  const headers = lightweight.native()
  headers.delete('transfer-encoding')
  headers.set('content-length', String(bodyOverride.byteLength))
  return headers
}
