/**
 * What the cursor pagination tests walk with: a walk by cursor (or by `Link`) that checks every
 * page's `pagination` and `Link` header, the first page's cursor, the refusal of a cursor, and the
 * base64url a forged cursor is written in.
 */
import { expect } from 'vitest'
import type { Harness, ValidationErrorReply } from '../harness.js'
import { FIXED, SORTABLE } from './list-sorts.js'
import type { Row } from './reference.js'

/** The limits a walk cycles through, so that `limit` changes between pages. */
export const LIMITS = [2, 3, 1, 4]
/** Where the API is mounted, as the `Link` header's path names it. */
const BASE_PATH = '/api/public/v1'

/** A page's `pagination` as the API answers it. */
interface PaginationBody {
  page: number
  limit: number
  totalCount: number
  totalPages: number
  hasNextPage: boolean
  hasPrevPage: boolean
  nextCursor: string | null
}

/** Every list path. */
export const LIST_PATHS = [...SORTABLE.map((l) => l.path), ...FIXED.map((l) => l.path)]

/**
 * Walks a list by cursor from its first page, cycling `limits`, checking each page's pagination
 * and `Link`; `between` runs after each page with its ids (to change the data mid-walk). With `viaLink` each
 * page after the first is fetched from the previous page's `Link` URL as given (resolved against its request's).
 *
 * @example
 * const { ids, problems } = await walkCursor(h, '/companies', 'sortBy=name', { limits: [2] })
 */
export async function walkCursor(
  h: Harness,
  path: string,
  query: string,
  options: {
    limits?: number[]
    between?: (page: number, ids: string[]) => Promise<void>
    viaLink?: boolean
    total?: number
  } = {},
): Promise<{ ids: string[]; problems: string[] }> {
  const limits = options.limits ?? LIMITS
  const ids: string[] = []
  const problems: string[] = []
  let cursor: string | null = null
  let link: string | null = null
  for (let n = 1; n <= 1000; n++) {
    const limit = limits[(n - 1) % limits.length]!
    const extra = query === '' ? '' : `&${query}`
    const target: string =
      options.viaLink === true && link !== null
        ? link.slice(BASE_PATH.length)
        : `${path}?limit=${limit}${extra}${cursor === null ? '' : `&cursor=${cursor}`}`
    const result = await h.call('GET', target)
    if (result.status !== 200) {
      problems.push(`page ${n}: status ${result.status} ${JSON.stringify(result.body)}`)
      break
    }
    const { data, pagination: p } = result.body as { data: Row[]; pagination: PaginationBody }
    const pageLimit = options.viaLink === true && link !== null ? limits[0]! : limit
    const total = options.total ?? p.totalCount
    const expected: PaginationBody = {
      page: n,
      limit: pageLimit,
      totalCount: total,
      totalPages: Math.ceil(total / pageLimit),
      hasNextPage: p.nextCursor !== null,
      hasPrevPage: n > 1,
      nextCursor: p.nextCursor,
    }
    if (JSON.stringify(p) !== JSON.stringify(expected)) problems.push(`page ${n}: pagination ${JSON.stringify(p)}`)
    if (p.nextCursor !== null && !/^[A-Za-z0-9_-]{1,1024}$/.test(p.nextCursor))
      problems.push(`page ${n}: cursor ${p.nextCursor}`)
    link = result.headers.get('link')
    if (p.nextCursor === null) {
      if (link !== null) problems.push(`page ${n}: Link without a next page: ${link}`)
    } else {
      const next = link === null ? null : linkTarget(link, result.request.url)
      const same =
        next !== null &&
        next.pathname === `${BASE_PATH}${path}` &&
        next.searchParams.get('cursor') === p.nextCursor &&
        !next.searchParams.has('page') &&
        next.searchParams.get('limit') === String(pageLimit) &&
        [...new URLSearchParams(query)].every(([k, v]) => next.searchParams.get(k) === v)
      if (!same) problems.push(`page ${n}: Link ${link}`)
      link = next === null ? null : next.pathname + next.search
    }
    const pageIds = data.map((item) => item.id)
    ids.push(...pageIds)
    await options.between?.(n, pageIds)
    if (p.nextCursor === null) break
    cursor = p.nextCursor
  }
  return { ids, problems }
}

/**
 * The URL a `Link: <URL>; rel="next"` header names, resolved against `requestUrl` (the URL is absolute,
 * or a relative reference starting with one `/`: docs/api-behaviour.md#lists); null when the
 * header is not of that form.
 *
 * @example
 * linkTarget('</api/public/v1/tickets?cursor=abc>; rel="next"', 'http://api.test/api/public/v1/tickets').href
 * // 'http://api.test/api/public/v1/tickets?cursor=abc'
 */
export function linkTarget(link: string, requestUrl: string): URL | null {
  const match = /^<((?:https?:\/\/[^/>]+)?\/[^/>][^>]*)>; rel="next"$/.exec(link)
  return match === null ? null : new URL(match[1]!, requestUrl)
}

/**
 * The first page's `nextCursor` of `path?query`.
 *
 * @example
 * const cursor = await firstCursor(h, '/tickets', 'isClosed=false')
 */
export async function firstCursor(h: Harness, path: string, query: string): Promise<string> {
  const { status, body } = await h.call<{ pagination: { nextCursor?: string | null } }>(
    'GET',
    `${path}?limit=1${query === '' ? '' : `&${query}`}`,
  )
  expect(status, `${path}?${query}`).toBe(200)
  expect(typeof body.pagination.nextCursor, `${path}?${query}`).toBe('string')
  return body.pagination.nextCursor as string
}

/**
 * Asserts a 400 `VALIDATION_ERROR` whose only problem is on `cursor`.
 *
 * @example
 * await expectCursorRefused(h, `/tickets?cursor=${cursor}&page=2`)
 */
export async function expectCursorRefused(h: Harness, target: string): Promise<void> {
  const { status, body } = await h.call<ValidationErrorReply>('GET', target)
  expect([status, body.code], target).toEqual([400, 'VALIDATION_ERROR'])
  expect(
    body.details.map((d) => `${d.in}:${d.path}`),
    target,
  ).toEqual(['query:cursor'])
}

/** `text` in base64url without padding, as cursors are written. */
export const base64url = (text: string) => btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
/** The text of a base64url cursor. */
export const unbase64url = (text: string) => atob(text.replaceAll('-', '+').replaceAll('_', '/'))
