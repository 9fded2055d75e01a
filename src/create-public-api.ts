import type { KeyResolver } from './http/auth.js'
import { memoryRateLimiter, type RateLimiter } from './http/rate-limit.js'
import { buildRouter, type PublicRoute } from './http/router.js'
import { createOpenApiDocument } from './openapi/document.js'
import { operations } from './resources/index.js'
import type { Store } from './stores/store.js'

/** Options of {@link createPublicApi}. */
export interface PublicApiOptions {
  /** Where the data lives: `createMemoryStore()`, `createSqliteStore()`, `createPostgresStore()` or your own. */
  store: Store
  /** Turns a bearer token into a principal (tenant, key id, scopes, actor), or `null`. */
  keyResolver: KeyResolver
  /** Counts requests per key. Default: `memoryRateLimiter()`, 120 requests per 60 s. */
  rateLimiter?: RateLimiter
  /** Where the API is mounted. Default `/api/public/v1`. */
  basePath?: string
  /** Largest accepted request body. Default 1 MiB (1,048,576 bytes). */
  maxBodyBytes?: number
  /** Receives every unexpected error (the response says only `INTERNAL_ERROR`). Default: `console.error`. */
  onError?: (error: unknown, context: { request: Request; requestId: string }) => void
}

/** The API as a Fetch handler. */
export type PublicApiHandler = (request: Request) => Promise<Response>

/**
 * Creates the public API: a Fetch-standard handler serving all 21 operations, `openapi.json`,
 * request ids, bearer keys with scopes and rate limiting. Mount it with the Node, Express,
 * Next.js, Bun or Deno adapter, or call it directly.
 *
 * @example
 * const store = createMemoryStore()
 * await store.seed('tenant-1', data)
 * const api = createPublicApi({
 *   store,
 *   keyResolver: (token) => (token === 'secret' ? { tenantId: 'tenant-1', keyId: 'k1', scopes: ['tickets.read'], actor: { id: 'u1', name: 'Ada' } } : null),
 * })
 * const response = await api(new Request('http://host/api/public/v1/tickets', { headers: { authorization: 'Bearer secret' } }))
 */
export function createPublicApi(options: PublicApiOptions): PublicApiHandler {
  const basePath = (options.basePath ?? '/api/public/v1').replace(/\/+$/, '')
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) throw new TypeError('maxBodyBytes must be a positive integer')

  let document: string | undefined
  const publicRoutes: PublicRoute[] = [
    {
      path: '/openapi.json',
      handle: () => {
        document ??= JSON.stringify(createOpenApiDocument({ basePath }))
        return new Response(document, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' } })
      },
    },
  ]

  return buildRouter(operations, publicRoutes, {
    store: options.store,
    keyResolver: options.keyResolver,
    rateLimiter: options.rateLimiter ?? memoryRateLimiter(),
    basePath,
    maxBodyBytes,
    onError: options.onError ?? ((error, { requestId }) => console.error(`[tenant-public-api] request ${requestId} failed:`, error)),
  })
}

