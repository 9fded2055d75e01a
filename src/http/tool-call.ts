/**
 * Marks a request the MCP endpoint makes for a `tools/call` (docs/mcp.md) with the tool's name, so
 * that the pipeline's `onResponse` event and span name the tool. A WeakMap rather than a header: a
 * REST client cannot send it, and the mark goes with the request object.
 */
const TOOL_CALLS = new WeakMap<Request, string>()

/**
 * Marks `request` as the REST request of a `tools/call` of `tool`.
 *
 * @example
 * markToolCall(request, 'listTickets')
 */
export function markToolCall(request: Request, tool: string): void {
  TOOL_CALLS.set(request, tool)
}

/**
 * The tool whose call `request` is, or undefined for any other request.
 *
 * @example
 * toolCallOf(request) // 'listTickets'
 */
export function toolCallOf(request: Request): string | undefined {
  return TOOL_CALLS.get(request)
}
