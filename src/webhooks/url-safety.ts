/**
 * One webhook POST, made safely (docs/extensions.md section 4, URL safety): the host is resolved
 * and every address checked at each delivery, the socket connects to the address that was checked
 * (its `lookup` returns it, so a second DNS answer cannot rebind the name to a private address),
 * connecting and the whole attempt are timed out, redirects are never followed and at most 4 KiB
 * of the answer is read. Node's own `http`/`https` rather than `fetch`: `fetch` (undici) offers no
 * per-request `lookup` without a dispatcher package, and pinning the address is the point.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import * as http from 'node:http'
import * as https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { isForbiddenAddress, webhookUrlProblem } from '../model/webhook-urls.js'

/** Resolves a host name to its addresses (IPv4 and IPv6), like `dns.lookup(host, { all: true })`. */
export type WebhookResolver = (hostname: string) => Promise<readonly { address: string; family: 4 | 6 }[]>

/** The system resolver (`getaddrinfo`, as every Node client uses). */
export const systemResolver: WebhookResolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }))

/** Options of {@link postWebhook}. */
export interface PostWebhookOptions {
  /** Allow `http` and private addresses: development and tests only. Default false. */
  allowInsecureUrls?: boolean
  /** Default {@link systemResolver}. */
  resolver?: WebhookResolver
  /** The longest wait for the TCP (and TLS) connection. Default 5000. */
  connectTimeoutMs?: number
  /** The longest the whole attempt may take, answer included. Default 10,000. */
  timeoutMs?: number
}

/** What one attempt gave: an HTTP status (any, 3xx included) or an error that prevented one. */
export interface WebhookAttemptResult {
  /** The answer's status, or null when none came. */
  responseStatus: number | null
  /** At most {@link MAX_RESPONSE_BYTES} bytes of the answer, as text. */
  responseBody: string
  /** Why no acceptable answer came, or null after a 2xx. */
  error: string | null
  durationMs: number
}

/** At most this much of a receiver's answer is read: 4 KiB. */
export const MAX_RESPONSE_BYTES = 4096

/** Thrown (inside {@link postWebhook}, reported as its `error`) when a URL or address is refused. */
export class UnsafeWebhookUrlError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UnsafeWebhookUrlError'
  }
}

/**
 * The address to connect to for `url`'s host: its first address when none of them is forbidden.
 * Every address is checked, not only the first, so a name cannot hide a private address among
 * public ones for a later connection to pick.
 *
 * @example
 * const { address, family } = await resolveSafeAddress(new URL('https://hooks.example.com'), { resolver })
 */
export async function resolveSafeAddress(
  url: URL,
  options: Pick<PostWebhookOptions, 'allowInsecureUrls' | 'resolver'> = {},
): Promise<{ address: string; family: 4 | 6 }> {
  const allowInsecure = options.allowInsecureUrls === true
  const problem = webhookUrlProblem(url.href, allowInsecure)
  if (problem !== null) throw new UnsafeWebhookUrlError(`Refused URL: ${problem}`)
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  const literal = isIP(host)
  const addresses =
    literal !== 0 ? [{ address: host, family: literal as 4 | 6 }] : await (options.resolver ?? systemResolver)(host)
  if (addresses.length === 0) throw new UnsafeWebhookUrlError(`${host} has no address`)
  if (!allowInsecure) {
    const bad = addresses.find((entry) => isForbiddenAddress(entry.address))
    if (bad !== undefined) throw new UnsafeWebhookUrlError(`Refused address ${bad.address} for ${host}`)
  }
  return addresses[0]!
}

/**
 * POSTs `body` to `url` with `headers`, safely (see the module comment). Never throws: every
 * failure, refusals included, is reported in the result's `error`. A 2xx is a success; any other
 * status (a redirect too: it is not followed) is reported with `error` set.
 *
 * @example
 * const result = await postWebhook('https://hooks.example.com/in', '{"id":"evt_1"}', headers, { timeoutMs: 10_000 })
 * if (result.error === null) markSucceeded()
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostWebhookOptions = {},
): Promise<WebhookAttemptResult> {
  const started = performance.now()
  const finish = (responseStatus: number | null, responseBody: string, error: string | null) => ({
    responseStatus,
    responseBody,
    error,
    durationMs: Math.round(performance.now() - started),
  })
  let target: URL
  let pinned: { address: string; family: 4 | 6 }
  try {
    target = new URL(url)
    pinned = await resolveSafeAddress(target, options)
  } catch (error) {
    return finish(null, '', error instanceof Error ? error.message : 'Refused URL')
  }
  const timeoutMs = options.timeoutMs ?? 10_000
  const connectTimeoutMs = Math.min(options.connectTimeoutMs ?? 5_000, timeoutMs)
  // The socket asks this, not DNS, for the host's address: it gets the one that was checked.
  const lookup: LookupFunction = (_host, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all === true) callback(null, [pinned])
    else callback(null, pinned.address, pinned.family)
  }
  const client = target.protocol === 'https:' ? https : http
  return new Promise((resolve) => {
    let settled = false
    const done = (status: number | null, text: string, error: string | null) => {
      if (settled) return
      settled = true
      clearTimeout(attemptTimer)
      clearTimeout(connectTimer)
      request.destroy()
      resolve(finish(status, text, error))
    }
    const request = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup,
      agent: false,
      // Certificates are checked against the URL's host name, not the pinned address.
      servername: isIP(target.hostname) === 0 ? target.hostname : undefined,
    })
    const attemptTimer = setTimeout(() => done(null, '', `No answer within ${timeoutMs} ms`), timeoutMs)
    const connectTimer = setTimeout(
      () => done(null, '', `Could not connect within ${connectTimeoutMs} ms`),
      connectTimeoutMs,
    )
    request.on('socket', (socket) => {
      socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer))
    })
    request.on('error', (error) => done(null, '', `Request failed: ${error.message}`))
    request.on('response', (response) => {
      const status = response.statusCode ?? 0
      const chunks: Buffer[] = []
      let size = 0
      const end = () => {
        const text = Buffer.concat(chunks).toString('utf8')
        done(status, text, status >= 200 && status < 300 ? null : `Receiver answered ${status}`)
      }
      response.on('data', (chunk: Buffer) => {
        const room = MAX_RESPONSE_BYTES - size
        chunks.push(chunk.subarray(0, room))
        size += Math.min(chunk.length, room)
        if (size >= MAX_RESPONSE_BYTES) end() // enough read: the rest is never downloaded
      })
      response.on('end', end)
      response.on('error', () => end())
    })
    request.end(body)
  })
}
