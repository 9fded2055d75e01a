/**
 * List cursors (docs/extensions.md, section 1): opaque base64url text that carries the operation,
 * a digest of the filters and sort it was made under, the number of the page it leads to and the
 * keyset position of the last record returned. A cursor is not secret and not signed: a crafted one
 * can only seek within the caller's own tenant, so decoding checks its shape and types (every
 * failure a 400 on `cursor`) and the stores bind its values as parameters.
 */
import type { CollectionDefinition, ColumnValue, OrderTerm } from '../model/collection.js'
import { columnOf } from '../model/collection.js'
import type { Keyset } from '../model/keyset.js'
import { validationError } from './errors.js'

/** What a cursor carries. */
export interface CursorState {
  /** The number the page it leads to would have in a walk from the first page. */
  readonly page: number
  readonly after: Keyset
}

/** The format's version, first in every cursor, so that a later format can refuse this one cleanly. */
const VERSION = 1

/**
 * A digest of a list query's filters and sort: what a cursor binds. Not a security measure (see the
 * file's comment), only a way to tell one query from another in a few characters, so a 53-bit
 * string hash (cyrb53, public domain) written here serves; no runtime-neutral library offers one
 * synchronously (WebCrypto digests are async).
 *
 * @example
 * queryDigest({ sortBy: 'name', sortOrder: 'asc', status: 'active' })
 */
export function queryDigest(query: Record<string, unknown>): string {
  // The text hashed is `JSON.stringify` of the bound [key, value] pairs sorted by key, written out
  // pair by pair (the same text, without the intermediate arrays: this runs on every list page).
  const keys: string[] = []
  for (const key of Object.keys(query))
    if (query[key] !== undefined && key !== 'page' && key !== 'limit' && key !== 'cursor') keys.push(key)
  keys.sort() // UTF-16 code unit order, as `<` compares
  let text = '['
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    text += `${i === 0 ? '' : ','}[${jsonText(key)},${jsonText(query[key])}]`
  }
  text += ']'
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return base36(4294967296 * (2097151 & h2) + (h1 >>> 0))
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'

/**
 * `n.toString(36)` for a whole number below 2^53, digit by digit: V8 writes a double in another radix with a
 * general algorithm, slow enough to show on every list page (bench/README.md#measurements-behind-the-code).
 */
function base36(n: number): string {
  let out = ''
  do {
    const rest = Math.floor(n / 36)
    out = DIGITS[n - rest * 36]! + out
    n = rest
  } while (n > 0)
  return out
}

/** `JSON.stringify(value)` inside an array (undefined as `null`); plain strings and scalars without the call. */
function jsonText(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value === 'string' && isPlainText(value)) return `"${value}"`
  return JSON.stringify(value) ?? 'null'
}

/** Whether JSON writes `text` as it is between quotes: no quote, backslash, control character or surrogate. */
function isPlainText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false
  }
  return true
}

/** Whether every character of `text` is ASCII: then its UTF-8 bytes are its characters. */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false
  return true
}

const utf8 = new TextEncoder()

function toBase64Url(text: string): string {
  let binary = text
  // A cursor is almost always ASCII (ids, ISO dates, numbers): btoa takes it as it is. Other text
  // (a sort on a title) goes through its UTF-8 bytes, as before.
  if (!isAscii(text)) {
    binary = ''
    for (const byte of utf8.encode(text)) binary += String.fromCharCode(byte)
  }
  const base64 = btoa(binary).replaceAll('+', '-').replaceAll('/', '_')
  let end = base64.length
  while (end > 0 && base64.charCodeAt(end - 1) === 0x3d /* = */) end--
  return base64.slice(0, end)
}

function fromBase64Url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length % 4 === 1) return null
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'))
    if (isAscii(binary)) return binary
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
  } catch {
    // Not base64 that any runtime's atob accepts, or not UTF-8: not a cursor of this API.
    return null
  }
}

/**
 * The cursor of the page numbered `page` that starts after `after`, for operation `operationId`
 * under the query digest `digest`.
 *
 * @example
 * encodeCursor('listUsers', queryDigest(query), { page: 2, after: keysetOf(users, terms, last) })
 */
export function encodeCursor(operationId: string, digest: string, state: CursorState): string {
  // The JSON text of [VERSION, operationId, digest, page, id, ...values], written piece by piece.
  let text = `[${VERSION},${jsonText(operationId)},${jsonText(digest)},${jsonText(state.page)}`
  text += `,${jsonText(state.after.id)}`
  for (const value of state.after.values) text += `,${jsonText(value)}`
  return toBase64Url(`${text}]`)
}

/** The 400 of a cursor that cannot be used here. */
function badCursor(message: string): Error {
  return validationError([{ in: 'query', path: 'cursor', message }])
}

function fits(
  collection: Pick<CollectionDefinition<never, never>, 'name' | 'columns'>,
  term: OrderTerm,
  value: unknown,
): boolean {
  const column = columnOf(collection, term.column)
  if (value === null) return column.nullable
  if (column.type === 'text') return typeof value === 'string'
  if (column.type === 'boolean') return typeof value === 'boolean'
  return typeof value === 'number' && Number.isFinite(value)
}

/**
 * What `cursor` carries, when it was made by `operationId` under `digest` for an order of `terms`;
 * otherwise a 400 `VALIDATION_ERROR` on `cursor` (thrown), never anything else.
 *
 * @example
 * const { page, after } = decodeCursor(query.cursor, 'listUsers', queryDigest(query), users, terms)
 */
export function decodeCursor(
  cursor: string,
  operationId: string,
  digest: string,
  collection: Pick<CollectionDefinition<never, never>, 'name' | 'columns'>,
  terms: readonly OrderTerm[],
): CursorState {
  const text = fromBase64Url(cursor)
  let parsed: unknown
  try {
    parsed = text === null ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  if (!Array.isArray(parsed) || parsed[0] !== VERSION) throw badCursor('Not a cursor of this API')
  const [, op, bound, page, id, ...values] = parsed as unknown[]
  if (op !== operationId) throw badCursor('This cursor belongs to another list')
  if (bound !== digest) throw badCursor('This cursor was made with other filters or another sort')
  const wellFormed =
    typeof page === 'number' &&
    Number.isSafeInteger(page) &&
    page >= 2 &&
    page < Number.MAX_SAFE_INTEGER &&
    typeof id === 'string' &&
    values.length === terms.length &&
    terms.every((term, i) => fits(collection, term, values[i]))
  if (!wellFormed) throw badCursor('Not a cursor of this API')
  return { page, after: { id, values: values as ColumnValue[] } }
}
