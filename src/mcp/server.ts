/**
 * The MCP endpoint, `POST {basePath}/mcp` (docs/mcp.md): the Streamable HTTP transport, stateless,
 * JSON responses. The HTTP request is checked as a REST one (Origin, bearer key, JSON content type,
 * body size and depth, counted against the rate limit unless it calls tools, which count as their
 * own requests); then the JSON-RPC messages are served.
 *
 * The SDK (`Server` and `WebStandardStreamableHTTPServerTransport`, one pair per request, since its
 * stateless transport cannot be reused) serves every message: initialize and version negotiation,
 * notifications, malformed messages, unknown methods. Written by hand is only the hot path, a lone
 * `tools/call`, `tools/list` or `ping` request: a Server and transport per request measured about
 * 2 ms on this machine against about 0.2 ms for a `GET /tickets` (bench/README.md), so a tool call
 * through the SDK could never be within 1.3x of its REST request. Both paths answer with the same
 * functions (catalog.ts, call.ts, results.ts), so they cannot disagree.
 */
import { authenticate } from '../http/auth.js'
import { assertSafeJson, parseJson, readBodyText, requireJsonContentType } from '../http/body.js'
import { ApiError } from '../http/errors.js'
import { countRequest, type PipelineConfig, type RequestState } from '../http/pipeline.js'
import type { Principal } from '../http/principal.js'
import { reply, type ReplyParts } from '../http/reply.js'
import type { PublicRoute } from '../http/router.js'
import { callTool, InvalidToolArguments, type CallContext } from './call.js'
import { ToolCatalog } from './catalog.js'
import type { McpConfig } from './options.js'
import { errorMessage, INVALID_PARAMS, JsonRpcError, resultMessage, toolResultText } from './results.js'
import { loadSdk, type Sdk } from './sdk.js'

const JSON_TYPE = 'application/json'
const SERVER_INFO = { name: 'tenant-public-api', title: 'Tenant Data Public API', version: '1.0.0' }
const INSTRUCTIONS =
  "Tools of one tenant's IT-management data, each an operation of its REST API under the caller's key: " +
  'list tools take `cursor` and return `pagination.nextCursor`; writes that take `idempotencyKey` are safe to retry.'

/** A JSON-RPC request the hand-written path serves. */
interface FastRequest {
  id: string | number
  method: 'tools/call' | 'tools/list' | 'ping'
  params: Record<string, unknown>
}

/** What one MCP request is served with. */
interface Served {
  principal: Principal
  context: CallContext
}

/**
 * The route of the MCP endpoint, served by `dispatch` (the API's own handler) for its tool calls.
 *
 * @example
 * const route = mcpRoute(mcpConfig(true)!, pipelineConfig, (request) => api(request))
 */
export function mcpRoute(
  config: McpConfig,
  pipeline: PipelineConfig,
  dispatch: (request: Request) => Promise<Response>,
): PublicRoute {
  const catalog = new ToolCatalog(config)
  // Started now, so a missing SDK is told (to onError, with what to install) by the first request.
  loadSdk().catch(() => {})

  const handle = async (request: Request, state: RequestState): Promise<ReplyParts> => {
    const origin = request.headers.get('origin')
    if (origin !== null && !config.allowedOrigins.has(origin))
      throw new ApiError('ORIGIN_NOT_ALLOWED', 'This Origin may not call the MCP endpoint')
    const principal = await authenticate(request, pipeline.keyResolver)
    state.tenantId = principal.tenantId
    state.keyId = principal.keyId
    requireJsonContentType(request)
    const json = parseJson(await readBodyText(request, pipeline.maxBodyBytes))
    assertSafeJson(json, 'body')
    const messages: unknown[] = Array.isArray(json) ? json : [json]
    if (!messages.some((message) => methodOf(message) === 'tools/call')) await countRequest(principal, state, pipeline)
    const sdk = await loadSdk()
    const served: Served = {
      principal,
      context: {
        base: state.url.origin + pipeline.basePath,
        authorization: request.headers.get('authorization'),
        principal,
        received: request,
        span: state.span,
        requestId: state.requestId,
        dispatch,
      },
    }
    const fast = fastRequest(json, request, sdk)
    if (fast !== undefined) return reply(200, await answer(fast, served, catalog), { 'content-type': JSON_TYPE })
    return viaSdk(sdk, request, json, served, catalog)
  }
  return { path: '/mcp', method: 'POST', handle }
}

