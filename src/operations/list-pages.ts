/**
 * Every list's answer, by page or by cursor (docs/extensions.md, section 1): the page, its
 * `pagination` with `nextCursor`, and `Link: <...>; rel="next"` when a page follows.
 */
import { pagination } from '../model/computed.js'
import { keysetOf } from '../model/keyset.js'
import type { CollectionDefinition } from '../model/collection.js'
import { type ListRequest, type ListDefinition, listRequest, type PagedQuery } from '../model/list-request.js'
import { decodeCursor, encodeCursor, queryDigest } from '../http/cursor.js'
import { validationError } from '../http/errors.js'
import type { OperationContext, OperationResult } from '../http/operation.js'
import type { SeededCollection } from '../model/index.js'
import type { ListResult } from '../ports/store.js'

/** What every list query has. */
export interface ListQuery extends PagedQuery {
  readonly cursor?: string | undefined
}

/** What a list reads of its handler's context: the operation's id (a cursor binds it), the query, the store. */
export type ListContext = Pick<
  OperationContext<unknown, ListQuery, unknown>,
  'store' | 'tenantId' | 'query' | 'url' | 'operationId' | 'publicOrigin'
>

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
 * The URL of the next page: the request's own path and query with `cursor` set and `page` left out
 * (RFC 8288 `Link`). The query is rebuilt from its raw pairs, so every other parameter is sent back
 * exactly as the client wrote it. It starts with `origin` (`createPublicApi({ publicOrigin })`) or,
 * without one, is a relative reference: the request's origin comes from its `Host` header, which
 * anyone can set, so it is never part of a link (docs/api-behaviour.md#lists). A routed path starts
 * with its base path or route, never `//`, so the reference cannot read as another host's.
 */
function nextLink(origin: string | null, url: URL, cursor: string): string {
  const path = origin === null ? url.pathname : origin + url.pathname
  const search = url.search
  let query = ''
  // The usual query names neither `page` nor `cursor`, escapes no name and has no empty pair: it is
  // sent back whole, without splitting it into pairs.
  if (search.length > 1 && !/page|cursor|[%+]|&&|&$/.test(search) && search.charCodeAt(1) !== 0x26 /* & */)
    return `${path}${search}&cursor=${cursor}`
  for (const pair of search.slice(1).split('&')) {
    if (pair === '') continue
    const name = rawName(pair)
    if (name !== 'page' && name !== 'cursor') query += `${pair}&`
  }
  return `${path}?${query}cursor=${cursor}`
}

/**
 * 200 `{ data, pagination }` for a list of `collection`: a page by number, or with `query.cursor`
 * the page after the cursor's position (a 400 on `cursor` when it does not belong to this list and
 * query). The store is asked once, with the one request `listRequest` builds from the definition.
 *
 * @example
 * handle: (context) => listPage(context, users)
 */
export function listPage(context: ListContext, collection: SeededCollection): Promise<OperationResult> {
  return pageOf(context, collection, (request) => context.store.list(collection, context.tenantId, request))
}

/** A list's definition as {@link pageOf} reads it: its filters, sorts or fixed order, and its columns for cursors. */
export type PagedListDefinition = ListDefinition & Pick<CollectionDefinition<never, never>, 'columns'>

/**
 * {@link listPage} over any source of records in the order of `definition` (a list whose records the
 * operation shows otherwise than stored, such as webhook endpoints without their secrets).
 *
 * @example
 * pageOf(context, ENDPOINTS, async (request) => ({ items, totalCount }))
 */
export async function pageOf(
  context: Pick<ListContext, 'query' | 'url' | 'operationId' | 'publicOrigin'>,
  definition: PagedListDefinition,
  list: (request: ListRequest) => Promise<ListResult<{ id: string }>>,
): Promise<OperationResult> {
  const { query, url, operationId, publicOrigin } = context
  let request = listRequest(definition, query)
  const terms = request.order
  const digest = queryDigest(query)
  let page = query.page
  let items: { id: string }[]
  let totalCount: number
  let more: boolean
  if (query.cursor !== undefined) {
    if (namesPage(url))
      throw validationError([{ in: 'query', path: 'cursor', message: 'Give cursor or page, not both' }])
    const state = decodeCursor(query.cursor, operationId, digest, definition, terms)
    page = state.page
    // One record more than the page tells whether another page follows.
    request = { ...request, limit: query.limit + 1, after: state.after }
    const result = await list(request)
    more = result.items.length > query.limit
    items = more ? result.items.slice(0, query.limit) : result.items
    totalCount = result.totalCount
  } else {
    const result = await list(request)
    items = result.items
    totalCount = result.totalCount
    more = items.length > 0 && page * query.limit < totalCount
  }
  const last = items.at(-1)
  // `last` is a record `list` read through `definition`, whose columns (typed for any collection) read it.
  const nextCursor =
    more && last !== undefined
      ? encodeCursor(operationId, digest, { page: page + 1, after: keysetOf<never>(definition, terms, last as never) })
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
    headers: nextCursor === null ? undefined : { link: `<${nextLink(publicOrigin, url, nextCursor)}>; rel="next"` },
  }
}
