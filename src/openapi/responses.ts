/**
 * The responses of an operation: its success response, and one error response per status of the
 * errors it can give, with the `Error` schema they share.
 */
import { ERROR_STATUS, type ErrorCode } from '../http/errors.js'
import type { AnyOperation } from '../http/operation.js'
import { errorHeaders, successHeaders } from './headers.js'
import { createLinks } from './links.js'
import { jsonSchema } from './schemas.js'

/** Errors every authenticated operation can give. */
const COMMON_ERRORS: readonly ErrorCode[] = [
  'VALIDATION_ERROR',
  'COOKIES_NOT_ALLOWED',
  'UNAUTHORIZED',
  'INSUFFICIENT_SCOPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
]
/** Errors every operation with a body can give. */
const BODY_ERRORS: readonly ErrorCode[] = ['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']

/**
 * Every error an operation can answer with, in status order.
 *
 * @example
 * operationErrors(operations[0]) // ['VALIDATION_ERROR', 'COOKIES_NOT_ALLOWED', 'UNAUTHORIZED', ...]
 */
export function operationErrors(operation: AnyOperation): ErrorCode[] {
  const codes = new Set<ErrorCode>([...COMMON_ERRORS, ...(operation.body ? BODY_ERRORS : []), ...operation.errors])
  return [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b])
}

/** The success response of an operation, with the `links` of a create. */
function successResponse(operation: AnyOperation): object {
  const links = createLinks(operation)
  return {
    description: operation.successStatus === 201 ? 'Created.' : 'Success.',
    headers: successHeaders(operation),
    content: { 'application/json': { schema: jsonSchema(operation.response, 'output') } },
    ...(links === undefined ? {} : { links }),
  }
}

function errorResponses(operation: AnyOperation): Record<string, object> {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of operationErrors(operation))
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code])
  const out: Record<string, object> = {}
  for (const [status, codes] of byStatus) {
    out[String(status)] = {
      description: `Error: ${codes.join(', ')}.`,
      headers: errorHeaders(status),
      content: {
        'application/json': {
          // This implementation always sends `code` and `requestId`, though the Error shape lets them be absent.
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Error' },
              { required: ['code', 'requestId'], properties: { code: { enum: codes } } },
            ],
          },
        },
      },
    }
  }
  return out
}

/** Every response of an operation, the success one first. */
export function operationResponses(operation: AnyOperation): Record<string, object> {
  return { [String(operation.successStatus)]: successResponse(operation), ...errorResponses(operation) }
}

/** The `Error` component: the shape of every error answer. */
export function errorSchema() {
  return {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: { type: 'string', description: 'What went wrong.' },
      code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
      requestId: { type: 'string', description: 'Equals the X-Request-Id header.' },
      details: {
        description:
          'VALIDATION_ERROR: an array of { in, path, message }: at most 100 problems (fewer when their ' +
          'paths and messages are long), then, when more were found, one entry with an empty path that ' +
          'counts them ("and N more problems"); each path and message is cut to 256 bytes. ' +
          'INSUFFICIENT_SCOPE: { requiredScopes }.',
      },
    },
  }
}
