/**
 * One webhook POST, made safely (docs/extensions.md section 4, URL safety): the host is resolved
 * and every address checked at each delivery, the socket connects to the address that was checked
 * (its `lookup` returns it, so a second DNS answer cannot rebind the name to a private address),
 * connecting and the whole attempt are timed out, redirects are never followed and at most 4 KiB
 * of the answer is read. Node's own `http`/`https` rather than `fetch`: `fetch` (undici) offers no
 * per-request `lookup` without a dispatcher package, and pinning the address is the point.
 *
 * Connections are reused through a {@link WebhookConnectionPool}: one keep-alive agent per (scheme,
 * host name, checked address, port) whose `lookup` answers only that address, so a socket is
 * reused only for a delivery whose own resolution checked the same address (docs/webhooks.md).
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import * as http from 'node:http'
import * as https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { isForbiddenAddress, webhookUrlProblem } from '../model/webhook-urls.js'
import { attemptError, failureReason } from './attempt-failures.js'

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
  /** Reuses connections per checked address; without it every attempt opens (and closes) its own. */
  pool?: WebhookConnectionPool
}

/**
 * Options of {@link createWebhookConnectionPool}.
 *
 * @example
 * const options: WebhookConnectionPoolOptions = { maxAgents: 256, socketsPerAgent: 10, idleTimeoutMs: 4_000 }
 */
export interface WebhookConnectionPoolOptions {
  /** Agents kept at most (one per scheme, host name, checked address and port). Default 256. */
  maxAgents?: number
  /** Sockets per agent at most, in use or idle. Default 10. */
  socketsPerAgent?: number
  /** How long an idle socket is kept. Default 4,000 (under Node servers' 5 s keep-alive timeout). */
  idleTimeoutMs?: number
}

/**
 * Keep-alive agents for webhook POSTs, one per (scheme, host name, checked address, port).
 *
 * @example
 * const pool = createWebhookConnectionPool({ socketsPerAgent: 20 })
 * await postWebhook(url, body, headers, { pool })
 * pool.close()
 */
export interface WebhookConnectionPool {
  /**
   * The agent for `url` pinned to `pinned` (made if new), counted in use until `release`; undefined
   * when `maxAgents` agents are all in use (the attempt then opens a connection of its own).
   */
  acquire(url: URL, pinned: PinnedAddress): { agent: http.Agent; release(): void } | undefined
  /** Idle sockets kept now, across agents. */
  idleSockets(): number
  /** Destroys every agent and its sockets; call it once no attempt is in flight. */
  close(): void
}

/**
 * An address a host name resolved to, checked.
 *
 * @example
 * const pinned: PinnedAddress = await resolveSafeAddress(new URL('https://hooks.example.com'), { resolver })
 */
export interface PinnedAddress {
  address: string
  family: 4 | 6
}

/** A `lookup` that answers `pinned` whatever it is asked: the socket connects to the checked address. */
function pinnedLookup(pinned: PinnedAddress): LookupFunction {
  return (_host, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all === true) callback(null, [pinned])
    else callback(null, pinned.address, pinned.family)
  }
}

/** Certificates are checked against the URL's host name, not the pinned address. */
const serverNameOf = (url: URL) => (isIP(url.hostname) === 0 ? url.hostname : undefined)

/**
 * Creates a {@link WebhookConnectionPool}. Node's agents rather than undici's: they take the
 * pinned `lookup` per agent, and the key (scheme, host name, checked address, port) is ours.
 *
 * @example
 * const pool = createWebhookConnectionPool()
 */
