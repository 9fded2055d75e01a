/**
 * Whether two values serialise to the same JSON text, without serialising them. Change detection
 * compares every top-level field of a record's before and after states on each write; turning both
 * sides of a rule's conditions and actions into text cost a write tens of microseconds, while a walk
 * stops at the first difference and allocates nothing.
 */

/** A value JSON.stringify leaves out of an object (and writes as `null` in an array). */
const omitted = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol'

/**
 * An object JSON.stringify does not write as its own keys (a `toJSON`, as on dates; a boxed
 * primitive), or one whose class may hold such: these are compared by their text.
 */
function special(value: object): boolean {
  const proto = Object.getPrototypeOf(value)
  return (
    (proto !== Object.prototype && proto !== Array.prototype && proto !== null) ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  )
}

/**
 * True when `JSON.stringify(a) === JSON.stringify(b)`: the same keys in the same order with the same
 * values, `undefined` members left out of objects and written as `null` in arrays, as JSON does.
 * Values with a `toJSON` (dates) are compared by their text.
 *
 * @example
 * sameJson({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }) // true
 * sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }) // false: JSON keeps the key order
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || special(a) || special(b)) {
    return JSON.stringify(a) === JSON.stringify(b)
  }
  const array = Array.isArray(a)
  if (array !== Array.isArray(b)) return false
  if (array) {
    const left = a as unknown[]
    const right = b as unknown[]
    if (left.length !== right.length) return false
    for (let i = 0; i < left.length; i++) {
      if (!sameJson(omitted(left[i]) ? null : left[i], omitted(right[i]) ? null : right[i])) return false
    }
    return true
  }
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  const rightKeys = Object.keys(right)
  let j = 0
  for (const key of Object.keys(left)) {
    if (omitted(left[key])) continue
    while (j < rightKeys.length && omitted(right[rightKeys[j]!])) j++
    if (j === rightKeys.length || rightKeys[j] !== key || !sameJson(left[key], right[key])) return false
    j++
  }
  while (j < rightKeys.length && omitted(right[rightKeys[j]!])) j++
  return j === rightKeys.length
}
