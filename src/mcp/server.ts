/**
 * The MCP endpoint, `POST {basePath}/mcp` (docs/mcp.md): the Streamable HTTP transport, stateless,
 * JSON responses. The HTTP request is checked as a REST one (Origin, bearer key, JSON content type,
 * body size and depth); then every JSON-RPC message of it is counted against the rate limits at
 * once, before any runs (a tool call is not counted again as its REST request), a batch is checked
 * against the protocol revision, and the messages are answered within one byte budget
 * (`maxAnswerBytes`, bounded-result.ts).
 *
 * The SDK (`Server` and `WebStandardStreamableHTTPServerTransport`, one pair per request, since its stateless
 * transport cannot be reused) serves every message: initialize and version negotiation, notifications,
 * malformed messages, unknown methods. Written by hand is only the hot path, a lone `tools/call`,
 * `tools/list` or `ping` request: a Server and transport per request cost several times a whole `GET
 * /tickets` (bench/README.md#mcp-a-tool-call-beside-its-rest-request), so a tool call through the SDK could
 * never come near its REST request's cost. Both paths answer with the same functions (catalog.ts, call.ts,
 * results.ts), so they cannot disagree.
 */
import { authenticate } from '../http/auth.js'
import { assertSafeJson, parseJson, readBodyText, requireJsonContentType } from '../http/body.js'
import { ApiError } from '../http/errors.js'
import { countRequest, type PipelineConfig, type RequestState } from '../http/pipeline.js'
import type { Principal } from '../http/principal.js'
import { reply, type ReplyParts } from '../http/reply.js'
import type { PublicRoute } from '../http/router.js'
import type { ToolCallDispatch } from '../http/tool-call.js'
import { boundedToolResult, FRAME_BYTES, MAX_ID_CHARS, utf8Bytes } from './bounded-result.js'
import { InvalidToolArguments, type CallContext } from './call.js'
import { ToolCatalog } from './catalog.js'
import type { McpConfig } from './options.js'
import { errorMessage, INVALID_PARAMS, JsonRpcError, resultMessage } from './results.js'
import { loadSdk, type Sdk } from './sdk.js'

const JSON_TYPE = 'application/json'
const SERVER_INFO = { name: 'tenant-public-api', title: 'Tenant Data Public API', version: '1.0.0' }
const INSTRUCTIONS =
  "Tools of one tenant's IT-management data, each an operation of its REST API under the caller's key: " +
  'list tools take `cursor` and return `pagination.nextCursor`; writes that take `idempotencyKey` are safe to retry.'

/** The most messages a batch may hold, where the protocol revision in use has batches (docs/mcp.md#batches). */
const MAX_BATCH_MESSAGES = 10
/** The first protocol revision without JSON-RPC batching. */
const FIRST_WITHOUT_BATCHES = '2025-06-18'
/** The revision assumed without an `MCP-Protocol-Version` header, as the transport specification says. */
const ASSUMED_VERSION = '2025-03-26'
/**
 * What a batch keeps aside for each message after the one being answered: the largest answer that
 * is not a result of the API (a JSON-RPC error, the tool error of an answer too large, an SDK
 * answer), so that every message of a batch is answered within the budget.
 */
const MESSAGE_RESERVE = 4096
/** JSON-RPC "invalid request": a batch the revision in use does not allow, or a request id too long. */
const INVALID_REQUEST = -32600
/** A JSON-RPC server error (implementation-defined): an answer that is not a tool result and cannot fit. */
const ANSWER_TOO_LARGE = -32000
/** How much of an unsupported `MCP-Protocol-Version` header an error repeats. */
const MAX_ECHOED_VERSION = 40

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
  /** The answer's byte budget (`maxAnswerBytes`). */
  budget: number
}

/**
 * The route of the MCP endpoint, served by `dispatch` (the API's own handler, told of each call) for
 * its tool calls.
 *
 * @example
 * const route = mcpRoute(mcpConfig(true)!, pipelineConfig, (request, call) => router.answerToolCall(request, call))
 */
