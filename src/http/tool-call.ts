/**
 * What the MCP endpoint hands the pipeline with a request it makes for a `tools/call` (docs/mcp.md):
 * the tool's name, the principal the MCP request authenticated as and counted, and that MCP request.
 * So the pipeline's `onResponse` event and span name the tool, the key is resolved once per MCP
 * request, not again for its call (a host's `keyResolver` may be a database read), `onError` is handed
 * the request the host received, and the call's span is a child of the MCP request's. Handed beside
 * the request, through the {@link ToolCallDispatch} the router gives the MCP endpoint when
 * create-public-api.ts assembles them, never on the request (a header a REST client could send) nor
 * in a module's table: nothing but that endpoint can make a request a tool call.
 */
import type { RateLimitResult } from '../ports/rate-limiter.js'
import type { Principal } from './principal.js'
import type { RequestSpan } from './tracing.js'

/** What the MCP endpoint tells the pipeline about a request it made for a tool call. */
export interface ToolCall {
  /** The tool's name. */
  tool: string
  /** Who the MCP request authenticated as; the call's scopes and rate limit are this key's. */
  principal: Principal
  /** The MCP request the call came in, which host hooks are handed in its place. */
  received: Request
  /** The MCP request's span, when traced: the call's span is its child. */
  span: RequestSpan | undefined
  /**
   * The key's bucket as the MCP request counted it, with every message of it (docs/mcp.md): the call
   * is not counted again, and reports this.
   */
  rateLimit: RateLimitResult
  /** The tenant's bucket as the MCP request counted it, with `tenantRateLimit`. */
  tenantRateLimit: RateLimitResult | undefined
}

/**
 * The API's own handler for the REST request of a tool call, `call` handed beside it: what the router
 * gives the MCP endpoint (src/http/router.ts, `answerToolCall`).
 *
 * @example
 * const call = { tool: 'listTickets', principal, received, span, rateLimit, tenantRateLimit }
 * const response = await dispatch(request, call)
 */
export type ToolCallDispatch = (request: Request, call: ToolCall) => Promise<Response>
