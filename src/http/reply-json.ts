/**
 * Reply serialisation: `JSON.stringify` of a reply body, reusing the JSON text that the deep-frozen
 * records stores hand out carry with them (src/model/stored-text.ts), so a page of unchanged records
 * is joined, not re-serialised.
 */
import { isPlainObject } from '../model/frozen-records.js'
import { jsonStringContents, storedJsonText, storedStringText } from '../model/stored-text.js'

/** How a reply body is written: as JSON text, or as the contents of a JSON string holding that text. */
interface Form {
  /** The stored text of a deep-frozen record, kept on it from before; undefined for any other value. */
  record(value: object): string | undefined
  /** The text of any value, written whole (undefined where `JSON.stringify` returns undefined). */
  whole(value: unknown): string | undefined
}

const AS_JSON: Form = { record: storedJsonText, whole: (value) => JSON.stringify(value) }
const AS_STRING_CONTENTS: Form = {
  record: storedStringText,
  whole: (value) => {
    const json = JSON.stringify(value) as string | undefined
    return json === undefined ? undefined : jsonStringContents(json)
  },
}

/**
 * `JSON.stringify(value)`, reusing the text of deep-frozen records. Only the first levels (an
 * envelope such as `{ data: [...records], pagination }`) are walked; every other value is handed
 * to `JSON.stringify` whole, so the result is always exactly what `JSON.stringify` returns.
 *
 * @example
 * const body = stringifyReply({ data: page.items, pagination })
 */
export function stringifyReply(value: unknown): string {
  return text(value, 2, AS_JSON) ?? 'null'
}

/**
 * `JSON.stringify(stringifyReply(value))` without its quotes: the body as the contents of a JSON string, for
 * an MCP tool result's text block (docs/mcp.md). Records' escaped texts are kept as their JSON texts are, so
 * a page is joined, not escaped again (escaping a page whole costs a tool call more than the rest of its
 * serialising: bench/README.md#mcp-a-tool-call-beside-its-rest-request).
 *
 * @example
 * stringifyReplyAsString({ data: [] }) // '{\\"data\\":[]}'
 */
export function stringifyReplyAsString(value: unknown): string {
  return text(value, 2, AS_STRING_CONTENTS) ?? 'null'
}

function text(value: unknown, depth: number, form: Form): string | undefined {
  if (value === null || typeof value !== 'object') return form.whole(value)
  const known = form.record(value)
  if (known !== undefined) return known
  // Anything with its own serialisation (Date, toJSON, class instances) goes to JSON.stringify.
  if (depth === 0 || typeof (value as { toJSON?: unknown }).toJSON === 'function') return form.whole(value)
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) out += `${i === 0 ? '' : ','}${text(value[i], depth - 1, form) ?? 'null'}`
    return `${out}]`
  }
  // A flat object (a page's `pagination`) holds no record to reuse: one call writes it.
  if (!isPlainObject(value) || !holdsObject(value)) return form.whole(value)
  let out = '{'
  for (const key of Object.keys(value)) {
    const member = text((value as Record<string, unknown>)[key], depth - 1, form)
    if (member !== undefined) out += `${out.length === 1 ? '' : ','}${form.whole(key)}:${member}`
  }
  return `${out}}`
}

function holdsObject(value: object): boolean {
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key]
    if (member !== null && typeof member === 'object') return true
  }
  return false
}
