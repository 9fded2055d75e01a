/**
 * The request pipeline, in the order of checks of docs/api-behaviour.md: request id → cookie → route → authentication
 * → scope → rate limit → content type and size → JSON → validation → the operation. The router
 * (router.ts) calls these; nothing here knows about itty-router.
 */
import * as v from 'valibot'
import type { Store } from '../ports/store.js'
import { authenticate, requireScope, type KeyResolver } from './auth.js'
import { assertSafeJson, parseJson, readBodyText, requireJsonContentType } from './body.js'
import { StoreUnavailableError } from '../ports/store.js'
import { ApiError, apiErrorOf, isErrorCode, validationError, type ErrorCode } from './errors.js'
import { withIdempotency } from './idempotency.js'
import type { ErrorListener, ResponseListener } from './observe.js'
import type { AnyOperation, OperationResult } from './operation.js'
import type { Principal, RateLimitRule } from './principal.js'
import { retryAfterSeconds, type RateLimiter, type RateLimitResult } from './rate-limit.js'
import { shownBucket, TENANT_BUCKET_PREFIX, writeRateLimitFields } from './rate-limit-fields.js'
import { checkHeaders } from './request-headers.js'
import { resolveRequestId } from './request-id.js'
import type { ToolCall } from './tool-call.js'
import { tracedStore, type RequestSpan } from './tracing.js'
import { errorReply, jsonReply, reply, type ReplyParts } from './reply.js'
import { checkInput, checkQuery, validationIssues } from './validation.js'

/** Everything the pipeline needs, fixed when the API is created. */
export interface PipelineConfig {
  store: Store
  keyResolver: KeyResolver
  rateLimiter: RateLimiter
  basePath: string
  /** `createPublicApi({ publicOrigin })`, normalised; null: `Link` URLs are relative references. */
  publicOrigin: string | null
  maxBodyBytes: number
  /** Webhook URL rules (docs/extensions.md section 4). */
  webhooks: { allowInsecureUrls: boolean }
  /** The byte budget of a page of the events feed (docs/extensions.md section 3). */
  maxEventsPageBytes: number
  /** Guarded by the router (observe.ts): it never throws. */
  onError: ErrorListener
  /** Called once per response (observe.ts); undefined costs nothing. */
  onResponse?: ResponseListener | undefined
  /** Every request also counts against its tenant's bucket under this rule. */
  tenantRateLimit?: RateLimitRule | undefined
}

/** Per-request state the router threads through every step. */
export interface RequestState {
  requestId: string
  url: URL
  rateLimit?: RateLimitResult
  /** The tenant bucket's count, with `tenantRateLimit`. */
  tenantRateLimit?: RateLimitResult | undefined
  /** When a 429 was decided: its `Retry-After` and the `RateLimit` field's `t` are both counted from it. */
  limitedAt?: number | undefined
  /** What `onResponse` reports (observe.ts); filled in as the request gets that far. */
  startedAt: number
  operationId: string | null
  route: string | null
  tenantId: string | null
  keyId: string | null
  errorCode: ErrorCode | null
  /** The request's OpenTelemetry span while a tracer provider is registered (tracing.ts). */
  span: RequestSpan | undefined
  /** The MCP tool whose `tools/call` this request is (tool-call.ts), else undefined. */
  tool: string | undefined
  /** That tool call (tool-call.ts): the principal it is served as and the MCP request it came in. */
  toolCall: ToolCall | undefined
}

/** Step 1-2: the request id, and refusing cookies (before authentication); `toolCall` when it is one. */
export function startRequest(request: Request, startedAt = 0, toolCall?: ToolCall): RequestState {
  return {
    requestId: resolveRequestId(request.headers.get('x-request-id')),
    url: new URL(request.url),
    rateLimit: undefined,
    tenantRateLimit: undefined,
    limitedAt: undefined,
    startedAt,
    operationId: null,
    route: null,
    tenantId: null,
    keyId: null,
    errorCode: null,
    span: undefined,
    tool: toolCall?.tool,
    toolCall,
  }
}

/**
 * The request the host's mount handed over, which host hooks are handed: `request` itself, but for
 * an MCP tool call's own request (tool-call.ts), the MCP request it came in.
 */