export function mcpRoute(config: McpConfig, pipeline: PipelineConfig, dispatch: ToolCallDispatch): PublicRoute {
  const catalog = new ToolCatalog(config)
  // Started now. An SDK the runtime found missing was a TypeError at creation (options.ts); one that
  // could not be looked for, or fails to load, is told (to onError, with what to install) by the first request.
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
    const sdk = await loadSdk()
    const refusal = postRefusal(json, request, sdk)
    // Every message counts, before any runs; a POST refused whole is one request, as a REST one is.
    await countRequest(principal, state, pipeline, refusal === undefined && Array.isArray(json) ? json.length : 1)
    if (refusal !== undefined) return reply(400, refusal, { 'content-type': JSON_TYPE })
    const served: Served = {
      principal,
      budget: config.maxAnswerBytes,
      context: {
        base: state.url.origin + pipeline.basePath,
        authorization: request.headers.get('authorization'),
        principal,
        received: request,
        span: state.span,
        requestId: state.requestId,
        dispatch,
        rateLimit: state.rateLimit!,
        tenantRateLimit: state.tenantRateLimit,
      },
    }
    if (Array.isArray(json)) return batch(json, request, sdk, served, catalog)
    const fast = fastRequest(json, request, sdk)
    if (fast !== undefined)
      return reply(200, await answer(fast, served, catalog, served.budget), { 'content-type': JSON_TYPE })
    const invalid = invalidInitialize(json, sdk)
    if (invalid !== undefined) return reply(200, invalid, { 'content-type': JSON_TYPE })
    return viaSdk(sdk, request, json, served, catalog, served.budget)
  }
  return { path: '/mcp', method: 'POST', handle }
}

function methodOf(message: unknown): unknown {
  return typeof message === 'object' && message !== null ? (message as { method?: unknown }).method : undefined
}

/** A transport-level JSON-RPC error, answered with HTTP 400 (as the SDK's transport answers its own). */
function transportError(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })
}

/**
 * Why the POST is refused whole, before any message runs, or undefined: an unsupported protocol
 * version, a batch the revision in use does not allow (docs/mcp.md#batches), a request id too long.
 */
function postRefusal(json: unknown, request: Request, sdk: Sdk): string | undefined {
  const header = request.headers.get('mcp-protocol-version')
  // initialize names its revision in its params; the SDK does not read the header for it.
  if (header !== null && !sdk.supportedVersions.includes(header) && methodOf(json) !== 'initialize') {
    const shown = header.length > MAX_ECHOED_VERSION ? `${header.slice(0, MAX_ECHOED_VERSION)}…` : header
    const supported = sdk.supportedVersions.join(', ')
    return transportError(
      -32000,
      `Bad Request: Unsupported protocol version: ${shown} (supported versions: ${supported})`,
    )
  }
  const messages = Array.isArray(json) ? json : [json]
  if (Array.isArray(json)) {
    const version = header ?? ASSUMED_VERSION
    if (version >= FIRST_WITHOUT_BATCHES)
      return transportError(
        INVALID_REQUEST,
        `Invalid Request: protocol revision ${version} has no JSON-RPC batches: send one message per POST`,
      )
    if (json.length === 0) return transportError(INVALID_REQUEST, 'Invalid Request: a batch must not be empty')
    if (json.length > MAX_BATCH_MESSAGES)
      return transportError(INVALID_REQUEST, `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages`)
    if (json.some((message) => methodOf(message) === 'initialize'))
      return transportError(INVALID_REQUEST, 'Invalid Request: initialize must not be part of a batch')
  }
  for (const message of messages) {
    const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined
    if (typeof id === 'string' && id.length > MAX_ID_CHARS)
      return transportError(INVALID_REQUEST, `Invalid Request: a request id is at most ${MAX_ID_CHARS} characters`)
  }
  return undefined
}

/**
 * The -32602 answer of an `initialize` request whose params are not the protocol's (the SDK would
 * answer -32603 with its validation dump), or undefined.
 */
function invalidInitialize(json: unknown, sdk: Sdk): string | undefined {
  if (methodOf(json) !== 'initialize') return undefined
  const { jsonrpc, id } = json as Record<string, unknown>
  if (jsonrpc !== '2.0' || (typeof id !== 'string' && typeof id !== 'number')) return undefined
  if (sdk.InitializeRequestSchema.safeParse(json).success) return undefined
  const message = 'Invalid params: initialize takes { protocolVersion, capabilities, clientInfo: { name, version } }'
  return errorMessage(id, new JsonRpcError(INVALID_PARAMS, message))
}

/** Whether the request accepts what the transport requires (the SDK's check of every request but initialize). */
function acceptsTransport(request: Request): boolean {
  const accept = request.headers.get('accept') ?? ''
  return accept.includes(JSON_TYPE) && accept.includes('text/event-stream')
}

