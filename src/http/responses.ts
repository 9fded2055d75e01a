import { stringifyReply } from '../stores/frozen-records.js'
import type { ErrorBody, ErrorCode } from './errors.js'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * A response still being assembled: a plain status, serialised body and headers object. The
 * pipeline adds its headers to this and builds the native `Response` once, at the end, because
 * every `Headers` mutation on a native `Response` costs far more than a property write. Each reply
 * belongs to one request, headers object included (mounts add `content-length` to it).
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: string | null,
    readonly headers: Record<string, string>,
  ) {}
}

/** Produces the finished reply of a request: a plain {@link Reply}, or a `Response` built elsewhere (openapi.json, docs). */
export type ReplyHandler = (request: Request) => Promise<Reply | Response>

/**
 * Where `createPublicApi` keeps its {@link ReplyHandler} on the handler it returns. A registry
 * symbol, so the ESM and CJS builds agree on it. Node mounts use it to write the reply straight to
 * the socket: on Node, building a native `Response` (undici wraps even a string body in a stream)
 * costs more than the rest of a small request. Everyone else calls the handler and gets a `Response`.
 */
export const REPLY_HANDLER = Symbol.for('tenant-public-api.reply-handler')

/**
 * The reply handler behind an API handler, when it is one `createPublicApi` made (a wrapper
 * around it has none, and mounts then fall back to the `Response`).
 *
 * @example
 * const reply = replyHandlerOf(api)
 * const result = reply ? await reply(request) : await api(request)
 */
export function replyHandlerOf(handler: (request: Request) => Promise<Response>): ReplyHandler | undefined {
  const found = (handler as { [REPLY_HANDLER]?: unknown })[REPLY_HANDLER]
  return typeof found === 'function' ? (found as ReplyHandler) : undefined
}

/** The `Response` of a finished reply. */
export function toResponse(reply: Reply | Response): Response {
  return reply instanceof Reply ? new Response(reply.body, { status: reply.status, headers: reply.headers }) : reply
}

/** A JSON reply with the API's content type; the body is serialised once, here (stored records' text is reused). */
export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return new Reply(status, stringifyReply(body), { ...headers, 'content-type': JSON_TYPE })
}

/** An Error-shape reply whose `requestId` equals the `X-Request-Id` header. */
export function errorReply(
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
  details?: unknown,
  headers?: Record<string, string>,
): Reply {
  const body: ErrorBody = { error: message, code, requestId }
  if (details !== undefined) body.details = details
  return jsonReply(status, body, headers)
}

/**
 * A JSON response with the API's content type. Bodies are serialised once, here.
 *
 * @example
 * return jsonResponse(200, { data: ticket })
 */
export function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): Response {
  const reply = jsonReply(status, body, headers)
  return new Response(reply.body, { status, headers: reply.headers })
}

/**
 * An Error-shape response. `requestId` is filled in so that the body and the `X-Request-Id`
 * header always agree.
 *
 * @example
 * return errorResponse(404, 'NOT_FOUND', 'No route matches', requestId)
 */
export function errorResponse(
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
  details?: unknown,
  headers?: Record<string, string>,
): Response {
  const reply = errorReply(status, code, message, requestId, details, headers)
  return new Response(reply.body, { status, headers: reply.headers })
}
