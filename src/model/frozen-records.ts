/**
 * Stores hand out the records they keep (the memory store its own, the SQL stores their parsed
 * documents) without copying them. Freezing them makes that safe: a caller that mutates a result
 * gets a TypeError instead of silently changing what later reads return. And since a deep-frozen
 * record never changes, its JSON text never changes either: it is computed once and reused by
 * identity (the SQL stores hand over the very text they read), so a page of unchanged records is
 * joined, not re-serialised, on every request.
 */

/** Records frozen all the way down by {@link deepFreeze}. */
const deeplyFrozen = new WeakSet<object>()
/** The JSON text of deep-frozen records, computed or handed over once. */
const jsonTexts = new WeakMap<object, string>()
/** The same texts escaped as the contents of a JSON string, made once when first asked for. */
const stringTexts = new WeakMap<object, string>()

/**
 * Freezes `value` and everything reachable from it, and remembers that it did.
 *
 * @example
 * const record = deepFreeze(JSON.parse(text))
 */
export function deepFreeze<T>(value: T): T {
  freezeAll(value)
  return value
}

/** Freezes `value` and what it reaches; true when that made it immutable (plain data all the way down). */
function freezeAll(value: unknown): boolean {
  // A function (a toJSON, say) may answer differently each time: what holds one is not cached.
  if (typeof value === 'function') return false
  if (value === null || typeof value !== 'object') return true
  if (deeplyFrozen.has(value)) return true
  Object.freeze(value)
  // A frozen Date or Map still changes; so does anything that holds one.
  let immutable = Array.isArray(value) || isPlainObject(value)
  for (const child of Object.values(value)) if (!freezeAll(child)) immutable = false
  if (immutable) deeplyFrozen.add(value)
  return immutable
}

/**
 * Freezes the record parsed from `text` and remembers `text` as its JSON. `text` must be what
 * `JSON.stringify` made of an equal record (as every store writes it), so that replies do not
 * depend on whether a record came from the cache.
 *
 * @example
 * const record = frozenFromJson(row.doc)
 */
export function frozenFromJson<T>(text: string): T {
  const value = deepFreeze(JSON.parse(text) as T)
  if (value !== null && typeof value === 'object') jsonTexts.set(value, text)
  return value
}

/**
 * The JSON text of a deep-frozen record: the text it was parsed from, or made once and kept;
 * `undefined` for anything that is not deep-frozen plain data (it may still change).
 *
 * @example
 * const text = frozenJsonText(record) ?? JSON.stringify(record)
 */
export function frozenJsonText(value: object): string | undefined {
  const known = jsonTexts.get(value)
  if (known !== undefined) return known
  if (!deeplyFrozen.has(value)) return undefined
  const made = JSON.stringify(value)
  jsonTexts.set(value, made)
  return made
}

/**
 * The JSON text of a deep-frozen record escaped as the contents of a JSON string (what goes between
 * the quotes of `JSON.stringify(text)`), made once and kept: an MCP tool result carries a page both
 * as JSON and as a string of it (docs/mcp.md). `undefined` where {@link frozenJsonText} is.
 *
 * @example
 * frozenJsonStringText(deepFreeze({ a: 1 })) // '{\\"a\\":1}'
 */
export function frozenJsonStringText(value: object): string | undefined {
  const known = stringTexts.get(value)
  if (known !== undefined) return known
  const text = frozenJsonText(value)
  if (text === undefined) return undefined
  const made = jsonStringContents(text)
  stringTexts.set(value, made)
  return made
}

/**
 * `text` escaped as the contents of a JSON string: `JSON.stringify(text)` without its quotes.
 * Escaping goes character by character, so the contents of a joined text are the joined contents.
 *
 * @example
 * jsonStringContents('{"a":1}') // '{\\"a\\":1}'
 */
export function jsonStringContents(text: string): string {
  return JSON.stringify(text).slice(1, -1)
}

/**
 * True for arrays and objects whose prototype is `Object.prototype` or null.
 *
 * @example
 * isPlainObject({}) // true
 */
export function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}
