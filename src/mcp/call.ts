/**
 * A `tools/call` is a request of its operation (docs/mcp.md): the tool's arguments become the REST
 * request (path, query string, JSON body, `Idempotency-Key`, `If-Match`) with the MCP request's
 * `Authorization` and request id, and it runs through the API's own handler, so scopes, tenant
 * isolation, validation, idempotency, `onResponse` and spans are the REST ones. Its rate limits were
 * counted with its MCP request's messages (docs/mcp.md#counting): its REST request is not counted again.
 */
import type { ReplyParts } from '../http/reply.js'
import type { Principal } from '../http/principal.js'
import type { RateLimitResult } from '../ports/rate-limiter.js'
import type { ToolCall, ToolCallDispatch } from '../http/tool-call.js'
import type { RequestSpan } from '../http/tracing.js'
import { toolRequestOf } from './tool-request.js'
import type { McpTool } from './tools.js'

/** What a tool call answered: the REST status, its JSON body as text, and `Retry-After` when sent. */
export interface ToolOutcome {
  status: number
  body: string
  /** The value `body` was serialised from, when the API serialised one (its records' texts are reused). */
  value: unknown
  requestId: string
  retryAfter: number | undefined
}

/** A `tools/call` whose arguments cannot make a request at all (JSON-RPC `-32602`, invalid params). */
export class InvalidToolArguments extends Error {}

/** What a tool call takes from the MCP request it came in. */
export interface CallContext {
  /** `{origin}{basePath}` of the MCP request. */
  base: string
  authorization: string | null
  /** Who the MCP request authenticated as: its tool calls are served as this key, not resolved again. */
  principal: Principal
  /** The MCP request, as the host's mount handed it over. */
  received: Request
  /** The MCP request's span, when traced. */
  span: RequestSpan | undefined
  requestId: string
  /** The API's own handler, told which call a request is. */
  dispatch: ToolCallDispatch
  /** The key's bucket as the MCP request counted it (with all its messages): calls are not counted again. */
  rateLimit: RateLimitResult
  /** The tenant's bucket as the MCP request counted it, with `tenantRateLimit`. */
  tenantRateLimit: RateLimitResult | undefined
}

/** A query value as the REST API reads it: arrays comma-separated (OpenAPI form style), objects as JSON. */
function queryValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(queryValue).join(',')
  if (typeof value === 'object' && value !== null) return JSON.stringify(value)
  return String(value)
}

/**
 * The REST request of a call of `tool` with `args`, whose reply the API hands to `makeReply`, and the
 * call the API is told of with it.
 */
function toolRequest(
  tool: McpTool,
  args: Record<string, unknown>,
  context: CallContext,
  makeReply: (parts: ReplyParts) => Response,
): { request: Request; call: ToolCall } {
  const { operation, route } = tool
  let path = operation.path
  for (const name of route.path) {
    const value = args[name]
    if (typeof value !== 'string' || value === '')
      throw new InvalidToolArguments(`Argument ${name} is required and must be a non-empty string`)
    path = path.replace(`:${name}`, encodeURIComponent(value))
  }
  const query = new URLSearchParams()
  const body: Record<string, unknown> = {}
  const headers: Record<string, string> = { 'x-request-id': context.requestId }
  if (context.authorization !== null) headers.authorization = context.authorization
  for (const [name, value] of Object.entries(args)) {
    if (route.path.includes(name) || value === undefined) continue
    const header = route.headers.get(name)
    if (header !== undefined) headers[header.toLowerCase()] = queryValue(value)
    else if (route.query.has(name) || !route.body) query.append(name, queryValue(value))
    else body[name] = value
  }
  const search = query.size > 0 ? `?${query}` : ''
  if (route.body) headers['content-type'] = 'application/json'
  const request = toolRequestOf({
    method: operation.method,
    url: `${context.base}${path}${search}`,
    headers,
    body: route.body ? JSON.stringify(body) : null,
    received: context.received,
    makeReply,
  })
  const { principal, received, span, rateLimit, tenantRateLimit } = context
  return { request, call: { tool: tool.definition.name, principal, received, span, rateLimit, tenantRateLimit } }
}

/**
 * Runs a call of `tool` through the API's handler.
 *
 * @example
 * const outcome = await callTool(findTool('listTickets')!, { limit: 5 }, context)
 * outcome.status // 200
 */
export async function callTool(
  tool: McpTool,
  args: Record<string, unknown>,
  context: CallContext,
): Promise<ToolOutcome> {
  let parts: ReplyParts | undefined
  // The handler hands its finished reply to the request's reply factory (src/http/reply.ts, toResponse),
  // as a mount's requests do: the call reads the parts as they are, no Response made, no body stream read.
  const { request, call } = toolRequest(tool, args, context, (made) => {
    parts = made
    return PARTS_TAKEN
  })
  await context.dispatch(request, call)
  if (parts === undefined) throw new Error('The API answered a tool call without its reply factory')
  const retry = parts.headers['retry-after']
  const body = parts.body ?? ''
  return {
    status: parts.status,
    body,
    value: parts.value,
    requestId: context.requestId,
    retryAfter: retry === undefined ? undefined : Number(retry),
  }
}

/** What the factory gives the handler to return: never read, since the call keeps the parts. */
const PARTS_TAKEN = Object.freeze({}) as Response
