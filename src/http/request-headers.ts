/**
 * The request headers an operation reads (`Idempotency-Key`, `If-Match`) and what each must hold:
 * one table, from which the OpenAPI document states each header (src/openapi/parameters.ts) and the
 * pipeline checks it with the request's other input (docs/api-behaviour.md). An MCP tool call's
 * header arguments reach the same check (docs/mcp.md), so a value no HTTP header could carry (CR, LF,
 * a character past U+00FF) is a 400 after the scope check, never a 500.
 */
import type { ValidationIssue } from './errors.js'
import { IDEMPOTENCY_KEY } from './idempotency.js'
import { takesIfMatch, type AnyOperation } from './operation.js'
import type { Checked } from './validation.js'

/** What `If-Match` may hold: printable ASCII, spaces and tabs (versions such as `"3", W/"4"`), 1 KiB at most. */
const IF_MATCH = /^[\t\x20-\x7e]{0,1024}$/

/** A request header an operation may read. */
export interface RequestHeader {
  name: string
  description: string
  /** The header's JSON Schema in the OpenAPI document; its `pattern` is {@link RequestHeader.pattern}'s source. */
  schema: Record<string, unknown>
  pattern: RegExp
  /** The problem reported when a value does not match (never the value: it may be long). */
  message: string
  /** Whether `operation` reads the header. */
  readBy: (operation: AnyOperation) => boolean
}

export const REQUEST_HEADERS: readonly RequestHeader[] = [
  {
    name: 'Idempotency-Key',
    description: 'Makes a retry safe: a repeat within 24 h with the same body replays the first response.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY.source },
    pattern: IDEMPOTENCY_KEY,
    message: 'Must be 1..255 printable ASCII characters',
    readBy: (operation) => operation.idempotent === true,
  },
  {
    name: 'If-Match',
    description: 'The version you read (`"3"` or `3`); 412 if the resource has moved on.',
    schema: { type: 'string', maxLength: 1024, pattern: IF_MATCH.source },
    pattern: IF_MATCH,
    message: 'Must be at most 1024 printable ASCII characters: the versions you read, such as "3"',
    readBy: takesIfMatch,
  },
]

/**
 * The headers `operation` reads, checked against their patterns (a header it does not read is not
 * looked at, as with REST).
 *
 * @example
 * const headers = checkHeaders(operation, request.headers)
 * if (!headers.ok) headers.issues // [{ in: 'header', path: 'If-Match', message: '...' }]
 */
export function checkHeaders(operation: AnyOperation, headers: Headers): Checked {
  let issues: ValidationIssue[] | undefined
  for (const header of REQUEST_HEADERS) {
    if (!header.readBy(operation)) continue
    const value = headers.get(header.name)
    if (value === null || header.pattern.test(value)) continue
    issues ??= []
    issues.push({ in: 'header', path: header.name, message: header.message })
  }
  return issues === undefined ? { ok: true, value: undefined } : { ok: false, issues, unlisted: 0 }
}
