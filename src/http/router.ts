/**
 * The only file that imports itty-router (pinned to 5.0.x: 6.0 ships broken type paths). It maps
 * the operation registry onto routes (itty's route table: its patterns and their order); the
 * pipeline does the rest. The table is walked by {@link dispatch}, in itty's order and with its
 * rules, on the URL the pipeline parsed once.
 */
import { Router } from 'itty-router'
import { guardErrorListener, notifyResponse } from './observe.js'
import { endRequestSpan, startRequestSpan } from './tracing.js'
import type { AnyOperation } from './operation.js'
import {
  errorToReply,
  finishReply,
  methodNotAllowed,
  refuseCookies,
  routeNotFound,
  runOperation,
  receivedRequest,
  startRequest,
  type PipelineConfig,
  type RequestState,
} from './pipeline.js'
import { toResponse, type ReplyParts } from './reply.js'
import type { ToolCall, ToolCallDispatch } from './tool-call.js'

/**
 * A route outside the registry: the OpenAPI document and the docs page (GET, no authentication),
 * and the MCP endpoint (POST, which authenticates and counts its requests itself: docs/mcp.md).
 */
export interface PublicRoute {
  path: string
  /** Default `GET` (served for `HEAD` too). */
  method?: 'GET' | 'POST'
  handle: (request: Request, state: RequestState) => ReplyParts | Promise<ReplyParts>
}

/**
 * What itty-router matches and writes its findings to (`query`, `params`, `route`). It hands its
 * handlers `proxy`, the caller's Request, which the API so never writes to: a host's Request is
 * not ours to change, and a write to a Node mount's lightweight one costs more than to a plain object.
 */
interface Routing {
  method: string
  url: string
  proxy: Request
  params?: Record<string, string>
}

/** The API's handler, and the same handler for the requests of MCP tool calls (tool-call.ts). */
export interface ApiRouter {
  answer: (request: Request) => Promise<Response>
  answerToolCall: ToolCallDispatch
}

/**
 * Builds the API's handler: one itty-router route per operation, 405s per path, 404 for the rest.
 * Every answer is a reply's parts, finished, and only then made a `Response` (see reply.ts).
 *
 * @example
 * const router = buildRouter(operations, [mcpRoute(mcp, config, (r, call) => router.answerToolCall(r, call))], config)
 * const api = router.answer
 */
