/**
 * OpenTelemetry spans (docs/observability.md#opentelemetry), through `@opentelemetry/api` only:
 * an optional peer, loaded with a dynamic import when an API is created, so a host without it
 * never loads it and one with it pays only when a tracer provider is registered. Per request the
 * untraced path reads the global provider's delegate and compares it with the no-op one: no
 * allocation, no span object.
 */
import type * as OtelApi from '@opentelemetry/api'
import type { Store } from '../ports/store.js'

type Api = typeof OtelApi

let api: Api | undefined
let noopProvider: OtelApi.TracerProvider | undefined
let loading: Promise<void> | undefined

/** The name the spans' tracer carries (the instrumentation scope). */
const SCOPE = 'tenant-public-api'
// A variable specifier, marked for webpack: bundlers must not try to resolve an optional peer.
const OTEL_API = '@opentelemetry/api'

/**
 * Starts loading `@opentelemetry/api` (once per process); requests are traced from when it has
 * loaded. Without the package installed this does nothing.
 */
export function loadTracing(): Promise<void> {
  loading ??= import(/* webpackIgnore: true */ /* @vite-ignore */ OTEL_API).then(
    (module: Api) => {
      // Named exports, or (a CommonJS copy loaded through import()) everything on `default`.
      const otel = module.SpanKind !== undefined ? module : (module as unknown as { default: Api }).default
      // A fresh proxy delegates to the no-op provider: what the global one returns while none is registered.
      noopProvider = new otel.ProxyTracerProvider().getDelegate()
      api = otel
    },
    () => undefined,
  )
  return loading
}

/** A request's span and the API it came from. */
export interface RequestSpan {
  span: OtelApi.Span
  context: OtelApi.Context
  api: Api
}

const headerGetter: OtelApi.TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
}

/**
 * The request's SERVER span, or undefined (no allocation) while no tracer provider is registered.
 * `within` is the span of the request this one is made for (an MCP tool call's MCP request).
 */
export function startRequestSpan(
  request: Request,
  requestId: string,
  within: RequestSpan | undefined,
): RequestSpan | undefined {
  if (api === undefined) return undefined
  const provider = api.trace.getTracerProvider() as OtelApi.TracerProvider & { getDelegate?: () => unknown }
  if (provider.getDelegate?.() === noopProvider) return undefined
  // A `traceparent` the client sent joins its trace (when the host registered a propagator).
  const parent = within?.context ?? api.propagation.extract(api.context.active(), request.headers, headerGetter)
  const span = provider.getTracer(SCOPE).startSpan(
    request.method,
    {
      kind: api.SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'request.id': requestId },
    },
    parent,
  )
  return { span, context: api.trace.setSpan(parent, span), api }
}

/** What the request state says about the request, set on the span before it ends. */
export interface SpanOutcome {
  route: string | null
  tenantId: string | null
  keyId: string | null
  errorCode: string | null
  /** The MCP tool of a `tools/call` (docs/mcp.md), set as `mcp.tool`. */
  tool?: string | undefined
}

/** Names the span `{method} {route}`, sets the status and identity attributes, and ends it. */
export function endRequestSpan(traced: RequestSpan, method: string, status: number, outcome: SpanOutcome): void {
  const { span, api: otel } = traced
  if (outcome.route !== null) {
    span.updateName(`${method} ${outcome.route}`)
    span.setAttribute('http.route', outcome.route)
  }
  span.setAttribute('http.response.status_code', status)
  if (outcome.tenantId !== null) span.setAttribute('tenant.id', outcome.tenantId)
  if (outcome.keyId !== null) span.setAttribute('api_key.id', outcome.keyId)
  if (outcome.tool !== undefined) span.setAttribute('mcp.tool', outcome.tool)
  // HTTP semantic conventions: a server span is an error for 5xx only; the code, never the cause.
  if (status >= 500) {
    span.setAttribute('error.type', outcome.errorCode ?? String(status))
    span.setStatus({ code: otel.SpanStatusCode.ERROR })
  }
  span.end()
}

/**
 * The store as an operation sees it while traced: every method call is a child span
 * `store {method}`, with `store.collection` when its first argument is a collection (`get`,
 * `list`, the generic writes), ended when its promise settles (an error recorded by its name only).
 */
export function tracedStore(store: Store, traced: RequestSpan): Store {
  const { api: otel, context } = traced
  const tracer = otel.trace.getTracer(SCOPE)
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown
      if (typeof value !== 'function' || typeof property !== 'string') return value
      return (...args: unknown[]) => {
        const collection = (args[0] as { table?: unknown; name?: unknown } | undefined)?.name
        const attributes: Record<string, string> = { 'store.method': property }
        if (typeof args[0] === 'object' && typeof collection === 'string') attributes['store.collection'] = collection
        const span = tracer.startSpan(`store ${property}`, { kind: otel.SpanKind.INTERNAL, attributes }, context)
        const fail = (error: unknown) => {
          span.setAttribute('error.type', error instanceof Error ? error.name : 'unknown')
          span.setStatus({ code: otel.SpanStatusCode.ERROR })
          span.end()
          throw error
        }
        try {
          const result = (value as (...a: unknown[]) => unknown).apply(target, args)
          if (typeof (result as PromiseLike<unknown> | undefined)?.then !== 'function') {
            span.end()
            return result
          }
          return (result as Promise<unknown>).then((settled) => {
            span.end()
            return settled
          }, fail)
        } catch (error) {
          return fail(error)
        }
      }
    },
  })
}