export function createWebhookConnectionPool(options: WebhookConnectionPoolOptions = {}): WebhookConnectionPool {
  const maxAgents = options.maxAgents ?? 256
  const socketsPerAgent = options.socketsPerAgent ?? 10
  const idleTimeoutMs = options.idleTimeoutMs ?? 4_000
  /** Agents by key, least recently used first. */
  const agents = new Map<string, { agent: http.Agent; inUse: number }>()
  const evictIdle = () => {
    for (const [key, entry] of agents)
      if (entry.inUse === 0) {
        agents.delete(key)
        entry.agent.destroy()
        return true
      }
    return false
  }
  return {
    acquire(url, pinned) {
      const key = `${url.protocol}//${url.hostname}|${pinned.address}|${url.port}`
      let entry = agents.get(key)
      if (entry === undefined) {
        if (agents.size >= maxAgents && !evictIdle()) return undefined
        const agentOptions = {
          keepAlive: true,
          maxSockets: socketsPerAgent,
          maxFreeSockets: socketsPerAgent,
          // Idle sockets time out and are destroyed; an attempt's own timers bound one in use.
          timeout: idleTimeoutMs,
          scheduling: 'lifo' as const,
          lookup: pinnedLookup(pinned),
        }
        const agent =
          url.protocol === 'https:'
            ? new https.Agent({ ...agentOptions, servername: serverNameOf(url) })
            : new http.Agent(agentOptions)
        entry = { agent, inUse: 0 }
      }
      agents.delete(key)
      agents.set(key, entry) // most recently used last
      entry.inUse += 1
      const held = entry
      let released = false
      return {
        agent: held.agent,
        release() {
          if (!released) held.inUse -= 1
          released = true
        },
      }
    },
    idleSockets() {
      let count = 0
      for (const { agent } of agents.values())
        for (const list of Object.values(agent.freeSockets)) count += list?.length ?? 0
      return count
    },
    close() {
      for (const { agent } of agents.values()) agent.destroy()
      agents.clear()
    },
  }
}

/** What one attempt gave: an HTTP status (any, 3xx included) or an error that prevented one. */
export interface WebhookAttemptResult {
  /** The answer's status, or null when none came. */
  responseStatus: number | null
  /** At most {@link MAX_RESPONSE_BYTES} bytes of the answer, as text. */
  responseBody: string
  /**
   * Why no acceptable answer came, or null after a 2xx: the URL's host and a short reason
   * (attempt-failures.ts), `hooks.example.com: status 503`; what tenants see.
   */
  error: string | null
  durationMs: number
}

/** At most this much of a receiver's answer is read: 4 KiB. */
export const MAX_RESPONSE_BYTES = 4096

/**
 * Thrown (inside {@link postWebhook}, reported as its `error`) when a URL or address is refused.
 * Its message is what a tenant sees (`GET /webhook-endpoints/{id}/deliveries`): it names the URL's
 * host, never an address the host resolved to, nor whether the name exists, so a tenant cannot map
 * the operator's internal DNS through the dispatcher (`hooks.example.com: no public address`).
 * `detail` says which, for the operator.
 *
 * @example
 * catch (error) { if (error instanceof UnsafeWebhookUrlError) log(error.message, error.detail) }
 */