/** The message, when it is one request the hand-written path serves and the SDK would accept as it is. */
function fastRequest(json: unknown, request: Request, sdk: Sdk): FastRequest | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
  const { jsonrpc, id, method, params } = json as Record<string, unknown>
  if (jsonrpc !== '2.0' || (typeof id !== 'string' && typeof id !== 'number')) return undefined
  if (method !== 'tools/call' && method !== 'tools/list' && method !== 'ping') return undefined
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) return undefined
  // What the SDK's transport checks of every request but initialize: else it answers the refusal.
  if (!acceptsTransport(request)) return undefined
  const version = request.headers.get('mcp-protocol-version')
  if (version !== null && !sdk.supportedVersions.includes(version)) return undefined
  return { id, method, params: (params ?? {}) as Record<string, unknown> }
}

/** The JSON-RPC response text of a hand-served request, within `available` bytes. */
async function answer(message: FastRequest, served: Served, catalog: ToolCatalog, available: number): Promise<string> {
  try {
    return resultMessage(message.id, await resultText(message.method, message.params, served, catalog, available))
  } catch (error) {
    if (error instanceof JsonRpcError) return errorMessage(message.id, error)
    throw error
  }
}

/** The error of an answer that is not a tool result and cannot fit in what is left of the budget. */
function answerTooLarge(wanted: number, available: number): JsonRpcError {
  return new JsonRpcError(
    ANSWER_TOO_LARGE,
    `The answer (${wanted} bytes) would pass the MCP answer budget (maxAnswerBytes; ${available} bytes left ` +
      'for this answer): send this request alone, or fewer messages in one batch',
  )
}

/** The result text of a `tools/list`, `tools/call` or `ping`, on either path, within `available` bytes. */
async function resultText(
  method: FastRequest['method'],
  params: Record<string, unknown>,
  served: Served,
  catalog: ToolCatalog,
  available: number,
): Promise<string> {
  if (method === 'ping') return '{}'
  if (method === 'tools/list') {
    // Pages are ASCII text (catalog.ts): one byte a character.
    const page = catalog.page(served.principal, params.cursor)
    if (page.length + FRAME_BYTES > available) throw answerTooLarge(page.length + FRAME_BYTES, available)
    return page
  }
  const name = params.name
  const tool = typeof name === 'string' ? catalog.served(name) : undefined
  if (tool === undefined) throw new JsonRpcError(INVALID_PARAMS, `Unknown tool: ${String(name).slice(0, 100)}`)
  const args = params.arguments ?? {}
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new JsonRpcError(INVALID_PARAMS, 'arguments must be an object')
  try {
    return await boundedToolResult(tool, args as Record<string, unknown>, served.context, available)
  } catch (error) {
    if (error instanceof InvalidToolArguments) throw new JsonRpcError(INVALID_PARAMS, error.message)
    throw error
  }
}

/**
 * A batch (a revision before 2025-06-18, at most {@link MAX_BATCH_MESSAGES} messages): each message
 * answered in turn as a lone one would be, within what the budget has left less a reserve for each
 * message after it, and the answers joined; 202 without a body when none answers (notifications).
 */
async function batch(
  messages: unknown[],
  request: Request,
  sdk: Sdk,
  served: Served,
  catalog: ToolCatalog,
): Promise<ReplyParts> {
  // The SDK refuses the whole POST (406) before any message runs.
  if (!acceptsTransport(request)) return viaSdk(sdk, request, messages, served, catalog, served.budget)
  const answers: string[] = []
  let used = 2 // the brackets
  for (let i = 0; i < messages.length; i++) {
    const separator = answers.length > 0 ? 1 : 0
    const available = served.budget - used - separator - MESSAGE_RESERVE * (messages.length - 1 - i)
    const message = messages[i]
    const fast = fastRequest(message, request, sdk)
    const text =
      fast !== undefined
        ? await answer(fast, served, catalog, available)
        : (await viaSdk(sdk, request, message, served, catalog, available)).body
    if (typeof text !== 'string' || text === '') continue
    used += utf8Bytes(text) + separator
    answers.push(text)
  }
  if (answers.length === 0) return reply(202, null, {})
  return reply(200, `[${answers.join(',')}]`, { 'content-type': JSON_TYPE })
}

/**
 * Serves the messages with the SDK: one Server and one stateless transport for this request. Its
 * handlers answer within `available` bytes, which the SDK writes again with JSON.stringify: no
 * longer (the only escapes of ours it does not make are the `\uXXXX` of tools/list pages, which it
 * writes as the characters, in fewer bytes).
 */
async function viaSdk(
  sdk: Sdk,
  request: Request,
  json: unknown,
  served: Served,
  catalog: ToolCatalog,
  available: number,
): Promise<ReplyParts> {
  const server = new sdk.Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
  })
  const viaText = async (method: FastRequest['method'], params: Record<string, unknown> | undefined) => {
    try {
      return JSON.parse(await resultText(method, params ?? {}, served, catalog, available)) as Record<string, unknown>
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
