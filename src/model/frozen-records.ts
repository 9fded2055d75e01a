/**
 * Stores hand out the records they keep (the memory store its own, the SQL stores their parsed
 * documents) without copying them. Freezing them makes that safe: a caller that mutates a result
 * gets a TypeError instead of silently changing what later reads return. And since a deep-frozen
 * record never changes, its JSON text never changes either: freezing gives it a holder for that
 * text (src/model/stored-text.ts), filled once and reused (the SQL stores hand over the very text
 * they read), so a page of unchanged records is joined, not re-serialised, on every request.
 */
import { keepStoredText, storedTextOf } from './stored-text.js'

/**
 * Freezes `value` and everything reachable from it; what that makes immutable (plain data all the
 * way down) keeps its JSON text once made (src/model/stored-text.ts).
 *
 * @example
 * const record = deepFreeze(JSON.parse(text))
 */
export function deepFreeze<T>(value: T): T {
  freezeAll(value)
  return value
}

/**
 * Freezes `value` and what it reaches; true when that made it immutable (plain data all the way
 * down), which is what gets a stored text. Children are frozen first and the holder attached before
 * `value` itself is frozen, since a frozen object takes no new property.
 */
function freezeAll(value: unknown): boolean {
  // A function (a toJSON, say) may answer differently each time: what holds one is not cached.
  if (typeof value === 'function') return false
  if (value === null || typeof value !== 'object') return true
  if (storedTextOf(value) !== undefined) return true
  // A frozen Date or Map still changes; so does anything that holds one.
  let immutable = Array.isArray(value) || isPlainObject(value)
  for (const child of Object.values(value)) if (!freezeAll(child)) immutable = false
  if (immutable) keepStoredText(value)
  Object.freeze(value)
  return immutable
}

/**
 * Freezes the record parsed from `text` and stores `text` as its JSON text. `text` must be what
 * `JSON.stringify` made of an equal record (as every store writes it), so that replies do not
 * depend on whether a record came from the cache.
 *
 * @example
 * const record = frozenFromJson(row.doc)
 */
export function frozenFromJson<T>(text: string): T {
  const value = deepFreeze(JSON.parse(text) as T)
  const stored = value !== null && typeof value === 'object' ? storedTextOf(value) : undefined
  if (stored !== undefined) stored.json = text
  return value
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
