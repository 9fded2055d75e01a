/** The error the client throws for every non-2xx answer. */
import type { ErrorCode } from '../http/errors.js'

/**
 * A `code` of the API, or `UNEXPECTED_RESPONSE` when the answer was not the API's Error shape (a
 * proxy's 502 page, say).
 */
export type ApiResponseErrorCode = ErrorCode | 'UNEXPECTED_RESPONSE'

/**
 * A non-2xx answer of the API, with the fields of its Error body.
 *
 * @example
 * try {
 *   await client.getTicket('T-404')
 * } catch (error) {
 *   if (error instanceof ApiResponseError && error.code === 'NOT_FOUND') return null
 *   throw error
 * }
 */
export class ApiResponseError extends Error {
  /** The HTTP status, e.g. 404. */
  readonly status: number
  /** The Error body's `code`, e.g. `'NOT_FOUND'`. */
  readonly code: ApiResponseErrorCode
  /** The request id (body `requestId`, else the `X-Request-Id` header): quote it to support. */
  readonly requestId: string | undefined
  /** `VALIDATION_ERROR`: `[{ in, path, message }]`; `INSUFFICIENT_SCOPE`: `{ requiredScopes }`. */
  readonly details: unknown
  /** The response headers (`Retry-After`, `X-RateLimit-*`, `Allow`, ...). */
  readonly headers: Headers

  constructor(init: {
    status: number
    code: ApiResponseErrorCode
    message: string
    requestId?: string | undefined
    details?: unknown
    headers?: Headers
  }) {
    super(init.message)
    this.name = 'ApiResponseError'
    this.status = init.status
    this.code = init.code
    this.requestId = init.requestId
    this.details = init.details
    this.headers = init.headers ?? new Headers()
  }

  /**
   * Reads an error response into an `ApiResponseError` (consumes the body).
   *
   * @example
   * if (!response.ok) throw await ApiResponseError.fromResponse(response)
   */
  static async fromResponse(response: Response): Promise<ApiResponseError> {
    const text = await response.text().catch(() => '')
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }
    const headerId = response.headers.get('x-request-id') ?? undefined
    if (isErrorBody(body)) {
      return new ApiResponseError({
        status: response.status,
        code: body.code ?? 'UNEXPECTED_RESPONSE',
        message: body.error,
        requestId: body.requestId ?? headerId,
        details: body.details,
        headers: response.headers,
      })
    }
    return new ApiResponseError({
      status: response.status,
      code: 'UNEXPECTED_RESPONSE',
      message: `HTTP ${response.status}${text === '' ? '' : `: ${text.slice(0, 200)}`}`,
      requestId: headerId,
      headers: response.headers,
    })
  }
}

function isErrorBody(
  body: unknown,
): body is { error: string; code?: ErrorCode; requestId?: string; details?: unknown } {
  return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string'
}
