/**
 * `tenant-public-api/next`: the API as Next.js App Router route handlers. Route handlers receive a
 * Fetch `Request` already and the API answers it with a native `Response`, so the mount only names
 * the methods.
 *
 * @example
 * // app/api/public/v1/[...path]/route.ts
 * import { toNextRouteHandlers } from 'tenant-public-api/next'
 * import { api } from '@/lib/public-api'
 *
 * export const runtime = 'nodejs' // required with the SQLite or Postgres store
 * export const { GET, POST, PATCH, DELETE, PUT, HEAD, OPTIONS } = toNextRouteHandlers(api)
 */
import type { PublicApiHandler } from 'tenant-public-api'

/** A route handler as Next.js calls it (the second argument, the route's params, is not needed). */
export type NextRouteHandler = (request: Request) => Promise<Response>

/** One handler per method, to export from `app/api/public/v1/[...path]/route.ts`. */
export interface NextRouteHandlers {
  GET: NextRouteHandler
  POST: NextRouteHandler
  PATCH: NextRouteHandler
  DELETE: NextRouteHandler
  PUT: NextRouteHandler
  HEAD: NextRouteHandler
  OPTIONS: NextRouteHandler
}

/**
 * Route handlers for a catch-all route at the API's base path (`app/api/public/v1/[...path]/route.ts`
 * for the default `/api/public/v1`). Use `runtime = 'nodejs'` with the SQLite store (a native
 * module); the memory store also runs on the edge runtime.
 *
 * @example
 * export const { GET, POST, PATCH, DELETE, PUT, HEAD, OPTIONS } = toNextRouteHandlers(api)
 */
export function toNextRouteHandlers(api: PublicApiHandler): NextRouteHandlers {
  const handle: NextRouteHandler = (request) => api(request)
  return { GET: handle, POST: handle, PATCH: handle, DELETE: handle, PUT: handle, HEAD: handle, OPTIONS: handle }
}
