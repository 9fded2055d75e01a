/**
 * Marks a request the MCP endpoint makes for a `tools/call` (docs/mcp.md) with the tool's name, the
 * principal the MCP request authenticated as and counted, and that MCP request: the pipeline's `onResponse`
 * event and span name the tool, the key is resolved once per MCP request, not again for its call (a
 * host's `keyResolver` may be a database read), `onError` is handed the request the host received,
 * and the call's span is a child of the MCP request's. A WeakMap rather than a header: a REST
 * client cannot send the mark, and it goes with the request object, which only the MCP endpoint
 * makes.
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

const TOOL_CALLS = new WeakMap<Request, ToolCall>()

/**
 * Marks `request` as the REST request of a `tools/call`.
 *
 * @example
 * markToolCall(request, { tool: 'listTickets', principal, received: mcpRequest, span: state.span })
 */
export function markToolCall(request: Request, call: ToolCall): void {
  TOOL_CALLS.set(request, call)
}

/**
 * The tool call `request` is, or undefined for any other request.
 *
 * @example
 * toolCallOf(request)?.tool // 'listTickets'
 */
export function toolCallOf(request: Request): ToolCall | undefined {
  return TOOL_CALLS.get(request)
}