export function receivedRequest(request: Request, state: RequestState): Request {
  return state.toolCall?.received ?? request
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
): Promise<ReplyParts> {
  const principal = state.toolCall?.principal ?? (await authenticate(request, config.keyResolver))
  state.tenantId = principal.tenantId
  state.keyId = principal.keyId
  // Counted before the scope check so that 403s carry the rate-limit headers too; the 403 still wins over a 429.
  // Without a tenant bucket, one await of the limiter itself: no extra async step on every request.
  // A tool call was counted with every message of its MCP request (docs/mcp.md): not counted again.
  const call = state.toolCall
  if (call !== undefined) {
    state.rateLimit = call.rateLimit
    state.tenantRateLimit = call.tenantRateLimit
  } else if (config.tenantRateLimit === undefined)
    state.rateLimit = await config.rateLimiter.consume(principal.keyId, principal.rateLimit)
  else
    await consumeBoth(principal.keyId, principal.tenantId, principal.rateLimit, config.tenantRateLimit, state, config)
  requireScope(principal, operation.scope)
  refuseWhenLimited(state)

  let json: unknown
  if (operation.body !== undefined) {
    requireJsonContentType(request)
    json = parseJson(await readBodyText(request, config.maxBodyBytes))
    assertSafeJson(json, 'body')
  }
  // Query, body and header problems are reported together, capped together.
  const query = checkQuery(state.url, operation.query)
  const body = checkInput(operation.body, json, 'body')
  const issues = validationIssues(query, body, checkHeaders(operation, request.headers))
  if (issues.length > 0) throw validationError(issues)
  const params = pathParams(operation, rawParams)

  const now = new Date()
  const store = state.span === undefined ? config.store : tracedStore(config.store, state.span)
  const execute = () =>
    operation.handle({
      operationId: operation.id,
      request,
      url: state.url,
      requestId: state.requestId,
      principal,
      tenantId: principal.tenantId,
      params,
      query: (query as { value: unknown }).value,
      body: (body as { value: unknown }).value,
      store,
      now,
      basePath: config.basePath,
      publicOrigin: config.publicOrigin,
      webhooks: config.webhooks,
      maxEventsPageBytes: config.maxEventsPageBytes,
    } as Parameters<AnyOperation['handle']>[0])
  const result: OperationResult = operation.idempotent
    ? await withIdempotency(request, state.url, json, principal.tenantId, store, now, execute, (error) =>
        config.onError(error, { request: receivedRequest(request, state), requestId: state.requestId }),
      )
    : await execute()
  return jsonReply(result.status, result.body, result.headers)
}

/**
 * Counts a request of a route outside the registry (the MCP endpoint, docs/mcp.md) as `cost`
 * requests of the key's bucket and of the tenant's with `tenantRateLimit`, all at once, and a 429
 * when either bucket has fewer than `cost` left.
 */
export async function countRequest(
  principal: Principal,
  state: RequestState,
  config: PipelineConfig,
  cost = 1,
): Promise<void> {
  if (config.tenantRateLimit === undefined)
    state.rateLimit = await consumeCost(config.rateLimiter, principal.keyId, principal.rateLimit, cost)
  else
    await consumeBoth(
      principal.keyId,
      principal.tenantId,
      principal.rateLimit,
      config.tenantRateLimit,
      state,
      config,
      cost,
    )
  refuseWhenLimited(state)
}

/**
 * `cost` requests of `key` on `limiter` (src/ports/rate-limiter.ts): at once when it declares
 * `countsCost`, else one at a time up to the first refusal.
 */
async function consumeCost(
  limiter: RateLimiter,
  key: string,
  rule: RateLimitRule | undefined,
  cost: number,
): Promise<RateLimitResult> {
  if (cost === 1) return limiter.consume(key, rule)
  if (limiter.countsCost === true) return limiter.consume(key, rule, cost)
  let result = await limiter.consume(key, rule)
  for (let counted = 1; counted < cost && result.allowed; counted++) result = await limiter.consume(key, rule)
  return result
}

