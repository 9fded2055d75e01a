/**
 * The only file that imports itty-router (pinned to 5.0.x: 6.0 ships broken type paths). It maps
 * the operation registry onto routes; the pipeline does the rest.
 */
import { Router } from 'itty-router'
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
import type { LightweightResponse } from './reply.js'

/** A route outside the registry that needs no authentication (the OpenAPI document, the docs page). */
export interface PublicRoute {
  path: string
  handle: (request: Request) => LightweightResponse | Promise<LightweightResponse>
}

/** Answers a request with the API's reply (see reply.ts: a `Response` whose native one is built only if needed). */
export type ReplyHandler = (request: Request) => Promise<LightweightResponse>

/** Builds the reply handler: one itty-router route per operation, 405s per path, 404 for the rest. */
export function buildRouter(
  operations: readonly AnyOperation[],
  publicRoutes: readonly PublicRoute[],
  config: PipelineConfig,
): ReplyHandler {
  const router = Router<Request & { params: Record<string, string> }, [RequestState]>({
    before: [
      (request) => void refuseCookies(request),
      // itty-router would also match `/tickets/` and `/tickets//`; one canonical URL per resource
      // keeps the document, caches and logs honest, so a trailing slash is an unknown path.
      (request, state) =>
        state.url.pathname.length > 1 && state.url.pathname.endsWith('/') ? routeNotFound(request, state) : undefined,
    ],
    catch: (error, request, state) => errorToResponse(error, request, state, config),
    finally: [(response: LightweightResponse, request, state) => finishResponse(response, request, state)],
  })

  const allowed = new Map<string, string[]>()
  const allow = (path: string, ...methods: string[]) => allowed.set(path, [...(allowed.get(path) ?? []), ...methods])

  for (const route of publicRoutes) {
    const path = config.basePath + route.path
    router.get(path, (request) => route.handle(request))
    router.head(path, (request) => route.handle(request))
    allow(path, 'GET', 'HEAD')
  }
  for (const operation of operations) {
    const path = config.basePath + operation.path
    const handler = (request: Request & { params: Record<string, string> }, state: RequestState) =>
      runOperation(operation, request, request.params, state, config)
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
    router.all(path, (request, state) => methodNotAllowed(request, list, state))
  }
  router.all('*', (request, state) => routeNotFound(request, state))

  return (request) => {
    let state: RequestState
    try {
      state = startRequest(request)
    } catch (error) {
      // A Fetch handler fails by rejecting, never by throwing at its caller.
      return Promise.reject(error)
    }
    return router.fetch(request, state) as Promise<LightweightResponse>
  }
}
