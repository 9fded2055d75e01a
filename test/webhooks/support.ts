/**
 * Helpers of the dispatcher tests: a local receiver that records what reaches it, the three stores,
 * an API over a store (endpoints are made through it, as users make them) and seed records whose
 * writes are the events delivered.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMemoryStore, createPublicApi, type Store } from 'tenant-public-api'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createHarness, testKey, testKeyResolver, type Harness } from 'tenant-public-api/testing'
import { createTestPostgresStore } from '../support/postgres.js'

/** One request the receiver got. */
export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
}

/** What the receiver answers. */
export interface Answer {
  status: number
  headers?: Record<string, string>
}

/** A receiver on 127.0.0.1 that records requests and answers with `answer` (default 204). */
export interface Receiver {
  url: string
  received: Received[]
  /** TCP connections accepted (a refused delivery must make none). */
  connections: number
  /** TCP connections open now. */
  open: number
  answer: (request: Received) => Answer | Promise<Answer>
  close(): Promise<void>
}

/**
 * Starts a receiver.
 *
 * @example
 * const receiver = await startReceiver()
 */
export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    connections: 0,
    open: 0,
    answer: () => ({ status: 204 }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const got = { path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') }
      receiver.received.push(got)
      void Promise.resolve(receiver.answer(got)).then(({ status, headers }) =>
        response.writeHead(status, headers).end(),
      )
    })
  })
  server.on('connection', (socket) => {
    receiver.connections += 1
    receiver.open += 1
    socket.once('close', () => (receiver.open -= 1))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const close = receiver.close
  receiver.close = () => {
    server.closeAllConnections()
    return close()
  }
  return receiver
}

/** The stores the dispatcher runs on: a fresh one per call, keeping events `eventRetentionMs` when given. */
export const STORES: readonly [string, (eventRetentionMs?: number) => Promise<Store>][] = [
  ['memory', async (eventRetentionMs) => createMemoryStore({ eventRetentionMs })],
  ['sqlite', (eventRetentionMs) => createSqliteStore({ filename: ':memory:' }, { eventRetentionMs })],
  ['postgres', async (eventRetentionMs) => (await createTestPostgresStore({ eventRetentionMs })).store],
]

/**
 * A client of an API over `store` for `tenantId` (http URLs allowed: the receivers are local).
 *
 * @example
 * const h = apiClient(store, tenantId)
 */
export function apiClient(store: Store, tenantId: string): Harness {
  const api = createPublicApi({
    store,
    keyResolver: testKeyResolver(),
    webhooks: { allowInsecureUrls: true },
    onError: () => undefined,
  })
  return createHarness(api, { key: testKey(tenantId) })
}

export { numberedCompany as company } from '../../src/testing/conformance/webhook-fixtures.js'

/** A clock tests move by hand. */
export function manualClock(start = Date.now()): { now: () => Date; advance(ms: number): void } {
  let at = start
  return { now: () => new Date(at), advance: (ms) => void (at += ms) }
}
