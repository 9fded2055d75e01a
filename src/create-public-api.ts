import * as v from 'valibot'
import type { KeyResolver, RateLimitRule } from './http/auth.js'
import { logError } from './http/log-error.js'
import type { ResponseListener } from './http/observe.js'
import { RateLimitRuleSchema } from './http/principal.js'
import { memoryRateLimiter, type RateLimiter } from './http/rate-limit.js'
import type { PipelineConfig } from './http/pipeline.js'
import { buildRouter, type PublicRoute } from './http/router.js'
import { serveStatic, staticDocument, type StaticDocument } from './http/static-document.js'
import { loadTracing } from './http/tracing.js'
import { renderReferencePage, type ReferenceDocument } from './docs/render.js'
import { mcpConfig, type McpOptions } from './mcp/options.js'
import { checkOptions, is, nested, type OptionChecks } from './model/options.js'
import { mcpRoute } from './mcp/server.js'
import { createOpenApiDocument } from './openapi/document.js'
import { operations } from './operations/index.js'
import { DEFAULT_EVENTS_PAGE_BYTES } from './ports/event-feed.js'
import { assertStore, type Store } from './ports/store.js'

/** Options of {@link createPublicApi}. */
export interface PublicApiOptions {
  /** Where the data lives: `createMemoryStore()`, `createSqliteStore()`, `createPostgresStore()` or your own. */
  store: Store
  /** Turns a bearer token into a principal (tenant, key id, scopes, actor), or `null`. */
  keyResolver: KeyResolver
  /** Counts requests per key. Default: `memoryRateLimiter()`, 120 requests per 60 s. */
  rateLimiter?: RateLimiter
  /**
   * Where the API is mounted. Default `/api/public/v1`. Normalised: `v1/` and `/v1/` both mean `/v1`;
   * `/` is the root.
   */
  basePath?: string
  /**
   * The origin clients reach the API at, e.g. `https://portal.example`: list responses' `Link` URLs
   * are absolute from it. Default none: they are relative references (`</api/public/v1/tickets?cursor=...>`),
   * never built from the request's `Host` (docs/api-behaviour.md#lists).
   */
  publicOrigin?: string
  /** Largest accepted request body. Default 1 MiB (1,048,576 bytes). */
  maxBodyBytes?: number
  /**
   * The byte budget of a page of `GET /events`: a page stops before its events' JSON passes it (always
   * holding one event). Default 1 MiB (1,048,576 bytes; docs/extensions.md section 3).
   */
  maxEventsPageBytes?: number
  /** Receives every unexpected error (the response says only `INTERNAL_ERROR`). Default `console.error`. */
  onError?: (error: unknown, context: { request: Request; requestId: string }) => void
  /**
   * Serve the HTML reference page at `GET {basePath}/docs` (no authentication, like `openapi.json`).
   * Default `true`; `false` answers 404.
   */
  docs?: boolean
  /**
   * Also count every request against its tenant's bucket (shared by all the tenant's keys, on the same
   * `rateLimiter`): a 429 when either bucket is spent. Default: no tenant bucket.
   */
  tenantRateLimit?: RateLimitRule
  /** Called once per response with its request id, operation, route, status, duration, tenant, key and error code. */
  onResponse?: ResponseListener
  /**
   * Webhook endpoints: `allowInsecureUrls: true` accepts `http` URLs and private or loopback hosts,
   * for development and tests only. Default false (docs/extensions.md section 4).
   */
  webhooks?: { allowInsecureUrls?: boolean }
  /**
   * Serve the Model Context Protocol at `POST {basePath}/mcp` (docs/mcp.md): one tool per operation,
   * called with the same keys, scopes and limits. Needs the optional peer `@modelcontextprotocol/sdk`.
   * Default off.
   */
  mcp?: boolean | McpOptions
}

/**
 * The API as a Fetch handler. Its answers are native `Response`s, except to a request whose mount
 * put a reply factory on it (docs/mounts.md): the Node mounts do, and write what it makes themselves.
 */
export type PublicApiHandler = (request: Request) => Promise<Response>

/** What marks a handler `createPublicApi` made: a registered symbol, so a mount of another build hears it. */
const PUBLIC_API = Symbol.for('tenant-public-api.public-api')

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
 *   keyResolver: (token) =>
 *     token === 'secret'
 *       ? { tenantId: 'tenant-1', keyId: 'k1', scopes: ['tickets.read'], actor: { id: 'u1', name: 'Ada' } }
 *       : null,
 * })
 * const response = await api(
 *   new Request('http://host/api/public/v1/tickets', { headers: { authorization: 'Bearer secret' } }),
 * )
 */
