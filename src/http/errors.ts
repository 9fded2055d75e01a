import { RecordNotFoundError, VersionMismatchError } from '../model/errors.js'

/**
 * The error codes of the API and the one error class the pipeline turns into the Error shape.
 */

/**
 * Every `code` an Error body can carry, with the HTTP status it is sent with.
 *
 * @example
 * ERROR_STATUS.RATE_LIMITED // 429
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  COOKIES_NOT_ALLOWED: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_SCOPE: 403,
  ORIGIN_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_KEY_IN_USE: 409,
  CURSOR_EXPIRED: 410,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const

/** An error code of the API, e.g. `'NOT_FOUND'`. */
export type ErrorCode = keyof typeof ERROR_STATUS

/** One entry of a `VALIDATION_ERROR`'s `details`. */
export interface ValidationIssue {
  /** Where the value came from. */
  in: 'query' | 'body' | 'header'
  /** `page`, `title`, `conditions[0].field`; empty for the body as a whole. */
  path: string
  message: string
}

/** The Error shape of every error response. */
export interface ErrorBody {
  error: string
  code?: ErrorCode
  requestId?: string
  details?: unknown
}

/**
 * Marks an {@link ApiError}. A registry symbol, so that an error thrown by one copy of the package
 * (a host's keyResolver built against the CJS build, say) is recognised by another (the ESM build
 * serving the API), where `instanceof` would fail.
 */
const API_ERROR = Symbol.for('tenant-public-api.api-error')

/**
 * An error that becomes an Error-shape response. Throw it from anywhere in the pipeline, an
 * operation, a `keyResolver` or a custom store: its code, message, details and headers reach the
 * client as they are, so never put a secret or an internal detail in them. A code that is not in
 * {@link ERROR_STATUS} is a host bug: it is answered as any unexpected error (500 `INTERNAL_ERROR`,
 * the error to `onError`). Anything else thrown becomes that same 500.
 *
 * @example
 * throw new ApiError('NOT_FOUND', 'Budget not found')
 */
export class ApiError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly details: unknown
  readonly headers: Record<string, string>

  constructor(code: ErrorCode, message: string, details?: unknown, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    // Not `ERROR_STATUS[code]` blindly: an unknown code (from untyped host code) must not become status undefined.
    this.status = isErrorCode(code) ? ERROR_STATUS[code] : 500
    this.details = details
    this.headers = headers
  }

  /** Recognises an ApiError from any copy of the package (ESM and CJS builds loaded side by side). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[API_ERROR] === true
  }
}
Object.defineProperty(ApiError.prototype, API_ERROR, { value: true })

/**
 * True for the codes of {@link ERROR_STATUS}.
 *
 * @example
 * isErrorCode('NOT_FOUND') // true
 */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code)
}

/**
 * A `VALIDATION_ERROR` with one entry per problem.
 *
 * @example
 * throw validationError([{ in: 'body', path: 'categoryId', message: 'No planner item type with this id' }])
 */
export function validationError(issues: ValidationIssue[]): ApiError {
  return new ApiError('VALIDATION_ERROR', 'The request has invalid parameters', issues)
}

/**
 * The API error that answers an error of the model, or `undefined` for any other error. Lets the
 * model state its rules without knowing HTTP.
 *
 * @example
 * const answer = apiErrorOf(error) ?? error
 */
export function apiErrorOf(error: unknown): ApiError | undefined {
  if (error instanceof RecordNotFoundError) return new ApiError('NOT_FOUND', error.message)
  if (error instanceof VersionMismatchError)
    return new ApiError('PRECONDITION_FAILED', error.message, { currentVersion: error.currentVersion })
  return undefined
}
