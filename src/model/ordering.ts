/**
 * The ordering and matching rules of the contract (docs/contract.md), for stores that sort in
 * JavaScript: strings by Unicode code point (what SQLite's BINARY and Postgres's `COLLATE "C"` do
 * on UTF-8), nulls last in both directions, ties by `id` ascending; search and filters compare
 * JavaScript-lower-cased text.
 */

/**
 * Compares strings by code point, not by UTF-16 code unit (they differ past U+FFFF).
 *
 * @example
 * ['😀', '\uffff'].sort(compareCodePoints) // ['\uffff', '😀']
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return rank(x) - rank(y)
  }
  return a.length - b.length
}

/** Surrogates encode code points above U+FFFF, so they must rank after U+E000..U+FFFF. */
function rank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000
  if (unit >= 0xe000) return unit - 0x800
  return unit
}

type Sortable = string | number | boolean | null | undefined

function compareValues(a: Sortable, b: Sortable): number {
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b)
  return a! < b! ? -1 : a! > b! ? 1 : 0
}

/**
 * A comparator on `key(record)`, ascending or descending, with nulls last either way and ties by
 * `id` ascending: a total order, so that pages never overlap or skip.
 *
 * @example
 * tickets.sort(orderBy((t) => t.priority, true))
 */
export function orderBy<T extends { id: string }>(
  key: (record: T) => Sortable,
  descending: boolean,
  then?: (record: T) => Sortable,
): (a: T, b: T) => number {
  return (a, b) => {
    const c = compareNullsLast(key(a), key(b), descending)
    if (c !== 0) return c
    if (then) {
      const c = compareValues(then(a), then(b))
      if (c !== 0) return c
    }
    return compareCodePoints(a.id, b.id)
  }
}

/**
 * A comparator on several keys in turn, each ascending or descending with nulls last, then ties
 * by `id` ascending.
 *
 * @example
 * const byIndexThenName = orderByKeys<MeetingType>([
 *   { key: (m) => m.orderIndex, descending: false },
 *   { key: (m) => m.name, descending: false },
 * ])
 */
export function orderByKeys<T extends { id: string }>(
  keys: readonly { key: (record: T) => Sortable; descending: boolean }[],
): (a: T, b: T) => number {
  return (a, b) => {
    for (const { key, descending } of keys) {
      const c = compareNullsLast(key(a), key(b), descending)
      if (c !== 0) return c
    }
    return compareCodePoints(a.id, b.id)
  }
}

/**
 * Two sort values in `descending` or ascending order, nulls last either way: the one comparison of
 * the stores' comparators and of cursor positions (src/model/keyset.ts).
 *
 * @example
 * compareNullsLast(null, 'a', true) // 1: null sorts last even descending
 */
export function compareNullsLast(x: Sortable, y: Sortable, descending: boolean): number {
  const xNull = x === null || x === undefined
  const yNull = y === null || y === undefined
  if (xNull || yNull) return xNull === yNull ? 0 : xNull ? 1 : -1
  const c = compareValues(x, y)
  return descending ? -c : c
}

/**
 * The form every store compares search terms and case-insensitive filters in.
 *
 * @example
 * foldCase('VPN Drops') // 'vpn drops'
 */
export function foldCase(text: string): string {
  return text.toLowerCase()
}