export function createPublicApi(options: PublicApiOptions): PublicApiHandler {
  checkCreateOptions(options)
  const basePath = normaliseBasePath(options.basePath ?? '/api/public/v1')
  const publicOrigin = options.publicOrigin === undefined ? null : new URL(options.publicOrigin).origin
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024
  const maxEventsPageBytes = options.maxEventsPageBytes ?? DEFAULT_EVENTS_PAGE_BYTES

  // Computed once per handler (the document is about 380 KB), then served with a strong ETag.
  let document: Promise<StaticDocument> | undefined
  const publicRoutes: PublicRoute[] = [
    {
      path: '/openapi.json',
      handle: async (request) => {
        document ??= staticDocument(JSON.stringify(createOpenApiDocument({ basePath })))
        return serveStatic(request, await document, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'public, max-age=300',
        })
      },
    },
  ]

  if (options.docs !== false) {
    let page: Promise<StaticDocument & { contentSecurityPolicy: string }> | undefined
    publicRoutes.push({
      path: '/docs',
      handle: async (request) => {
        page ??= renderReferencePage(createOpenApiDocument({ basePath }) as unknown as ReferenceDocument, {
          openApiUrl: `${basePath}/openapi.json`,
        }).then(async ({ html, contentSecurityPolicy }) => ({ ...(await staticDocument(html)), contentSecurityPolicy }))
        const rendered = await page
        return serveStatic(request, rendered, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': rendered.contentSecurityPolicy,
          'referrer-policy': 'no-referrer',
          'cache-control': 'public, max-age=300',
        })
      },
    })
  }

  const mcp = mcpConfig(options.mcp)

  // OpenTelemetry, when installed: loaded in the background, it traces once a provider is registered.
  void loadTracing()
  const config: PipelineConfig = {
    store: options.store,
    keyResolver: options.keyResolver,
    rateLimiter: options.rateLimiter ?? memoryRateLimiter(),
    basePath,
    publicOrigin,
    maxBodyBytes,
    maxEventsPageBytes,
    onResponse: options.onResponse,
    tenantRateLimit: options.tenantRateLimit,
    webhooks: { allowInsecureUrls: options.webhooks?.allowInsecureUrls === true },
    onError: options.onError ?? logError,
  }
  // A tool call is a request of the API: the MCP route hands it, with the call, to this very handler.
  if (mcp !== undefined)
    publicRoutes.push(mcpRoute(mcp, config, (request, call) => router.answerToolCall(request, call)))
  const router = buildRouter(operations, publicRoutes, config)
  const answer: PublicApiHandler = router.answer
  // The Node mounts then hand it their lightweight request rather than a native one (docs/mounts.md).
  Object.defineProperty(answer, PUBLIC_API, { value: true })
  return answer
}

const WEBHOOKS_CHECKS: OptionChecks<NonNullable<PublicApiOptions['webhooks']>> = { allowInsecureUrls: is.boolean }

/** What each option must be: a misspelt or unknown key is refused with them (src/model/options.ts). */
export const PUBLIC_API_CHECKS: OptionChecks<PublicApiOptions> = {
  // assertStore then names the Store port's missing methods.
  store: is.object,
  keyResolver: (value) =>
    typeof value === 'function' ? undefined : 'must be a function (token, request) => principal | null',
  rateLimiter: (value) =>
    typeof (value as Partial<RateLimiter> | null)?.consume === 'function'
      ? undefined
      : 'must have a consume(key, rule?) method',
  basePath: is.string,
  publicOrigin: originProblem,
  maxBodyBytes: is.integer(1),
  maxEventsPageBytes: is.integer(1),
  onError: is.function,
  docs: is.boolean,
  tenantRateLimit: (value) =>
    v.is(RateLimitRuleSchema, value) ? undefined : 'must be { limit, windowMs } of positive integers',
  onResponse: is.function,
  webhooks: nested(WEBHOOKS_CHECKS, 'webhooks'),
  // Checked whole by mcpConfig, which also completes it.
  mcp: () => undefined,
}

/** Fails at creation, not on the first request, when an option is missing, unknown or of the wrong kind. */
function checkCreateOptions(options: PublicApiOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('createPublicApi needs an options object')
  checkOptions(options, PUBLIC_API_CHECKS, { name: 'createPublicApi', required: ['store', 'keyResolver'] })
  assertStore(options.store, 'createPublicApi')
}

/**
 * Why `publicOrigin` is wrong, if it is: it must be an http(s) origin, `https://portal.example` (a
 * trailing `/` is fine); not a URL, another scheme, credentials, a path (a `Link` carries the
 * request's own path, base path included), a query or a fragment are refused.
 */
function originProblem(value: unknown): string | undefined {
  const wrong = (why: string) => `must be an http or https origin such as https://portal.example: ${why}`
  if (typeof value !== 'string') return wrong(`got ${value === null ? 'null' : typeof value}`)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return wrong('not a URL')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return wrong(`the scheme is ${url.protocol}`)
  if (url.username !== '' || url.password !== '') return wrong('it has credentials')
  if (url.pathname !== '/') return wrong('it has a path (Links carry the request path, base path included)')
  if (/[?#]/.test(value)) return wrong('it has a query or a fragment')
  return undefined
}

/** Path segments of unreserved URL characters only: the router compiles the base path into a regular expression. */
const SEGMENT = /^[A-Za-z0-9._~-]+$/

/**
 * `/v1/`, `v1` and `//v1` all mean `/v1`; `/` and `` mean the root. Anything that is not plain
 * path segments (spaces, `*`, `:`, `(`, `?`, `%`) is refused rather than misrouted.
 */
function normaliseBasePath(basePath: string): string {
  if (typeof basePath !== 'string') throw new TypeError('basePath must be a string such as /api/public/v1')
  const segments = basePath.split('/').filter((segment) => segment !== '')
  const bad = segments.find((segment) => !SEGMENT.test(segment) || segment === '.' || segment === '..')
  if (bad !== undefined)
    throw new TypeError(`basePath segment ${JSON.stringify(bad)} must be letters, digits, '.', '_', '~' or '-'`)
  return segments.map((segment) => `/${segment}`).join('')
}
