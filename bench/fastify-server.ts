/**
 * The Fastify 5 peer of the http bench: `GET /tickets` written the way Fastify is meant to be used,
 * doing the work the API does for that request on the same store:
 *
 *   - an `onRequest` hook refuses cookies, checks the bearer key (the bench's resolver) and the
 *     `tickets.read` scope, and consumes one request of the key's rate limit (the library's
 *     `memoryRateLimiter`), before the query is validated, as the API orders it;
 *   - the query is validated and coerced by Fastify's own JSON-schema validation (Ajv), with the
 *     bounds, enums and defaults of the API's ticket list (unknown parameters are refused);
 *   - the handler calls `store.listTickets(tenant, query)` (one row more after a `cursor`'s position,
 *     to tell whether a page follows) and returns the `{ data, pagination }` envelope with its
 *     `nextCursor`, which Fastify serialises with fast-json-stringify through the route's 200
 *     `response` schema, and `Link: <next page>; rel="next"` when a page follows;
 *   - every response carries the API's headers: `x-request-id` (the client's when well-formed, else
 *     a UUID), `x-content-type-options: nosniff`, the `application/json; charset=utf-8` content type,
 *     and `x-ratelimit-*`, `ratelimit-policy`, `ratelimit` and `cache-control: no-store` once a key is known.
 *
 * A cursor is the API's opaque format (it binds the operation, the query's digest and the keyset of
 * the last row): a client holding one from the API must be able to hand it to the peer, so the peer
 * makes and reads cursors with the library's own functions, as it uses the library's `pagination`.
 *
 * Ajv's integer coercion is a little more lenient than the API (it takes `+5` or `1.0` as a page
 * number where the API wants digits only): that costs nothing either way and never arises in the bench.
 */
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify'
import { hasScope, type ListResult, type Principal, type RateLimiter, type Store, type Ticket } from 'tenant-public-api'
// Not in the package's public surface: the bearer token's parsing, the page arithmetic, the tickets'
// providers and sorts, the cursor's format, the tickets' order and keyset.
import { bearerToken } from '../src/http/auth.js'
import { pagination } from '../src/model/computed.js'
import { PROVIDERS, TICKET_SORT_COLUMNS, tickets } from '../src/model/tickets.js'
import { decodeCursor, encodeCursor, queryDigest } from '../src/http/cursor.js'
import { listRequest } from '../src/model/list-request.js'
import { keysetOf } from '../src/model/keyset.js'

/** What the peer serves: the bench's store, key resolver and rate limiter. */
export interface FastifyPeerOptions {
  store: Store
  /** The bench's key resolver (it looks at the token only: Fastify has no Fetch `Request` to give it). */
  resolveKey: (token: string) => Principal | null | Promise<Principal | null>
  rateLimiter: RateLimiter
  basePath: string
}

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

const text = (maxLength: number) => ({ type: 'string', maxLength })
const nullable = (type: string, extra: object = {}) => ({ type: [type, 'null'], ...extra })

/** The ticket list's query parameters (the API's TicketListQuerySchema, as JSON Schema). */
const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    cursor: { type: 'string', minLength: 1, maxLength: 1024 },
    sortColumn: { type: 'string', enum: Object.keys(TICKET_SORT_COLUMNS), default: 'created_date' },
    sortDesc: { type: 'boolean', default: true },
    search: text(255),
    companyId: { type: 'string', format: 'uuid' },
    status: text(100),
    priority: text(100),
    assignedTo: text(255),
    isClosed: { type: 'boolean' },
    provider: { type: 'string', enum: [...PROVIDERS] },
    // A calendar date (the start or end of that UTC day) or an RFC 3339 date-time with its offset.
    dateFrom: { type: 'string', anyOf: [{ format: 'date' }, { format: 'date-time' }] },
    dateTo: { type: 'string', anyOf: [{ format: 'date' }, { format: 'date-time' }] },
  },
} as const

/** A ticket, property by property in the order the store writes them (so the bytes match the API's). */
const ticketProperties = {
  id: { type: 'string' },
  ticketNumber: { type: 'string' },
  title: { type: 'string' },
  description: nullable('string'),
  companyId: nullable('string'),
  companyName: nullable('string'),
  contactName: nullable('string'),
  contactEmail: nullable('string'),
  status: nullable('string'),
  isClosed: { type: 'boolean' },
  priority: nullable('string'),
  assignedTo: nullable('string'),
  boardName: nullable('string'),
  queueName: nullable('string'),
  typeName: nullable('string'),
  categoryName: nullable('string'),
  issueTypeName: nullable('string'),
  hoursBudgeted: nullable('number'),
  hoursActual: nullable('number'),
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: nullable('string', { format: 'date-time' }),
  daysOpen: nullable('number'),
  provider: { type: 'string', enum: [...PROVIDERS] },
  externalId: nullable('string'),
  source: nullable('string'),
}
const ticket = { type: 'object', required: Object.keys(ticketProperties), properties: ticketProperties }

