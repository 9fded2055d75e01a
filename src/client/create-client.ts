/**
 * The typed client: one method per operation, page iteration, bounded retries and idempotency
 * keys. It uses only Fetch-standard globals (fetch, URL, Headers, crypto, setTimeout), so it runs
 * unchanged in Node, Bun, Deno and browsers.
 */
import type { OperationId } from '../operations/index.js'
import { checkOptions, is, type OptionChecks } from '../model/options.js'
import { ApiResponseError } from './errors.js'
import { CLIENT_ROUTES, type ClientRoute } from './routes.js'
import type {
  FeedOperationId,
  IdempotencyOptions,
  IfMatchOptions,
  ItemOf,
  ListOperationId,
  OperationMethods,
  OptionsOf,
  Paginators,
  QueryOf,
  RequestOptions,
} from './types.js'

/** A `fetch`-compatible function. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Where the API is served, e.g. `https://portal.example.com`. */
  baseUrl: string
  /** The API key, sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string
  /** Where the API is mounted on `baseUrl`. Default `/api/public/v1`. */
  basePath?: string
  /**
   * The `fetch` to use. Default: the global one. Pass `(input, init) => api(new Request(input, init))`
   * to call a handler in-process.
   */
  fetch?: FetchLike
  /** Retries after a 429, a 503 or a network error (see {@link isRetrySafe}). Default 2; 0 turns retrying off. */
  retries?: number
  /**
   * The longest wait before a retry. A `Retry-After` longer than this is not waited for: the error is
   * thrown. Default 30 000 ms.
   */
  maxRetryDelayMs?: number
  /** Headers sent with every request (a `User-Agent`, say). */
  headers?: Record<string, string>
}

// A small module of its own (src/model/options.ts): the client's bundle stays free of server code.
const CHECKS: OptionChecks<ClientOptions> = {
  baseUrl: is.string,
  apiKey: is.string,
  basePath: is.string,
  fetch: is.function,
  retries: is.integer(0),
  maxRetryDelayMs: is.nonNegativeNumber,
  headers: (value) =>
    is.object(value) === undefined && Object.values(value as object).every((header) => typeof header === 'string')
      ? undefined
      : 'must be an object of header names to strings',
}

/** The client: one method per operation, plus `paginate`. */
export type Client = OperationMethods & {
  /**
   * Walks every page of a list by cursor, yielding items: each record that exists for the whole
   * walk exactly once. Uses `limit: 100` unless the query sets it; a `page` or `cursor` is where it
   * starts.
   *
   * @example
   * for await (const ticket of client.paginate.listTickets({ isClosed: false })) console.log(ticket.title)
   */
  paginate: Paginators
  /**
   * Follows the events feed from `after` (default: its start), yielding every event once, in order;
   * when caught up, asks again every `intervalMs` (default 5000). Ends when `signal` aborts.
   *
   * @example
   * for await (const event of client.tailEvents({ after: lastSeen, types: ['ticket.updated'], signal })) save(event)
   */
  tailEvents(options?: TailEventsOptions): AsyncIterableIterator<ItemOf<'listEvents'>>
}

/** Options of {@link Client.tailEvents}. */
export interface TailEventsOptions {
  /** The id of the last event already seen; omitted, the feed is read from its oldest kept event. */
  after?: string
  /** Only these event types. */
  types?: QueryOf<'listEvents'>['types']
  /** The wait between polls once caught up, in ms. Default 5000. */
  intervalMs?: number
  /** Stops the tail (the iterator ends without an error). */
  signal?: AbortSignal
}

const DEFAULT_RETRIES = 2
const DEFAULT_MAX_RETRY_DELAY_MS = 30_000
const BASE_BACKOFF_MS = 250

/**
 * Whether a request may be sent again after a 503 or a network error, when it may or may not have
 * been carried out: reads, deletes, patches (they set fields, so a repeat leaves the same state)
 * and POSTs with an `Idempotency-Key` (the server replays the first answer). A 429 is always
 * retried: the API refuses it before doing anything.
 *
 * @example
 * isRetrySafe('POST', new Headers({ 'idempotency-key': 'k1' })) // true
 */
export function isRetrySafe(method: string, headers: Headers): boolean {
  return method !== 'POST' || headers.has('idempotency-key')
}

/**
 * Milliseconds a `Retry-After` value asks to wait (whole seconds or an HTTP date), or `undefined`.
 *
 * @example
 * retryAfterMs('2') // 2000
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** A v4 UUID; `crypto.randomUUID` is missing in browsers' insecure contexts, hence the fallback. */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError')
}

function queryString(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue
    params.set(name, value instanceof Date ? value.toISOString() : String(value))
  }
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

/** What every request of one client shares: where, with which key, and how it retries. */
interface ClientSettings {
  /** The options as given: the key and headers are read from them at each call. */
  options: ClientOptions
  root: string
  fetch: FetchLike
  retries: number
  maxDelay: number
}

