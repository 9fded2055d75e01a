const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The client's own `X-Request-Id` when it is 1..128 characters of `[A-Za-z0-9._:-]`, else a new
 * UUID, so that a hostile header can never be echoed into logs or responses.
 *
 * @example
 * resolveRequestId(request.headers.get('x-request-id')) // 'req_42' or a fresh UUID
 */
export function resolveRequestId(header: string | null): string {
  return header !== null && CLIENT_REQUEST_ID.test(header) ? header : crypto.randomUUID()
}
