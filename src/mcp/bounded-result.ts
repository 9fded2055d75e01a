/**
 * A tool result within the answer's byte budget (`mcp.maxAnswerBytes`, docs/mcp.md#bounded-answers).
 * A result holds the REST body twice, as `structuredContent` and escaped in the text block, so its
 * size is known from the body before anything is built: the body's UTF-8 bytes, those again plus
 * one byte per `"` and `\` (what escaping a JSON text adds: it holds no control character and no
 * lone surrogate), and a frame of at most {@link FRAME_BYTES}. A page of a list tool that does not
 * fit is asked again with a smaller `limit`, so its `nextCursor` is the operation's own; anything
 * else that does not fit is a tool error naming the budget.
 */
import { errorReply } from '../http/reply.js'
import { stringifyReplyAsString } from '../http/reply-json.js'
import { jsonStringContents } from '../model/stored-text.js'
import { type CallContext, callTool, type ToolOutcome } from './call.js'
import { toolResultText } from './results.js'
import type { McpTool } from './tools.js'

/**
 * What a result adds to the body's two copies, and a JSON-RPC response to its result, at most: the
 * content blocks, `isError`, `_meta` (a request id is at most 128 characters), the response's
 * envelope and its id (at most {@link MAX_ID_CHARS} characters, 6 bytes each escaped).
 */
export const FRAME_BYTES = 2048
/** The longest request id (a string id's characters) the endpoint answers: see server.ts. */
export const MAX_ID_CHARS = 100
/** How often a list tool's page is asked again with a smaller `limit` before it is a tool error. */
const MAX_RETRIES = 4

/**
 * The UTF-8 bytes of a JSON text (a text JSON.stringify wrote: no lone surrogate).
 *
 * @example
 * utf8Bytes('"é"') // 4
 */
export function utf8Bytes(text: string): number {
  return jsonTextSizes(text).bytes
}

/** The UTF-8 bytes of a JSON text, and what escaping it as the contents of a JSON string adds. */
function jsonTextSizes(text: string): { bytes: number; escaping: number } {
  let bytes = text.length
  let escaping = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x22 || code === 0x5c) escaping++
    // Two bytes up to U+07FF, three to U+FFFF; a pair (two UTF-16 units) is four.
    else if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2
  }
  return { bytes, escaping }
}

/**
 * The bytes of the JSON-RPC response of `outcome` (with its frame), or the least it could be when
 * that is under `available`: measured only when the body could pass it (three bytes a UTF-16 unit,
 * at most, in each copy plus twice for escaping), so a small answer costs no scan of its body.
 */
function answerBytes(outcome: ToolOutcome, available: number): number {
  const bound = outcome.body.length * 9 + FRAME_BYTES
  if (bound <= available) return bound
  const { bytes, escaping } = jsonTextSizes(outcome.body)
  return bytes * 2 + escaping + FRAME_BYTES
}

/** The page size of a list answer, when `tool` is a list tool and `outcome` one of its pages. */
function pageLength(tool: McpTool, outcome: ToolOutcome): number | undefined {
  if (outcome.status !== 200 || !tool.route.query.has('limit')) return undefined
  const data = (outcome.value as { data?: unknown } | undefined)?.data
  return Array.isArray(data) ? data.length : undefined
}

/**
 * The tool error of an answer that cannot fit: `PAYLOAD_TOO_LARGE` (status 413 in `_meta`), naming
 * the budget and how to ask for less.
 */
function tooLarge(available: number, wanted: number, oneItem: boolean, context: CallContext): string {
  const ask = oneItem
    ? 'one item of this list alone does not fit'
    : 'ask for less (a smaller `limit` on a list, fewer items or fields)'
  const message =
    `The answer (about ${wanted} bytes) would pass the MCP answer budget (maxAnswerBytes; ${available} bytes ` +
    `left for this answer): ${ask}, or send fewer messages in one batch`
  const body = errorReply(413, 'PAYLOAD_TOO_LARGE', message, context.requestId).body ?? ''
  const outcome = { status: 413, body, value: undefined, requestId: context.requestId, retryAfter: undefined }
  return toolResultText(outcome, jsonStringContents(body))
}

/**
 * Calls `tool` and answers its result as JSON text whose JSON-RPC response is at most `available`
 * bytes (`available` is at least {@link FRAME_BYTES} plus the largest error's body).
 *
 * @example
 * const text = await boundedToolResult(findTool('listEvents')!, { limit: 100 }, context, 4 * 1024 * 1024)
 */
export async function boundedToolResult(
  tool: McpTool,
  args: Record<string, unknown>,
  context: CallContext,
  available: number,
): Promise<string> {
  let outcome = await callTool(tool, args, context)
  let wanted = answerBytes(outcome, available)
  for (let retry = 0; wanted > available && retry < MAX_RETRIES; retry++) {
    const length = pageLength(tool, outcome)
    if (length === undefined || length <= 1) break
    // In proportion to what fits, less a tenth (the page's items differ in size), and always fewer.
    const limit = Math.max(1, Math.min(length - 1, Math.floor((length * (available - FRAME_BYTES) * 0.9) / wanted)))
    outcome = await callTool(tool, { ...args, limit }, context)
    wanted = answerBytes(outcome, available)
  }
  if (wanted > available) return tooLarge(available, wanted, pageLength(tool, outcome) === 1, context)
  // From the value when the API serialised one, so records' escaped texts are reused (reply-json.ts).
  const asString =
    outcome.value !== undefined ? stringifyReplyAsString(outcome.value) : jsonStringContents(outcome.body)
  return toolResultText(outcome, asString)
}