function methodOf(message: unknown): unknown {
  return typeof message === 'object' && message !== null ? (message as { method?: unknown }).method : undefined
}

/** The message, when it is one request the hand-written path serves and the SDK would accept as it is. */
function fastRequest(json: unknown, request: Request, sdk: Sdk): FastRequest | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
  const { jsonrpc, id, method, params } = json as Record<string, unknown>
  if (jsonrpc !== '2.0' || (typeof id !== 'string' && typeof id !== 'number')) return undefined
  if (method !== 'tools/call' && method !== 'tools/list' && method !== 'ping') return undefined
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) return undefined
  // What the SDK's transport checks of every request but initialize: else it answers the refusal.
  const accept = request.headers.get('accept') ?? ''
  if (!accept.includes(JSON_TYPE) || !accept.includes('text/event-stream')) return undefined
  const version = request.headers.get('mcp-protocol-version')
  if (version !== null && !sdk.supportedVersions.includes(version)) return undefined
  return { id, method, params: (params ?? {}) as Record<string, unknown> }
}

/** The JSON-RPC response text of a hand-served request. */
async function answer(message: FastRequest, served: Served, catalog: ToolCatalog): Promise<string> {
  try {
    return resultMessage(message.id, await resultText(message.method, message.params, served, catalog))
  } catch (error) {
    if (error instanceof JsonRpcError) return errorMessage(message.id, error)
    throw error
  }
}

/** The result text of a `tools/list`, `tools/call` or `ping`, on either path. */
async function resultText(
  method: FastRequest['method'],
  params: Record<string, unknown>,
  served: Served,
  catalog: ToolCatalog,
): Promise<string> {
  if (method === 'ping') return '{}'
  if (method === 'tools/list') return catalog.page(served.principal, params.cursor)
  const name = params.name
  const tool = typeof name === 'string' ? catalog.served(name) : undefined
  if (tool === undefined) throw new JsonRpcError(INVALID_PARAMS, `Unknown tool: ${String(name).slice(0, 100)}`)
  const args = params.arguments ?? {}
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new JsonRpcError(INVALID_PARAMS, 'arguments must be an object')
  try {
    return toolResultText(await callTool(tool, args as Record<string, unknown>, served.context))
  } catch (error) {
    if (error instanceof InvalidToolArguments) throw new JsonRpcError(INVALID_PARAMS, error.message)
    throw error
  }
}

/** Serves the messages with the SDK: one Server and one stateless transport for this request. */
async function viaSdk(
  sdk: Sdk,
  request: Request,
  json: unknown,
  served: Served,
  catalog: ToolCatalog,
): Promise<ReplyParts> {
  const server = new sdk.Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
  })
  const viaText = async (method: FastRequest['method'], params: Record<string, unknown> | undefined) => {
    try {
      return JSON.parse(await resultText(method, params ?? {}, served, catalog)) as Record<string, unknown>
    } catch (error) {
      throw error instanceof JsonRpcError ? new sdk.McpError(error.code, error.message) : error
    }
  }
  server.setRequestHandler(sdk.ListToolsRequestSchema, (message) => viaText('tools/list', message.params))
  server.setRequestHandler(sdk.CallToolRequestSchema, (message) => viaText('tools/call', message.params))
  const transport = new sdk.Transport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  await server.connect(transport)
  try {
    const response = await transport.handleRequest(request, { parsedBody: json })
    const headers: Record<string, string> = {}
    response.headers.forEach((value, key) => {
      headers[key] = value
    })
    const text = await response.text()
    return reply(response.status, text === '' ? null : text, headers)
  } finally {
    await server.close()
  }
}