/** The 200 envelope: a page of tickets and its pagination. */
const listResponse = {
  type: 'object',
  required: ['data', 'pagination'],
  properties: {
    data: { type: 'array', items: ticket },
    pagination: {
      type: 'object',
      required: ['page', 'limit', 'totalCount', 'totalPages', 'hasNextPage', 'hasPrevPage', 'nextCursor'],
      properties: {
        page: { type: 'integer' },
        limit: { type: 'integer' },
        totalCount: { type: 'integer' },
        totalPages: { type: 'integer' },
        hasNextPage: { type: 'boolean' },
        hasPrevPage: { type: 'boolean' },
        nextCursor: nullable('string'),
      },
    },
  },
}

type TicketQuery = {
  page: number
  limit: number
  cursor?: string
  sortColumn: keyof typeof TICKET_SORT_COLUMNS
  sortDesc: boolean
  search?: string
  companyId?: string
  status?: string
  priority?: string
  assignedTo?: string
  isClosed?: boolean
  provider?: (typeof PROVIDERS)[number]
  dateFrom?: string
  dateTo?: string
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal
  }
}

/** The API's error body: `{ error, code, requestId, details? }`. */
function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  details?: unknown,
) {
  return reply.code(status).send({ error: message, code, requestId: request.id, details })
}

/** A date means the start (or end) of that UTC day; a date-time is normalised to `toISOString()`. */
function instant(value: string, bound: 'start' | 'end'): string {
  const iso = DATE_ONLY.test(value) ? `${value}T${bound === 'start' ? '00:00:00.000' : '23:59:59.999'}Z` : value
  return new Date(Date.parse(iso)).toISOString()
}

/** A query pair's name, decoded as a form field's would be (undecodable text as it is). */
function pairName(pair: string): string {
  const name = pair.slice(0, pair.includes('=') ? pair.indexOf('=') : undefined)
  try {
    return decodeURIComponent(name.replaceAll('+', ' '))
  } catch {
    return name
  }
}

/**
 * The next page's URL, a relative reference as the API writes it without `publicOrigin`: the request's
 * path and query pairs as the client wrote them, less `page` and `cursor`, then `cursor`.
 */
function nextPageUrl(target: string, cursor: string): string {
  const [path = '', search = ''] = target.split(/\?(.*)/s)
  const kept = search.split('&').filter((pair) => pair !== '' && !['page', 'cursor'].includes(pairName(pair)))
  return `${path}?${[...kept, `cursor=${cursor}`].join('&')}`
}

/**
 * Builds the Fastify app serving `GET {basePath}/tickets`; the caller listens (or injects).
 *
 * @example
 * await createFastifyPeer({ store, resolveKey, rateLimiter, basePath: '/api/public/v1' }).listen({ port })
 */
