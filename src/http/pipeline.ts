/**
 * The request pipeline, in the order of checks of docs/api-behaviour.md: request id → cookie → route → authentication
 * → scope → rate limit → content type and size → JSON → validation → the operation. The router
 * (router.ts) calls these; nothing here knows about itty-router.
 */
import * as v from 'valibot'
import type { Store } from '../stores/store.js'
import { authenticate, requireScope, type KeyResolver } from './auth.js'
import { assertSafeJson, parseJson, readBodyText, requireJsonContentType } from './body.js'
import { StoreUnavailableError } from '../stores/store.js'
import { ApiError, apiErrorOf, isErrorCode, validationError } from './errors.js'
import { withIdempotency } from './idempotency.js'
import type { AnyOperation, OperationResult } from './operation.js'
import { rateLimitHeaders, retryAfterSeconds, type RateLimiter, type RateLimitResult } from './rate-limit.js'
import { resolveRequestId } from './request-id.js'
import { errorReply, jsonReply, partsOf, reply, type LightweightResponse } from './reply.js'
import { checkInput, checkQuery, validationIssues } from './validation.js'

/** Everything the pipeline needs, fixed when the API is created. */
export interface PipelineConfig {
  store: Store
  keyResolver: KeyResolver
  rateLimiter: RateLimiter
  basePath: string
  maxBodyBytes: number
  /** Webhook URL rules (docs/extensions.md section 4). */
  webhooks: { allowInsecureUrls: boolean }
  onError: (error: unknown, context: { request: Request; requestId: string }) => void
}

/** Per-request state the router threads through every step. */
export interface RequestState {
  requestId: string
  url: URL
  rateLimit?: RateLimitResult
}

/** Step 1-2: the request id, and refusing cookies (before authentication). */
export function startRequest(request: Request): RequestState {
  return { requestId: resolveRequestId(request.headers.get('x-request-id')), url: new URL(request.url) }
}

export function refuseCookies(request: Request): void {
  if (request.headers.has('cookie')) {
    throw new ApiError('COOKIES_NOT_ALLOWED', 'This API is stateless: requests must not carry cookies')
  }
}

/** Path parameters, decoded and validated: anything malformed is answered as an unknown id. */
function pathParams(operation: AnyOperation, raw: Record<string, string>): unknown {
  if (operation.params === undefined) return undefined
  const decoded: Record<string, string> = {}
  try {
    for (const [key, value] of Object.entries(raw)) decoded[key] = decodeURIComponent(value)
  } catch {
    throw new ApiError('NOT_FOUND', 'Resource not found')
  }
  const result = v.safeParse(operation.params, decoded)
  if (!result.success) throw new ApiError('NOT_FOUND', 'Resource not found')
  return result.output
}

/** Steps 4-10 for a matched operation. */
export async function runOperation(
  operation: AnyOperation,
  request: Request,
  rawParams: Record<string, string>,
  state: RequestState,
  config: PipelineConfig,
): Promise<LightweightResponse> {
  const principal = await authenticate(request, config.keyResolver)
  // Counted before the scope check so that 403s carry the rate-limit headers too; the 403 still wins over a 429.
  const limit = await config.rateLimiter.consume(principal.keyId, principal.rateLimit)
  state.rateLimit = limit
  requireScope(principal, operation.scope)
  if (!limit.allowed) {
    throw new ApiError('RATE_LIMITED', 'Too many requests for this API key; retry after the window resets', undefined, {
      'retry-after': String(retryAfterSeconds(limit)),
    })
  }

  let json: unknown
  if (operation.body !== undefined) {
    requireJsonContentType(request)
    json = parseJson(await readBodyText(request, config.maxBodyBytes))
    assertSafeJson(json, 'body')
  }
  // Query and body problems are reported together, capped together.
  const query = checkQuery(state.url, operation.query)
  const body = checkInput(operation.body, json, 'body')
  const issues = validationIssues(query, body)
  if (issues.length > 0) throw validationError(issues)
  const params = pathParams(operation, rawParams)

  const now = new Date()
  const execute = () =>
    operation.handle({
      request,
      requestId: state.requestId,
      principal,
      tenantId: principal.tenantId,
      params,
      query: (query as { value: unknown }).value,
      body: (body as { value: unknown }).value,
      store: config.store,
      now,
      basePath: config.basePath,
      webhooks: config.webhooks,
    } as Parameters<AnyOperation['handle']>[0])
  const result: OperationResult = operation.idempotent
    ? await withIdempotency(request, state.url, json, principal.tenantId, config.store, now, execute)
    : await execute()
  return jsonReply(result.status, result.body, result.headers)
}

