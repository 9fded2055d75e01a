import type { ErrorBody, ErrorCode } from './errors.js'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * A response still being assembled: a plain status, serialised body and headers object. The
 * pipeline adds its headers to this and builds the native `Response` once, at the end, because
 * every `Headers` mutation on a native `Response` costs far more than a property write.
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: string | null,
    readonly headers: Record<string, string>,
  ) {}
}

/** A JSON reply with the API's content type; the body is serialised once, here. */
export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return new Reply(status, JSON.stringify(body), { ...headers, 'content-type': JSON_TYPE })
}

/** An Error-shape reply whose `requestId` equals the `X-Request-Id` header. */
export function errorReply(status: number, code: ErrorCode, message: string, requestId: string, details?: unknown, headers?: Record<string, string>): Reply {
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
