/**
 * `tenant-public-api/bun`: the API on `Bun.serve`, with the client address passed on. Runtime-neutral
 * code only (no `node:` import), typed structurally so that no Bun types are needed to build it.
 *
 * @example
 * import { serveWithBun } from 'tenant-public-api/bun'
 * serveWithBun(api, { port: 3000 })
 */
import type { PublicApiHandler } from 'tenant-public-api'
import { setClientAddress } from './client-address.js'

export { clientAddress } from './client-address.js'

/** The part of Bun's `Server` the mount uses. */
export interface BunServerLike {
  requestIP(request: Request): { address: string } | null
}

/** Options of {@link serveWithBun}: passed to `Bun.serve` as they are. */
export interface BunServeOptions {
  port?: number
  hostname?: string
  [option: string]: unknown
}

/**
 * A `fetch` for `Bun.serve` that records the client address (`clientAddress(request)`) and calls
 * the API. `Bun.serve` accepts nothing but Bun's own `Response`, which is what the API answers.
 *
 * @example
 * Bun.serve({ port: 3000, fetch: toBunFetch(api) })
 */
export function toBunFetch(api: PublicApiHandler): (request: Request, server: BunServerLike) => Promise<Response> {
  return (request, server) => {
    setClientAddress(request, server.requestIP(request)?.address)
    return api(request)
  }
}

/**
 * Starts `Bun.serve` with the API; returns Bun's server (`server.stop()` ends it).
 *
 * @example
 * const server = serveWithBun(api, { port: 3000 })
 * console.log(`listening on ${server.url}`)
 */
export function serveWithBun<Server = unknown>(api: PublicApiHandler, options: BunServeOptions = {}): Server {
  const bun = (globalThis as { Bun?: { serve(options: Record<string, unknown>): Server } }).Bun
  if (bun === undefined) throw new Error('serveWithBun() runs on Bun; on Node use tenant-public-api/node')
  return bun.serve({ ...options, fetch: toBunFetch(api) })
}