export class UnsafeWebhookUrlError extends Error {
  constructor(
    message: string,
    /** The refused address or the resolver's error: for the operator, never shown to tenants. */
    readonly detail: string | null = null,
  ) {
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
  if (problem !== null) throw new UnsafeWebhookUrlError(attemptError(url, `URL not allowed: ${problem}`))
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  const literal = isIP(host)
  // One message for a name that does not resolve and one that resolves to a forbidden address.
  const refused = (detail: string) => new UnsafeWebhookUrlError(attemptError(url, 'no public address'), detail)
  let addresses: Awaited<ReturnType<WebhookResolver>>
  try {
    addresses =
      literal !== 0 ? [{ address: host, family: literal as 4 | 6 }] : await (options.resolver ?? systemResolver)(host)
  } catch (error) {
    throw refused(error instanceof Error ? error.message : String(error))
  }
  if (addresses.length === 0) throw refused('no address')
  if (!allowInsecure) {
    const bad = addresses.find((entry) => isForbiddenAddress(entry.address))
    if (bad !== undefined) throw refused(`resolves to ${bad.address}`)
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
  let pinned: PinnedAddress
  try {
    target = new URL(url)
  } catch {
    return finish(null, '', 'URL not allowed: Must be an absolute URL')
  }
  try {
    pinned = await resolveSafeAddress(target, options)
  } catch (error) {
    // Only a refusal's message is for tenants; anything else the resolver threw is not.
    const refusal = error instanceof UnsafeWebhookUrlError ? error.message : attemptError(target, 'no public address')
    return finish(null, '', refusal)
  }
  const timeoutMs = options.timeoutMs ?? 10_000
  const deadline = started + timeoutMs
  const lease = options.pool?.acquire(target, pinned)
  const limits = (ms: number) => ({
    agent: lease?.agent,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    timeoutMs: ms,
  })
  try {
    let result = await send(target, pinned, body, headers, limits(timeoutMs))
    // A kept socket the receiver closed as it was reused (the keep-alive race): once more, on a new
    // one (delivery is at least once: receivers deduplicate by webhook-id).
    if (result.staleSocket && performance.now() < deadline)
      result = await send(target, pinned, body, headers, limits(deadline - performance.now()))
    // A reason, never Node's message: that names the address (`connect ECONNREFUSED 10.1.2.3:443`).
    return finish(result.status, result.text, result.failure === null ? null : attemptError(target, result.failure))
  } finally {
    lease?.release()
  }
}

/**
 * One request of {@link postWebhook}: `failure` is the reason it failed (attempt-failures.ts), null
 * after a 2xx; `staleSocket` when a reused socket failed before any answer.
 */
function send(
  target: URL,
  pinned: PinnedAddress,
  body: string,
  headers: Record<string, string>,
  {
    agent,
    connectTimeoutMs: connectMs,
    timeoutMs,
  }: { agent?: http.Agent; connectTimeoutMs: number; timeoutMs: number },
): Promise<{ status: number | null; text: string; failure: string | null; staleSocket: boolean }> {
  const timeout = Math.max(1, Math.round(timeoutMs))
  const connectTimeoutMs = Math.min(connectMs, timeout)
  const client = target.protocol === 'https:' ? https : http
  return new Promise((resolve) => {
    let settled = false
    /** `keep`: the answer was read to its end, so its socket may serve the next attempt. */
    const done = (status: number | null, text: string, failure: string | null, keep = false, staleSocket = false) => {
      if (settled) return
      settled = true
      clearTimeout(attemptTimer)
      clearTimeout(connectTimer)
      if (!keep) request.destroy()
      resolve({ status, text, failure, staleSocket })
    }
    const request = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      // The socket asks this, not DNS, for the host's address: it gets the one that was checked.
      lookup: pinnedLookup(pinned),
      agent: agent ?? false,
      servername: serverNameOf(target),
    })
    const attemptTimer = setTimeout(() => done(null, '', `timed out awaiting the answer after ${timeout} ms`), timeout)
    const connectTimer = setTimeout(
      () => done(null, '', `timed out connecting after ${connectTimeoutMs} ms`),
      connectTimeoutMs,
    )
    let answered = false
    request.on('socket', (socket) => {
      if (request.reusedSocket) clearTimeout(connectTimer)
      else socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer))
    })
    request.on('error', (error: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && !answered && error.code === 'ECONNRESET'
      done(null, '', failureReason(error), false, stale)
    })
    request.on('response', (response) => {
      answered = true
      const status = response.statusCode ?? 0
      const chunks: Buffer[] = []
      let size = 0
      const end = (keep: boolean) => {
        const text = Buffer.concat(chunks).toString('utf8')
        done(status, text, status >= 200 && status < 300 ? null : `status ${status}`, keep)
      }
      response.on('data', (chunk: Buffer) => {
        const room = MAX_RESPONSE_BYTES - size
        chunks.push(chunk.subarray(0, room))
        size += Math.min(chunk.length, room)
        // Enough read: the rest is never downloaded, and the socket, mid-answer, is destroyed.
        if (size >= MAX_RESPONSE_BYTES) end(false)
      })
      response.on('end', () => end(true))
      response.on('error', () => end(false))
    })
    request.end(body)
  })
}