/** The Error-shape response for anything thrown; unexpected errors go to `onError` and say nothing. */
export function errorToResponse(
  error: unknown,
  request: Request,
  state: RequestState,
  config: PipelineConfig,
): LightweightResponse {
  const known = apiErrorOf(error) ?? error
  // An ApiError with a code outside the table is a host bug (untyped code): a 500 like any other.
  if (known instanceof ApiError && isErrorCode(known.code)) {
    return errorReply(known.status, known.code, known.message, state.requestId, known.details, known.headers)
  }
  // A client that hung up mid-request is not a fault of ours: nobody reads the answer, nothing to log.
  if (!request.signal?.aborted) report(error, request, state, config)
  if (error instanceof StoreUnavailableError) {
    return errorReply(
      503,
      'SERVICE_UNAVAILABLE',
      'The service is temporarily unavailable; retry shortly',
      state.requestId,
      undefined,
      { 'retry-after': '1' },
    )
  }
  return errorReply(500, 'INTERNAL_ERROR', 'An unexpected error occurred', state.requestId)
}

function report(error: unknown, request: Request, state: RequestState, config: PipelineConfig): void {
  try {
    config.onError(error, { request, requestId: state.requestId })
  } catch {
    // A failing logger must not turn an answer into a crash.
  }
}

/**
 * The last step for every response: request id, rate-limit headers, no caching, HEAD without body.
 * Every route answers with a reply, so its headers are still a plain record: no native `Headers` to change.
 */
export function finishResponse(
  response: LightweightResponse,
  request: Request,
  state: RequestState,
): LightweightResponse {
  const parts = partsOf(response)
  const headers = parts.headers
  headers['x-request-id'] = state.requestId
  // Bodies echo client input (a 404 names the path): no browser may sniff them into HTML.
  headers['x-content-type-options'] = 'nosniff'
  if (state.rateLimit !== undefined) {
    Object.assign(headers, rateLimitHeaders(state.rateLimit))
    headers['cache-control'] = 'no-store'
  }
  if (request.method === 'HEAD') parts.body = null
  return response
}

/** 405 with `Allow` for a known path and another method; 204 with `Allow` for OPTIONS. */
export function methodNotAllowed(
  request: Request,
  allowed: readonly string[],
  state: RequestState,
): LightweightResponse {
  const allow = allowed.join(', ')
  if (request.method === 'OPTIONS') return reply(204, null, { allow })
  return errorReply(
    405,
    'METHOD_NOT_ALLOWED',
    `${echoed(request.method)} is not allowed here; use ${allow}`,
    state.requestId,
    undefined,
    { allow },
  )
}

/** How much of an unknown path (or method) an error repeats: a Fetch handler may be handed any length. */
const MAX_ECHOED_PATH = 200

function echoed(text: string): string {
  return text.length > MAX_ECHOED_PATH ? `${text.slice(0, MAX_ECHOED_PATH)}…` : text
}

/** 404 for a path no route matches. */
export function routeNotFound(request: Request, state: RequestState): LightweightResponse {
  const message = `No route matches ${echoed(request.method)} ${echoed(state.url.pathname)}`
  return errorReply(404, 'NOT_FOUND', message, state.requestId)
}
