/**
 * An independent statement of the contract's ordering and matching rules (docs/api-behaviour.md, Lists), used to
 * compute what a list must answer from the fixtures. Deliberately written apart from
 * `src/model/ordering.ts`, so that a bug there cannot hide itself.
 */
import type { Harness } from '../harness.js'

/** A fixture record as the reference reads it. */
export type Row = { id: string } & Record<string, unknown>

/** A page of a counted list as {@link fetchAll} reads it. */
export type PageBody = { data: Row[]; pagination: { totalCount: number } & Record<string, unknown> }

/**
 * Compares two strings by Unicode code point (not UTF-16 code unit).
 *
 * @example
 * byCodePoint('\uFF21', '😀') < 0 // true, although '\uFF21' > '😀' in UTF-16 units
 */
export function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!)
  const y = Array.from(b, (c) => c.codePointAt(0)!)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}

type Value = string | number | boolean | null | undefined

function compare(a: Value, b: Value): number {
  if (typeof a === 'string' && typeof b === 'string') return byCodePoint(a, b)
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0
}

/**
 * Sorts rows by `key` (nulls last in both directions), then by `then` keys ascending, then by id
 * ascending.
 *
 * @example
 * sortRows(tickets, (t) => t.title as string, true)
 */
export function sortRows<T extends Row>(
  rows: readonly T[],
  key: (row: T) => Value,
  descending: boolean,
  then: Array<(row: T) => Value> = [],
): T[] {
  return [...rows].sort((p, q) => {
    const x = key(p)
    const y = key(q)
    const xNull = x === null || x === undefined
    const yNull = y === null || y === undefined
    if (xNull !== yNull) return xNull ? 1 : -1
    if (!xNull) {
      const c = compare(x, y)
      if (c !== 0) return descending ? -c : c
    }
    for (const next of then) {
      const c = compare(next(p), next(q))
      if (c !== 0) return c
    }
    return byCodePoint(p.id, q.id)
  })
}

/**
 * Lower-cases the way the contract's case-insensitive matching does for the fixture texts (ASCII and Latin-1).
 *
 * @example
 * fold('PRINTER') // 'printer'
 */
export function fold(text: string): string {
  return text.toLowerCase()
}

/**
 * Every item of a list, in one request (the fixtures stay under 100 per list).
 *
 * @example
 * const { ids, body } = await fetchAll(h, '/tickets', 'sortColumn=title')
 */
export async function fetchAll<T extends { data: readonly { id: string }[] } = PageBody>(
  h: Harness,
  path: string,
  query = '',
): Promise<{ status: number; ids: string[]; body: T }> {
  const result = await h.call<T>('GET', `${path}?limit=100${query ? `&${query}` : ''}`)
  const data: unknown = result.body?.data
  return {
    status: result.status,
    ids: Array.isArray(data) ? data.map((item: Row) => item.id) : [],
    body: result.body,
  }
}

/**
 * Walks every page of a list with `limit`, checking the pagination object of each page, and
 * returns the concatenated ids.
 *
 * @example
 * const walked = await walkPages(h, '/tickets', 'sortColumn=title', 3)
 */
export async function walkPages(
  h: Harness,
  path: string,
  query: string,
  limit: number,
): Promise<{ ids: string[]; problems: string[] }> {
  const ids: string[] = []
  const problems: string[] = []
  for (let page = 1; page <= 1000; page++) {
    const result = await h.call('GET', `${path}?page=${page}&limit=${limit}${query ? `&${query}` : ''}`)
    if (result.status !== 200) {
      problems.push(`page ${page}: status ${result.status}`)
      break
    }
    const { data, pagination } = result.body as { data: Row[]; pagination: Record<string, unknown> }
    const totalPages = Math.ceil((pagination.totalCount as number) / limit)
    const expected = {
      page,
      limit,
      totalCount: pagination.totalCount,
      totalPages,
      hasNextPage: page < totalPages,
      hasPrevPage: page > 1,
    }
    // A page-mode answer carries the cursor of the next page too (docs/extensions.md, section 1).
    const cursorFits = page < totalPages ? typeof pagination.nextCursor === 'string' : pagination.nextCursor === null
    const same =
      Object.keys(pagination).length === 7 &&
      cursorFits &&
      Object.entries(expected).every(([key, value]) => pagination[key] === value)
    if (!same) problems.push(`page ${page}: pagination ${JSON.stringify(pagination)}`)
    ids.push(...data.map((item) => item.id))
    if (page >= totalPages) break
  }
  return { ids, problems }
}