export function buildRouter(
  operations: readonly AnyOperation[],
  publicRoutes: readonly PublicRoute[],
  hostConfig: PipelineConfig,
): ApiRouter {
  // Neither hook can change an answer or end the process (docs/observability.md).
  const config: PipelineConfig = { ...hostConfig, onError: guardErrorListener(hostConfig.onError) }
  const onResponse = config.onResponse
  const router = Router<Request, [RequestState, Routing]>()
  const finish = (parts: ReplyParts, request: Request, state: RequestState): Response => {
    const finished = finishReply(parts, request, state)
    if (state.span !== undefined) endRequestSpan(state.span, request.method, finished.status, state)
    if (onResponse !== undefined)
      notifyResponse(onResponse, request.method, finished.status, state, (error) =>
        config.onError(error, { request: receivedRequest(request, state), requestId: state.requestId }),
      )
    return toResponse(request, finished)
  }
  const fail = (error: unknown, request: Request, state: RequestState) => errorToReply(error, request, state, config)

  const allowed = new Map<string, string[]>()
  const allow = (path: string, ...methods: string[]) => allowed.set(path, [...(allowed.get(path) ?? []), ...methods])

  for (const route of publicRoutes) {
    const path = config.basePath + route.path
    const handler = (request: Request, state: RequestState) => {
      state.route = path
      return route.handle(request, state)
    }
    if (route.method === 'POST') {
      router.post(path, handler)
      allow(path, 'POST')
      continue
    }
    router.get(path, handler)
    router.head(path, handler)
    allow(path, 'GET', 'HEAD')
  }
  for (const operation of operations) {
    const path = config.basePath + operation.path
    // The route as OpenAPI (and OpenTelemetry's http.route) names it: `{id}`, not itty's `:id`.
    const template = config.basePath + operation.path.replace(/:(\w+)/g, '{$1}')
    const handler = (request: Request, state: RequestState, routing: Routing) => {
      state.operationId = operation.id
      state.route = template
      return runOperation(operation, request, routing.params ?? {}, state, config)
    }
    router[operation.method.toLowerCase() as 'get'](path, handler)
    if (operation.method === 'GET') {
      router.head(path, handler)
      allow(path, 'GET', 'HEAD')
    } else {
      allow(path, operation.method)
    }
  }
  for (const [path, methods] of allowed) {
    const list = [...methods, 'OPTIONS']
    const template = path.replace(/:(\w+)/g, '{$1}')
    router.all(path, (request, state) => {
      state.route = template
      return methodNotAllowed(request, list, state)
    })
  }
  router.all('*', (request, state) => routeNotFound(request, state))

  const handle = (request: Request, toolCall: ToolCall | undefined): Promise<Response> => {
    let state: RequestState
    try {
      state = startRequest(request, onResponse === undefined ? 0 : performance.now(), toolCall)
      state.span = startRequestSpan(request, state.requestId, toolCall?.span)
    } catch (error) {
      // A Fetch handler fails by rejecting, never by throwing at its caller.
      return Promise.reject(error)
    }
    return dispatch(router.routes as unknown as readonly Route[], request, state, finish, fail)
  }
  return { answer: (request) => handle(request, undefined), answerToolCall: handle }
}

/** One entry of itty's route table: method (or `ALL`), pattern, handlers. */
type Route = readonly [method: string, pattern: RegExp, handlers: readonly RouteHandler[], path?: string]
type RouteHandler = (
  request: Request,
  state: RequestState,
  routing: Routing,
) => ReplyParts | undefined | Promise<ReplyParts | undefined>

/**
 * What itty-router's `fetch` does with the table, without what the API does not use: the first
 * handler of a matching route (in the order routes were added) that answers wins, a throw goes to
 * `fail`, and the answer is finished. Unlike itty's own `fetch`, it does not parse the URL a second
 * time (the pipeline's `state.url` is the same URL) nor collect the query into an object nobody
 * reads, and it awaits only what is a promise.
 */
async function dispatch(
  routes: readonly Route[],
  request: Request,
  state: RequestState,
  finish: (parts: ReplyParts, request: Request, state: RequestState) => Response,
  fail: (error: unknown, request: Request, state: RequestState) => ReplyParts,
): Promise<Response> {
  let parts: ReplyParts | undefined
  try {
    refuseCookies(request)
    const pathname = state.url.pathname
    // itty-router would also match `/tickets/` and `/tickets//`; one canonical URL per resource
    // keeps the document, caches and logs honest, so a trailing slash is an unknown path.
    if (pathname.length > 1 && pathname.endsWith('/')) parts = routeNotFound(request, state)
    else {
      const method = request.method
      let routing: Routing | undefined
      found: for (const [routeMethod, pattern, handlers] of routes) {
        if (routeMethod !== method && routeMethod !== 'ALL') continue
        const match = pathname.match(pattern)
        if (match === null) continue
        routing ??= { method, url: request.url, proxy: request }
        routing.params = match.groups ?? {}
        for (const handler of handlers) {
          const answer = handler(request, state, routing)
          parts = answer instanceof Promise ? await answer : answer
          if (parts != null) break found
        }
      }
    }
  } catch (error) {
    parts = fail(error, request, state)
  }
  try {
    return finish(parts as ReplyParts, request, state)
  } catch (error) {
    // As itty-router did: a failure while finishing is answered by `fail` as it is (should the
    // request's own reply factory be what failed, the handler rejects and its mount answers).
    return toResponse(request, fail(error, request, state))
  }
}
