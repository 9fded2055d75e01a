/**
 * Every list's answer, by page or by cursor (docs/extensions.md, section 1): the page, its
 * `pagination` with `nextCursor`, and `Link: <...>; rel="next"` when a page follows.
 */
import { pagination } from '../model/computed.js'
import type { CollectionSpec, OrderTerm } from '../model/collection.js'
import { type AfterKeyset, keysetOf } from '../model/keyset.js'
import { decodeCursor, encodeCursor, queryDigest } from '../http/cursor.js'
import { validationError } from '../http/errors.js'
import type { OperationResult } from '../http/operation.js'
import type { ListResult } from '../ports/store.js'

/** What every list query has. */
export interface PagedQuery {
  page: number
  limit: number
  cursor?: string | undefined
}

/** How one list reads its records. */
export interface ListSource<Q extends PagedQuery, D extends { id: string }> {
  /** The operation's id: a cursor binds it. */
  operationId: string
  spec: Pick<CollectionSpec<never, never>, 'name' | 'columns'>
  /** The order the store lists in for `query`. */
  terms: (query: Q) => readonly OrderTerm[]
  list: (query: Q & AfterKeyset) => Promise<ListResult<D>>
}

/** Whether the raw query string names `page` (the validated query always has one: it defaults to 1). */
function namesPage(url: URL): boolean {
  return (
    url.search.length > 1 &&
    url.search
      .slice(1)
      .split('&')
      .some((pair) => rawName(pair) === 'page')
  )
}

function rawName(pair: string): string {
  const end = pair.indexOf('=')
  const name = end < 0 ? pair : pair.slice(0, end)
  // Most names are plain text: decoding is only needed for a `%` escape or a `+`.
  if (!name.includes('%') && !name.includes('+')) return name
  try {
    return decodeURIComponent(name.replaceAll('+', ' '))
  } catch {
    return name
  }
}

/**
 * The URL of the next page: the request's own query with `cursor` set and `page` left out
 * (RFC 8288 `Link`). The query is rebuilt from its raw pairs, so every other parameter is sent back
 * exactly as the client wrote it.
 */
function nextLink(url: URL, cursor: string): string {
  const search = url.search
  let query = ''
  // The usual query names neither `page` nor `cursor`, escapes no name and has no empty pair: it is
  // sent back whole, without splitting it into pairs.
  if (search.length > 1 && !/page|cursor|[%+]|&&|&$/.test(search) && search.charCodeAt(1) !== 0x26 /* & */)
    return `${url.origin}${url.pathname}${search}&cursor=${cursor}`
  for (const pair of search.slice(1).split('&')) {
    if (pair === '') continue
    const name = rawName(pair)
    if (name !== 'page' && name !== 'cursor') query += `${pair}&`
  }
  return `${url.origin}${url.pathname}?${query}cursor=${cursor}`
}

/**
 * 200 `{ data, pagination }` for a list `query`: a page by number, or with `query.cursor` the page
 * after the cursor's position (a 400 on `cursor` when it does not belong to this list and query).
 *
 * @example
 * handle: ({ store, tenantId, query, url }) =>
 *   listPage(url, query, {
 *     operationId: 'listUsers',
 *     spec: users,
 *     terms: (q) => sortOrder(users, q.sortColumn, q.sortDesc),
 *     list: (q) => store.listUsers(tenantId, q),
 *   })
 */
export async function listPage<Q extends PagedQuery, D extends { id: string }>(
  url: URL,
  query: Q,
  source: ListSource<Q, D>,
): Promise<OperationResult> {
  const terms = source.terms(query)
  const digest = queryDigest(query as unknown as Record<string, unknown>)
  let page = query.page
  let items: D[]
  let totalCount: number
  let more: boolean
  if (query.cursor !== undefined) {
    if (namesPage(url))
      throw validationError([{ in: 'query', path: 'cursor', message: 'Give cursor or page, not both' }])
    const state = decodeCursor(query.cursor, source.operationId, digest, source.spec, terms)
    page = state.page
    // One record more than the page tells whether another page follows.
    const result = await source.list({ ...query, limit: query.limit + 1, after: state.after })
    more = result.items.length > query.limit
    items = more ? result.items.slice(0, query.limit) : result.items
    totalCount = result.totalCount
  } else {
    const result = await source.list(query)
    items = result.items
    totalCount = result.totalCount
    more = items.length > 0 && page * query.limit < totalCount
  }
  const last = items.at(-1)
  const nextCursor =
    more && last !== undefined
      ? encodeCursor(source.operationId, digest, { page: page + 1, after: keysetOf(source.spec, terms, last as never) })
      : null
  const counts = pagination(page, query.limit, totalCount)
  return {
    status: 200,
    body: {
      data: items,
      pagination: {
        page,
        limit: query.limit,
        totalCount,
        totalPages: counts.totalPages,
        hasNextPage: nextCursor !== null,
        hasPrevPage: counts.hasPrevPage,
        nextCursor,
      },
    },
    headers: nextCursor === null ? undefined : { link: `<${nextLink(url, nextCursor)}>; rel="next"` },
  }
}
