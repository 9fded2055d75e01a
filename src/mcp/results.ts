/**
 * The JSON-RPC texts the MCP endpoint answers with (docs/mcp.md): tool results, `tools/list` pages
 * and errors, written as text so that a tool's REST body is copied into the result, never parsed
 * and serialised again.
 */
import type { ToolOutcome } from './call.js'

/** JSON-RPC's "invalid params" code: an unknown tool, arguments that make no request, a bad cursor. */
export const INVALID_PARAMS = -32602

/** A JSON-RPC error of a request (the SDK's `McpError` on its path). */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/** The `_meta` key prefix of this API's result metadata. */
const META = 'tenant-public-api/'

/**
 * A tools/call result as JSON text: the REST body as `structuredContent` and as a text block
 * (`bodyAsString`, the body escaped as the contents of a JSON string); `isError` for an error status,
 * with the seconds to wait when the API sent `Retry-After`. Its size is bounded before it is made
 * (bounded-result.ts).
 *
 * @example
 * const body = '{"data":[]}'
 * toolResultText({ status: 200, body, value: undefined, requestId: 'r1', retryAfter: undefined }, '{\\"data\\":[]}')
 */
export function toolResultText(outcome: ToolOutcome, bodyAsString: string): string {
  const isError = outcome.status >= 400
  const blocks = [`{"type":"text","text":"${bodyAsString}"}`]
  const meta: Record<string, unknown> = { [`${META}requestId`]: outcome.requestId, [`${META}status`]: outcome.status }
  if (outcome.retryAfter !== undefined) {
    meta[`${META}retryAfter`] = outcome.retryAfter
    blocks.push(`{"type":"text","text":${JSON.stringify(`Retry after ${outcome.retryAfter} seconds.`)}}`)
  }
  const content = `"content":[${blocks.join(',')}]`
  return `{${content},"structuredContent":${outcome.body},"isError":${isError},"_meta":${JSON.stringify(meta)}}`
}

/** A JSON-RPC response text with `result` (already JSON text) for request `id`. */
export function resultMessage(id: string | number, result: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`
}

/** A JSON-RPC error response text for request `id`. */
export function errorMessage(id: string | number, error: JsonRpcError): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code: error.code, message: error.message } })
}
