/**
 * The response headers of the document: the request id and rate-limit headers every answer carries,
 * those an operation sets on success, and those of each error status.
 */
import type { JsonSchema } from '@valibot/to-json-schema'
import type { AnyOperation } from '../http/operation.js'
import { PaginationSchema } from '../model/shared.js'

export const HEADER = (description: string, schema: JsonSchema = { type: 'string' }, required = false) => ({
  description,
  ...(required ? { required: true } : {}),
  schema,
})
export const REQUEST_ID = HEADER(
  'The request id: the client’s own X-Request-Id when valid, else a new UUID.',
  { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  true,
)
/** The rate-limit headers; `required` where every response of that status was counted against the key. */
const rateLimitHeaders = (required: boolean) => ({
  'X-RateLimit-Limit': HEADER('Requests allowed per window for this key.', { type: 'integer', minimum: 0 }, required),
  'X-RateLimit-Remaining': HEADER('Requests left in the current window.', { type: 'integer', minimum: 0 }, required),
  'X-RateLimit-Reset': HEADER('When the window resets (ISO 8601).', { type: 'string', format: 'date-time' }, required),
  'RateLimit-Policy': HEADER(
    'draft-ietf-httpapi-ratelimit-headers: the policy of the bucket with the least remaining, `"key"` or `"tenant"`, ' +
      'its quota `q` and window `w` in seconds, e.g. `"key";q=120;w=60`.',
    { type: 'string', pattern: '^"(key|tenant)";q=[0-9]+(;w=[0-9]+)?$' },
    required,
  ),
  RateLimit: HEADER(
    "draft-ietf-httpapi-ratelimit-headers: that bucket's remaining requests `r` and seconds to its reset `t`, " +
      'e.g. `"key";r=119;t=60`.',
    { type: 'string', pattern: '^"(key|tenant)";r=[0-9]+;t=[0-9]+$' },
    required,
  ),
})
const RATE_LIMIT_HEADERS = rateLimitHeaders(true)
/**
 * Error statuses that can be answered before the key is counted (400 `COOKIES_NOT_ALLOWED` comes
 * before authentication; 500 and 503 can come from the rate limiter itself), so their
 * rate-limit headers are optional; 401 never has them.
 */
const UNCOUNTED_ERROR_STATUSES = new Set([400, 500, 503])
/** Schemas of the headers operations set on success (`responseHeaders` of the registry). */
const SUCCESS_HEADER_SCHEMAS: Record<string, JsonSchema> = {
  ETag: { type: 'string', pattern: '^"[0-9]+"$' },
  Location: { type: 'string', pattern: '^/' },
}
/**
 * `Link` of every list: `listPage` (src/operations/list-pages.ts) sends it when a page follows, absolute
 * from `createPublicApi({ publicOrigin })` or else a path-absolute relative reference (never `//host`).
 */
const LINK = HEADER(
  'The next page: `<URL>; rel="next"` (RFC 8288), sent when `nextCursor` is not null. The URL is absolute ' +
    "when the API is configured with its public origin, else a reference relative to the request's URL " +
    '(`</api/public/v1/tickets?limit=25&cursor=...>`), never built from the `Host` header.',
  { type: 'string', pattern: '^<(https?://[^/>]+)?/[^/>][^>]*>; rel="next"$' },
)

/** Whether the operation answers a page of a list, `{ data, pagination }`: every such answer comes from `listPage`. */
function isList(operation: AnyOperation): boolean {
  return (operation.response as { entries?: Record<string, unknown> }).entries?.pagination === PaginationSchema
}

/** The headers of an operation's success response. */
export function successHeaders(operation: AnyOperation): Record<string, object> {
  const headers: Record<string, object> = { 'X-Request-Id': REQUEST_ID, ...RATE_LIMIT_HEADERS }
  for (const [name, description] of Object.entries(operation.responseHeaders ?? {}))
    headers[name] = HEADER(description, SUCCESS_HEADER_SCHEMAS[name], true)
  if (isList(operation)) headers.Link = LINK
  if (operation.idempotent)
    headers['Idempotent-Replayed'] = HEADER(
      '`true` when this is the stored answer to an earlier request with the same Idempotency-Key.',
      { type: 'string', enum: ['true'] },
    )
  return headers
}

/** The headers of an error response of `status`. */
export function errorHeaders(status: number): Record<string, object> {
  const headers: Record<string, object> = { 'X-Request-Id': REQUEST_ID }
  if (status !== 401) Object.assign(headers, rateLimitHeaders(!UNCOUNTED_ERROR_STATUSES.has(status)))
  if (status === 401)
    headers['WWW-Authenticate'] = HEADER(
      '`Bearer realm="api"`, with `error="invalid_token"` when a key was sent.',
      { type: 'string', pattern: '^Bearer ' },
      true,
    )
  if (status === 429)
    headers['Retry-After'] = HEADER('Whole seconds until the window resets.', { type: 'integer', minimum: 0 }, true)
  if (status === 503)
    headers['Retry-After'] = HEADER('Whole seconds to wait before retrying.', { type: 'integer', minimum: 0 })
  return headers
}
