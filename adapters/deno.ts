/**
 * `tenant-public-api/deno`: the API on `Deno.serve`, with the client address passed on. Runtime-neutral
 * code only (no `node:` import), typed structurally so that no Deno types are needed to build it.
 *
 * @example
 * import { serveWithDeno } from 'tenant-public-api/deno'
 * serveWithDeno(api, { port: 3000 })
 */
import type { PublicApiHandler } from 'tenant-public-api'
import { setClientAddress } from './client-address.js'

export { clientAddress } from './client-address.js'

/** The part of `Deno.ServeHandlerInfo` the mount uses. */
export interface DenoServeInfoLike {
  remoteAddr: { hostname?: string } | { transport: string; [key: string]: unknown }
}

/** Options of {@link serveWithDeno}: passed to `Deno.serve` as they are. */
export interface DenoServeOptions {
  port?: number
  hostname?: string
  [option: string]: unknown
}

/**
 * A handler for `Deno.serve` that records the client address (`clientAddress(request)`) and calls
 * the API. `Deno.serve` accepts nothing but Deno's own `Response`, which is what the API answers.
 *
 * @example
 * Deno.serve({ port: 3000 }, toDenoHandler(api))
 */
export function toDenoHandler(api: PublicApiHandler): (request: Request, info: DenoServeInfoLike) => Promise<Response> {
  return (request, info) => {
    const hostname = (info.remoteAddr as { hostname?: unknown }).hostname
    setClientAddress(request, typeof hostname === 'string' ? hostname : undefined)
    return api(request)
  }
}

/**
 * Starts `Deno.serve` with the API; returns Deno's server (`await server.shutdown()` ends it).
 *
 * @example
 * const server = serveWithDeno(api, { port: 3000 })
 */
export function serveWithDeno<Server = unknown>(api: PublicApiHandler, options: DenoServeOptions = {}): Server {
  const deno = (globalThis as { Deno?: { serve(options: Record<string, unknown>, handler: unknown): Server } }).Deno
  if (deno === undefined) throw new Error('serveWithDeno() runs on Deno; on Node use tenant-public-api/node')
  return deno.serve(options, toDenoHandler(api))
}
