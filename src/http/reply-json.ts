/**
 * Reply serialisation: `JSON.stringify` of a reply body, reusing the JSON text of the deep-frozen
 * records stores hand out (src/model/frozen-records.ts), so a page of unchanged records is joined,
 * not re-serialised.
 */
import { frozenJsonText, isPlainObject } from '../model/frozen-records.js'

/**
 * `JSON.stringify(value)`, reusing the text of deep-frozen records. Only the first levels (an
 * envelope such as `{ data: [...records], pagination }`) are walked; every other value is handed
 * to `JSON.stringify` whole, so the result is always exactly what `JSON.stringify` returns.
 *
 * @example
 * const body = stringifyReply({ data: page.items, pagination })
 */
export function stringifyReply(value: unknown): string {
  return text(value, 2) ?? 'null'
}

function text(value: unknown, depth: number): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  const known = frozenJsonText(value)
  if (known !== undefined) return known
  // Anything with its own serialisation (Date, toJSON, class instances) goes to JSON.stringify.
  if (depth === 0 || typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value)
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) out += `${i === 0 ? '' : ','}${text(value[i], depth - 1) ?? 'null'}`
    return `${out}]`
  }
  // A flat object (a page's `pagination`) holds no record to reuse: one call writes it.
  if (!isPlainObject(value) || !holdsObject(value)) return JSON.stringify(value)
  let out = '{'
  for (const key of Object.keys(value)) {
    const member = text((value as Record<string, unknown>)[key], depth - 1)
    if (member !== undefined) out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${member}`
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
