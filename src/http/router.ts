/**
 * The only file that imports itty-router (pinned to 5.0.x: 6.0 ships broken type paths). It maps
 * the operation registry onto routes; the pipeline does the rest.
 */
import { Router } from 'itty-router'
import { notifyResponse } from './observe.js'
import { endRequestSpan, startRequestSpan } from './tracing.js'
import type { AnyOperation } from './operation.js'
import {
  errorToResponse,
  finishResponse,
  methodNotAllowed,
  refuseCookies,
  routeNotFound,
  runOperation,
  startRequest,
  type PipelineConfig,
  type RequestState,
} from './pipeline.js'
import { forHost, type LightweightResponse } from './reply.js'

/** A route outside the registry that needs no authentication (the OpenAPI document, the docs page). */
export interface PublicRoute {
  path: string
  handle: (request: Request) => LightweightResponse | Promise<LightweightResponse>
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

/**
 * Builds the API's handler: one itty-router route per operation, 405s per path, 404 for the rest.
 * Every answer is a reply, finished and then handed over as its host takes it (see reply.ts).
 */
export function buildRouter(
  operations: readonly AnyOperation[],
  publicRoutes: readonly PublicRoute[],
  config: PipelineConfig,
): (request: Request) => Promise<Response> {
  const onResponse = config.onResponse
  const router = Router<Request, [RequestState, Routing]>({
    before: [
      (request) => void refuseCookies(request),
      // itty-router would also match `/tickets/` and `/tickets//`; one canonical URL per resource
      // keeps the document, caches and logs honest, so a trailing slash is an unknown path.
      (request, state) =>
        state.url.pathname.length > 1 && state.url.pathname.endsWith('/') ? routeNotFound(request, state) : undefined,
    ],
    catch: (error, request, state) => errorToResponse(error, request, state, config),
    finally: [
      (response: LightweightResponse, request, state) => {
        const finished = finishResponse(response, request, state)
        if (state.span !== undefined) endRequestSpan(state.span, request.method, finished.status, state)
        if (onResponse !== undefined)
          notifyResponse(onResponse, request.method, finished.status, state, (error) =>
            config.onError(error, { request, requestId: state.requestId }),
          )
        return forHost(finished)
      },
    ],
  })

  const allowed = new Map<string, string[]>()
  const allow = (path: string, ...methods: string[]) => allowed.set(path, [...(allowed.get(path) ?? []), ...methods])

  for (const route of publicRoutes) {
    const path = config.basePath + route.path
    const handler = (request: Request, state: RequestState) => {
      state.route = path
      return route.handle(request)
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

  return (request) => {
    let state: RequestState
    try {
      state = startRequest(request, onResponse === undefined ? 0 : performance.now())
      state.span = startRequestSpan(request, state.requestId)
    } catch (error) {
      // A Fetch handler fails by rejecting, never by throwing at its caller.
      return Promise.reject(error)
    }
    const routing: Routing = { method: request.method, url: request.url, proxy: request }
    return router.fetch(routing, state, routing) as Promise<Response>
  }
}
