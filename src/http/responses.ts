import type { ErrorBody, ErrorCode } from './errors.js'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * A JSON response with the API's content type. Bodies are serialised once, here.
 *
 * @example
 * return jsonResponse(200, { data: ticket })
 */
export function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): Response {
  const response = new Response(JSON.stringify(body), { status, headers })
  response.headers.set('content-type', JSON_TYPE)
  return response
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
  const body: ErrorBody = { error: message, code, requestId }
  if (details !== undefined) body.details = details
  return jsonResponse(status, body, headers)
}