/** The options one call takes, whatever its operation. */
type CallOptions = RequestOptions & IdempotencyOptions & IfMatchOptions

/** Sends one operation's call and resolves to its parsed JSON answer (see {@link sendWithRetries}). */
type Send = (route: ClientRoute, id: string | undefined, input: unknown, callOptions?: CallOptions) => Promise<unknown>

/** One call as it goes on the wire, with the retries it may use. */
interface PreparedRequest {
  url: string
  method: ClientRoute['method']
  headers: Headers
  body: string | undefined
  retries: number
  signal: AbortSignal | undefined
}

/** The URL, headers and body of one call of `route`: the id in the path, the input as query or JSON body. */
function prepareRequest(
  settings: ClientSettings,
  route: ClientRoute,
  id: string | undefined,
  input: unknown,
  callOptions: CallOptions,
): PreparedRequest {
  const path = route.path.replace(':id', () => encodeURIComponent(id ?? ''))
  const hasBody = route.method === 'POST' || route.method === 'PATCH'
  const url = settings.root + path + (hasBody ? '' : queryString(input as Record<string, unknown> | undefined))
  const headers = new Headers({ ...settings.options.headers, ...callOptions.headers })
  headers.set('authorization', `Bearer ${settings.options.apiKey}`)
  headers.set('accept', 'application/json')
  if (hasBody) headers.set('content-type', 'application/json')
  if (callOptions.requestId !== undefined) headers.set('x-request-id', callOptions.requestId)
  // One key per call, generated before the first attempt, so every retry of it is the same request to the server.
  if (route.idempotent) headers.set('idempotency-key', callOptions.idempotencyKey ?? newIdempotencyKey())
  if (route.ifMatch && callOptions.ifMatch !== undefined)
    headers.set('if-match', `"${String(callOptions.ifMatch).replace(/"/g, '')}"`)
  return {
    url,
    method: route.method,
    headers,
    body: hasBody ? JSON.stringify(input) : undefined,
    retries: callOptions.retries ?? settings.retries,
    signal: callOptions.signal,
  }
}

/** A 2xx answer's JSON; a body that is not JSON is an `UNEXPECTED_RESPONSE`. */
async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text()
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new ApiResponseError({
      status: response.status,
      code: 'UNEXPECTED_RESPONSE',
      message: 'The response body is not JSON',
      requestId: response.headers.get('x-request-id') ?? undefined,
      headers: response.headers,
    })
  }
}

/**
 * Sends a request until it is answered with a 2xx (its JSON) or can no longer be retried (the
 * error): a 429, a 503 or a network error is retried when {@link isRetrySafe}, after `Retry-After`
 * or an exponential backoff with jitter, at most `request.retries` times and never after a wait
 * longer than `maxDelay`.
 */
async function sendWithRetries(settings: ClientSettings, request: PreparedRequest): Promise<unknown> {
  const { url, method, headers, body, retries, signal } = request
  for (let attempt = 0; ; attempt++) {
    const backoff = Math.min(settings.maxDelay, BASE_BACKOFF_MS * 2 ** attempt * (0.5 + Math.random() / 2))
    let response: Response
    try {
      response = await settings.fetch(url, { method, headers, body, signal, credentials: 'omit', redirect: 'follow' })
    } catch (error) {
      if (isAbort(error, signal) || attempt >= retries || !isRetrySafe(method, headers)) throw error
      await sleep(backoff, signal)
      continue
    }
    if (response.ok) return jsonOf(response)
    const retryable = response.status === 429 || (response.status === 503 && isRetrySafe(method, headers))
    const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoff
    if (!retryable || attempt >= retries || wait > settings.maxDelay)
      throw await ApiResponseError.fromResponse(response)
    await response.body?.cancel().catch(() => {})
    await sleep(wait, signal)
  }
}

/** One method per operation: `(id?, body | query?, options?)`, as {@link OperationMethods} types them. */
function operationMethods(send: Send): OperationMethods {
  const methods = {} as Record<OperationId, (...args: unknown[]) => Promise<unknown>>
  for (const [operationId, route] of Object.entries(CLIENT_ROUTES) as Array<[OperationId, ClientRoute]>) {
    const takesId = route.path.includes(':id')
    methods[operationId] = (...args: unknown[]) => {
      const id = takesId ? args.shift() : undefined
      if (takesId && (typeof id !== 'string' || id === ''))
        return Promise.reject(new TypeError(`${operationId}: the id must be a non-empty string`))
      // DELETE takes neither body nor query: its only other argument is the options.
      const input = route.method === 'DELETE' ? undefined : args.shift()
      return send(route, id as string | undefined, input, args.shift() as OptionsOf<typeof operationId>)
    }
  }
  return methods as OperationMethods
}

