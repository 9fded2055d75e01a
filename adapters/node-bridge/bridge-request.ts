/**
 * Which `Request` the Node mounts hand a handler. The API itself (a handler `createPublicApi` made,
 * marked with a registered symbol) gets the lightweight request (lightweight-request.ts): it reads
 * only what that one answers without building a native Request, a measurable share of a small
 * request's cost (bench/README.md#http). Any other handler (a wrapper, another
 * framework's app, a proxy that calls `fetch(request)`) gets a native one (native-request.ts),
 * which undici's `new Request(request)` and `fetch(request)` accept.
 */
import type { BridgeRequestOverrides, NodeBridgeOptions, NodeIncoming, NodeOutgoing } from './bridge-types.js'
import { lightweightRequest } from './lightweight-request.js'
import { nativeRequest } from './native-request.js'
import { BadRequestTargetError, requestUrl } from './request-url.js'

/** How `createPublicApi` marks the handler it makes (src/create-public-api.ts): heard across copies. */
const PUBLIC_API = Symbol.for('tenant-public-api.public-api')

/** Methods a Fetch `Request` cannot carry (the constructor throws on them). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

/** The request's URL; throws for a target, Host or method that makes no Fetch Request. */
function checkedUrl(incoming: NodeIncoming, options: NodeBridgeOptions, target: string | undefined): string {
  const method = incoming.method
  if (method !== undefined && method !== 'GET' && FORBIDDEN_METHODS.has(method.toUpperCase()))
    throw new BadRequestTargetError(`${method} requests are not served: a Fetch Request cannot carry the method`)
  return requestUrl(incoming, target ?? incoming.url ?? '/', options)
}

/**
 * Builds the native `Request` for one Node request, tied to the response, so that a client that
 * goes away before the response is finished aborts `request.signal` and the body stream. Throws
 * `BadRequestTargetError` for a target or Host that makes no URL, and for a method a Fetch Request
 * cannot carry (CONNECT, TRACE, TRACK).
 *
 * @example
 * const request = createNodeRequest(req, res, { trustProxy: false })
 * await writeResponse(await handler(request), req, res)
 */
export function createNodeRequest(
  incoming: NodeIncoming,
  outgoing: NodeOutgoing,
  options: NodeBridgeOptions = {},
  overrides?: BridgeRequestOverrides,
): Request {
  return nativeRequest(incoming, outgoing, checkedUrl(incoming, options, overrides?.target), options, overrides)
}

/**
 * Builds the `Request` a mount hands `handler` (see the file comment); throws as
 * {@link createNodeRequest} does.
 *
 * @example
 * const request = requestFor(api, req, res, options)
 * await writeResponse(await api(request), req, res)
 */
export function requestFor(
  handler: (request: Request) => Promise<Response>,
  incoming: NodeIncoming,
  outgoing: NodeOutgoing,
  options: NodeBridgeOptions,
  overrides?: BridgeRequestOverrides,
): Request {
  const url = checkedUrl(incoming, options, overrides?.target)
  return (handler as { [PUBLIC_API]?: unknown })[PUBLIC_API] === true
    ? lightweightRequest(incoming, outgoing, url, options, overrides)
    : nativeRequest(incoming, outgoing, url, options, overrides)
}