/** Counts the request against its key's bucket and its tenant's (`tenantRateLimit`), concurrently. */
async function consumeBoth(
  keyId: string,
  tenantId: string,
  rule: RateLimitRule | undefined,
  tenantRule: RateLimitRule,
  state: RequestState,
  config: PipelineConfig,
  cost = 1,
): Promise<void> {
  const [key, tenant] = await Promise.all([
    consumeCost(config.rateLimiter, keyId, rule, cost),
    consumeCost(config.rateLimiter, TENANT_BUCKET_PREFIX + tenantId, tenantRule, cost),
  ])
  state.rateLimit = key
  state.tenantRateLimit = tenant
}

/**
 * 429 when the key's or the tenant's bucket is spent. `Retry-After` is the reset of the bucket that
 * blocks longest, the one the `RateLimit` fields describe (shownBucket), taken at the same instant.
 */
function refuseWhenLimited(state: RequestState): void {
  const key = state.rateLimit!
  const tenant = state.tenantRateLimit
  if (key.allowed && (tenant === undefined || tenant.allowed)) return
  const { name, result } = shownBucket(key, tenant)
  const now = (state.limitedAt = Date.now())
  const message =
    name === 'tenant'
      ? "Too many requests for this API key's tenant; retry after the window resets"
      : 'Too many requests for this API key; retry after the window resets'
  throw new ApiError('RATE_LIMITED', message, undefined, { 'retry-after': String(retryAfterSeconds(result, now)) })
}

/** The Error-shape reply for anything thrown; unexpected errors go to `onError` and say nothing. */
export function errorToReply(
  error: unknown,
  request: Request,
  state: RequestState,
  config: PipelineConfig,
): ReplyParts {
  const known = apiErrorOf(error) ?? error
  // An ApiError with a code outside the table is a host bug (untyped code): a 500 like any other.
  if (known instanceof ApiError && isErrorCode(known.code)) {
    state.errorCode = known.code
    return errorReply(known.status, known.code, known.message, state.requestId, known.details, known.headers)
  }
  // A client that hung up mid-request is not a fault of ours: nobody reads the answer, nothing to log.
  if (!request.signal?.aborted)
    config.onError(error, { request: receivedRequest(request, state), requestId: state.requestId })
  if (error instanceof StoreUnavailableError) {
    state.errorCode = 'SERVICE_UNAVAILABLE'
    return errorReply(
      503,
      'SERVICE_UNAVAILABLE',
      'The service is temporarily unavailable; retry shortly',
      state.requestId,
      undefined,
      { 'retry-after': '1' },
    )
  }
  state.errorCode = 'INTERNAL_ERROR'
  return errorReply(500, 'INTERNAL_ERROR', 'An unexpected error occurred', state.requestId)
}

/**
 * The last step for every reply: request id, rate-limit headers, no caching, HEAD without body.
 * Every route answers with parts, so its headers are still a plain record: no `Headers` to change.
 */
export function finishReply(parts: ReplyParts, request: Request, state: RequestState): ReplyParts {
  const headers = parts.headers
  headers['x-request-id'] = state.requestId
  // Bodies echo client input (a 404 names the path): no browser may sniff them into HTML.
  headers['x-content-type-options'] = 'nosniff'
  if (state.rateLimit !== undefined) {
    writeRateLimitFields(headers, state.rateLimit, state.tenantRateLimit, state.limitedAt)
    headers['cache-control'] = 'no-store'
  }
  if (request.method === 'HEAD') {
    parts.body = null
    parts.value = undefined
  }
  return parts
}

/** 405 with `Allow` for a known path and another method; 204 with `Allow` for OPTIONS. */
export function methodNotAllowed(request: Request, allowed: readonly string[], state: RequestState): ReplyParts {
  const allow = allowed.join(', ')
  if (request.method === 'OPTIONS') return reply(204, null, { allow })
  state.errorCode = 'METHOD_NOT_ALLOWED'
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
export function routeNotFound(request: Request, state: RequestState): ReplyParts {
  state.errorCode = 'NOT_FOUND'
  const message = `No route matches ${echoed(request.method)} ${echoed(state.url.pathname)}`
  return errorReply(404, 'NOT_FOUND', message, state.requestId)
}
