/**
 * The API's one output type. Inside the pipeline a reply is plain parts (status, a headers record,
 * a body string): every step adds its headers to the record and reads the status from it, and
 * nothing builds a `Response` until the very end ({@link toResponse}). There the parts become
 * `new Response(body, { status, headers })`, as any Fetch handler's do, unless the request asks
 * for another kind: a mount that writes replies itself (the Node mounts) puts a factory under
 * {@link MAKE_REPLY} on the request it hands over, and gets back what that factory makes. The core
 * knows no host (ARCHITECTURE.md, "A request, end to end").
 */
import { stringifyReply } from './reply-json.js'
import type { ErrorBody, ErrorCode } from './errors.js'

const JSON_TYPE = 'application/json; charset=utf-8'

/** What a reply is made of, until it becomes a `Response`. */
export interface ReplyParts {
  /** The HTTP status. */
  status: number
  /** Header names in lower case; `set-cookie` never appears (the API sets no cookies). */
  headers: Record<string, string>
  /** The body as text (UTF-8 on the wire), or `null` for none (HEAD, 204, 304). */
  body: string | null
  /**
   * The value `body` is the JSON text of, when the API serialised one (else `undefined`): what
   * writes the reply another way reads it here rather than parsing `body` again (an MCP tool
   * result holds the body twice, as JSON and as a string: docs/mcp.md).
   */
  value?: unknown
}

/**
 * Where a mount leaves, on the `Request` it hands the API, the function that turns a finished
 * reply's parts into the `Response` the API answers. A registry symbol, so that a mount from one
 * copy of the package (the CJS build) is heard by an API from another (the ESM build).
 */
export const MAKE_REPLY = Symbol.for('tenant-public-api.make-reply')

/** A request that may carry a mount's reply factory ({@link MAKE_REPLY}). */
type MaybeMakesReply = { [MAKE_REPLY]?: unknown }

/**
 * The `Response` for a finished reply: made by the request's own factory when its mount gave one
 * (the parts are then the response's own: the mount may add transport headers to the record),
 * else a native `Response`, made with the global constructor of the moment (a host that replaced
 * it, as @hono/node-server does, gets its own class).
 *
 * @example
 * return toResponse(request, finishReply(parts, request, state))
 */
export function toResponse(request: Request, parts: ReplyParts): Response {
  const carrier = request as MaybeMakesReply
  if (typeof carrier[MAKE_REPLY] === 'function')
    return (carrier as { [MAKE_REPLY]: (parts: ReplyParts) => Response })[MAKE_REPLY](parts)
  return new Response(parts.body, { status: parts.status, headers: parts.headers })
}

/** A reply of the API; the headers object becomes the reply's own (the pipeline adds to it). */
export function reply(status: number, body: string | null, headers: Record<string, string>): ReplyParts {
  return { status, headers, body, value: undefined }
}

/** A JSON reply with the API's content type; the body is serialised once, here (stored records' text is reused). */
export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): ReplyParts {
  // A fresh record, filled by assignment: a spread copy of a small literal (`{ link }`) takes on its
  // tight shape, and the pipeline's later additions to it (finishReply) are then slower
  // (bench/README.md#measurements-behind-the-code).
  const all: Record<string, string> = {}
  if (headers !== undefined) for (const name of Object.keys(headers)) all[name] = headers[name]!
  all['content-type'] = JSON_TYPE
  const parts = reply(status, stringifyReply(body), all)
  parts.value = body
  return parts
}

/** An Error-shape reply whose `requestId` equals the `X-Request-Id` header the pipeline adds. */
export function errorReply(
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
  details?: unknown,
  headers?: Record<string, string>,
): ReplyParts {
  const body: ErrorBody = { error: message, code, requestId }
  if (details !== undefined) body.details = details
  return jsonReply(status, body, headers)
}

/**
 * An Error-shape response as the API answers one: `{ error, code, requestId, details? }` with the
 * same `X-Request-Id` header (so body and header always agree) and `nosniff`. For a mount's own
 * failures, before or around the API (a body parser's 413, a crash of the mount itself). A native
 * `Response`, which every mount writes.
 *
 * @example
 * const requestId = resolveRequestId(req.headers['x-request-id'] ?? null)
 * return errorResponse(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large', requestId)
 */
export function errorResponse(
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
  details?: unknown,
  headers?: Record<string, string>,
): Response {
  const parts = errorReply(status, code, message, requestId, details, headers)
  parts.headers['x-request-id'] = requestId
  parts.headers['x-content-type-options'] = 'nosniff'
  return new Response(parts.body, { status: parts.status, headers: parts.headers })
}