export function createFastifyPeer(options: FastifyPeerOptions) {
  const { store, resolveKey, rateLimiter } = options
  const app = Fastify({
    // The API takes the client's X-Request-Id only when it is well-formed, else a fresh UUID.
    genReqId: (req) => {
      const header = req.headers['x-request-id']
      return typeof header === 'string' && CLIENT_REQUEST_ID.test(header) ? header : crypto.randomUUID()
    },
    // Ajv's default drops unknown properties silently; the API refuses an unknown parameter (400).
    ajv: { customOptions: { removeAdditional: false } },
  })

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation !== undefined) {
      const details = error.validation.map((issue) => ({
        in: 'query',
        path: String(issue.params.additionalProperty ?? issue.instancePath.slice(1)),
        message:
          issue.params.additionalProperty === undefined ? (issue.message ?? 'Invalid') : 'Unknown query parameter',
      }))
      // An `anyOf` (the dates) fails once per branch and once as a whole: the API names a parameter once.
      details.splice(0, details.length, ...new Map(details.map((issue) => [issue.path, issue])).values())
      return sendError(request, reply, 400, 'VALIDATION_ERROR', 'The request has invalid parameters', details)
    }
    console.error('[fastify peer]', error) // the logger is off, as in the other servers
    return sendError(request, reply, 500, 'INTERNAL_ERROR', 'An unexpected error occurred')
  })

  app.get<{ Querystring: TicketQuery }>(
    `${options.basePath}/tickets`,
    {
      schema: { querystring, response: { 200: listResponse } },
      onRequest: async (request, reply) => {
        reply.headers({ 'x-request-id': request.id, 'x-content-type-options': 'nosniff' })
        if (request.headers.cookie !== undefined) {
          const message = 'This API is stateless: requests must not carry cookies'
          return sendError(request, reply, 400, 'COOKIES_NOT_ALLOWED', message)
        }
        const token = bearerToken(request.headers.authorization ?? null)
        const principal = token === null ? null : await resolveKey(token)
        if (principal === null) {
          reply.header('www-authenticate', 'Bearer realm="api"')
          return sendError(
            request,
            reply,
            401,
            'UNAUTHORIZED',
            'A valid API key is required: send Authorization: Bearer <key>',
          )
        }
        const limit = await rateLimiter.consume(principal.keyId, principal.rateLimit)
        const now = Date.now()
        reply.headers({
          'x-ratelimit-limit': String(limit.limit),
          'x-ratelimit-remaining': String(Math.max(0, limit.remaining)),
          'x-ratelimit-reset': limit.resetAt.toISOString(),
          'ratelimit-policy': `"key";q=${limit.limit};w=${Math.ceil((limit.windowMs ?? 60_000) / 1000)}`,
          ratelimit: `"key";r=${Math.max(0, limit.remaining)};t=${Math.ceil((limit.resetAt.getTime() - now) / 1000)}`,
          'cache-control': 'no-store',
        })
        if (!hasScope(principal.scopes, 'tickets.read')) {
          const message = 'This key lacks the tickets.read scope'
          return sendError(request, reply, 403, 'INSUFFICIENT_SCOPE', message, { requiredScopes: ['tickets.read'] })
        }
        if (!limit.allowed) {
          reply.header('retry-after', String(Math.max(1, Math.ceil((limit.resetAt.getTime() - Date.now()) / 1000))))
          return sendError(
            request,
            reply,
            429,
            'RATE_LIMITED',
            'Too many requests for this API key; retry after the window resets',
          )
        }
        request.principal = principal
      },
    },
    async (request, reply) => {
      const query = request.query
      if (query.companyId !== undefined) query.companyId = query.companyId.toLowerCase()
      if (query.dateFrom !== undefined) query.dateFrom = instant(query.dateFrom, 'start')
      if (query.dateTo !== undefined) query.dateTo = instant(query.dateTo, 'end')
      if (query.dateFrom !== undefined && query.dateTo !== undefined && query.dateFrom > query.dateTo) {
        const details = [{ in: 'query', path: 'dateFrom', message: 'dateFrom must not be after dateTo' }]
        return sendError(request, reply, 400, 'VALIDATION_ERROR', 'The request has invalid parameters', details)
      }
      const tenantId = request.principal!.tenantId
      const listed = listRequest(tickets, query)
      const terms = listed.order
      const digest = queryDigest(query as unknown as Record<string, unknown>)
      let page = query.page
      let result: ListResult<Ticket>
      let more: boolean
      if (query.cursor === undefined) {
        result = await store.list(tickets, tenantId, listed)
        more = result.items.length > 0 && page * query.limit < result.totalCount
      } else {
        const cursorError = (message: string) =>
          sendError(request, reply, 400, 'VALIDATION_ERROR', 'The request has invalid parameters', [
            { in: 'query', path: 'cursor', message },
          ])
        const search = request.url.slice(request.url.indexOf('?') + 1)
        if (search.split('&').some((pair) => pairName(pair) === 'page'))
          return cursorError('Give cursor or page, not both')
        let after: ReturnType<typeof decodeCursor>['after']
        try {
          ;({ page, after } = decodeCursor(query.cursor, 'listTickets', digest, tickets, terms))
        } catch (error) {
          const [issue] = (error as { details?: Array<{ message: string }> }).details ?? []
          return cursorError(issue?.message ?? 'Not a cursor of this API')
        }
        result = await store.list(tickets, tenantId, { ...listed, limit: query.limit + 1, after })
        more = result.items.length > query.limit
        if (more) result = { ...result, items: result.items.slice(0, query.limit) }
      }
      const last = result.items.at(-1)
      const nextCursor =
        more && last !== undefined
          ? encodeCursor('listTickets', digest, { page: page + 1, after: keysetOf(tickets, terms, last) })
          : null
      if (nextCursor !== null) reply.header('link', `<${nextPageUrl(request.url, nextCursor)}>; rel="next"`)
      const counts = pagination(page, query.limit, result.totalCount)
      return { data: result.items, pagination: { ...counts, hasNextPage: nextCursor !== null, nextCursor } }
    },
  )
  return app
}