/** Walks the pages of one list or feed operation, yielding items. */
type Paginator = (query?: Record<string, unknown>, options?: RequestOptions) => AsyncIterableIterator<unknown>

/** The feed is walked by cursor: `after` is the last event returned. */
function feedPaginator(send: Send, route: ClientRoute): Paginator {
  return async function* (query = {}, callOptions = {}) {
    let after = query.after
    const limit = query.limit ?? 100
    for (;;) {
      const result = (await send(route, undefined, { ...query, after, limit }, callOptions)) as {
        data: unknown[]
        pagination: { hasNextPage: boolean; nextCursor: string | null }
      }
      yield* result.data
      if (!result.pagination.hasNextPage || result.pagination.nextCursor === null) return
      after = result.pagination.nextCursor
    }
  }
}

/**
 * A list is walked by cursor (docs/extensions.md, section 1): the first request takes the query as
 * given (a `page` or a `cursor` included), every later one the previous page's `nextCursor` and no
 * `page`, so a walk never repeats or skips a record while others are added or changed.
 */
function listPaginator(send: Send, route: ClientRoute): Paginator {
  return async function* (query = {}, callOptions = {}) {
    const { page: _page, cursor: _cursor, ...rest } = query
    let next: Record<string, unknown> = { limit: 100, ...query }
    for (;;) {
      const result = (await send(route, undefined, next, callOptions)) as {
        data: unknown[]
        pagination: { nextCursor: string | null }
      }
      yield* result.data
      const cursor = result.pagination.nextCursor
      if (cursor === null || result.data.length === 0) return
      next = { limit: 100, ...rest, cursor }
    }
  }
}

/** `paginate.*`: a paginator per list and feed operation. */
function paginators(send: Send): Paginators {
  const paginate = {} as Record<ListOperationId | FeedOperationId, Paginator>
  for (const [operationId, route] of Object.entries(CLIENT_ROUTES) as Array<[OperationId, ClientRoute]>) {
    if (route.feed) paginate[operationId as FeedOperationId] = feedPaginator(send, route)
    else if (route.list) paginate[operationId as ListOperationId] = listPaginator(send, route)
  }
  return paginate as Paginators
}

/** {@link Client.tailEvents}: pages of the feed while there are more, then a poll every `intervalMs`. */
async function* followEvents(send: Send, options: TailEventsOptions = {}): AsyncIterableIterator<ItemOf<'listEvents'>> {
  const { signal, types, intervalMs = 5000 } = options
  let after = options.after
  const route = CLIENT_ROUTES.listEvents
  // A function, not the property read inline: TypeScript would narrow it across the awaits.
  const aborted = () => signal?.aborted === true
  while (!aborted()) {
    let page: { data: ItemOf<'listEvents'>[]; pagination: { hasNextPage: boolean; nextCursor: string | null } }
    try {
      page = (await send(route, undefined, { after, types, limit: 100 }, { signal })) as typeof page
    } catch (error) {
      if (isAbort(error, signal)) return
      throw error
    }
    for (const event of page.data) {
      yield event
      after = event.id
      if (aborted()) return
    }
    if (page.pagination.hasNextPage) continue
    try {
      await sleep(intervalMs, signal)
    } catch {
      return // aborted while waiting
    }
  }
}

/**
 * Creates a typed client of the API. Every method is named by its operation id and typed from the
 * same valibot schemas the server validates with; a non-2xx answer throws {@link ApiResponseError}.
 *
 * @example
 * import { createClient, ApiResponseError } from 'tenant-public-api/client'
 *
 * const client = createClient({ baseUrl: 'https://portal.example.com', apiKey: process.env.API_KEY! })
 * const { data: tickets, pagination } = await client.listTickets({ isClosed: false, limit: 10 })
 * const { data: item } = await client.createBudgetLineItem(budgetId, {
 *   type: 'Software',
 *   description: 'IDE seats',
 *   unitPrice: 49,
 *   quantity: 10,
 * })
 * for await (const user of client.paginate.listUsers({ status: 'active' })) console.log(user.email)
 */
export function createClient(options: ClientOptions): Client {
  checkOptions(options, CHECKS, { name: 'createClient', required: ['baseUrl', 'apiKey'] })
  const settings: ClientSettings = {
    options,
    root: options.baseUrl.replace(/\/+$/, '') + (options.basePath ?? '/api/public/v1').replace(/\/+$/, ''),
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retries: options.retries ?? DEFAULT_RETRIES,
    maxDelay: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
  }
  // Async, so a request that cannot be built (a body JSON cannot hold, a bad header) rejects rather than throws.
  const send: Send = async (route, id, input, callOptions = {}) =>
    sendWithRetries(settings, prepareRequest(settings, route, id, input, callOptions))
  return {
    ...operationMethods(send),
    paginate: paginators(send),
    tailEvents: (tailOptions) => followEvents(send, tailOptions),
  }
}
