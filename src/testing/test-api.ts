/**
 * `createTestApi()`: the whole API in memory, seeded, with keys and a typed client bound to the
 * handler in-process, for a host's own test suite. No port, no database, no key table.
 *
 * Cheap per instance and per request (docs/client-and-testing.md, "What it costs"):
 * - the demo tenant is seeded once per process, into a store no caller sees, and each instance
 *   gets a fork of it (forkMemoryTenant: the frozen records are shared, each collection's maps
 *   until the instance's first write there), so instances never see each other's writes;
 * - the requests `client` and `request` make carry a reply factory (ARCHITECTURE.md, "A request,
 *   end to end"), so their answers are the Node bridge's lightweight `Response`: still a
 *   `Response`, read by `text()` and `json()` from the body string, the native one built only if
 *   another member is used.
 */
import { createClient, type Client } from '../client/create-client.js'
import { createDemoData, DEMO_TENANT_ID } from '../demo/index.js'
import * as v from 'valibot'
import {
  createPublicApi,
  PUBLIC_API_CHECKS,
  type PublicApiHandler,
  type PublicApiOptions,
} from '../create-public-api.js'
import { SCOPES, type RateLimitRule, type Scope } from '../http/auth.js'
import { RateLimitRuleSchema } from '../http/principal.js'
import { memoryRateLimiter } from '../http/rate-limit.js'
import { MAKE_REPLY, type ReplyParts } from '../http/reply.js'
import { createMemoryStore, forkMemoryTenant, type MemoryStore } from '../stores/memory/memory-store.js'
import { checkOptions, is, nested, type OptionChecks } from '../model/options.js'
import type { SeedData } from '../model/seed.js'
import type { Store } from '../ports/store.js'
import { makeLightweightResponse, replyParts } from '../../adapters/node-bridge/lightweight-response.js'
import { testKey, testKeyResolver } from './keys.js'

/** The origin the in-process client and `request` use; nothing listens on it. */
export const TEST_ORIGIN = 'http://tenant-public-api.test'

/** Options of {@link createTestApi}. */
export interface TestApiOptions {
  /**
   * What to seed into the tenant. Default: the demo data set (`createDemoData()`), seeded once per
   * process and forked for each instance (its events are those of that one seeding, made when the
   * first instance was). Pass `{}` for an empty tenant.
   */
  data?: SeedData
  /** The scopes of the client's key (and of `request`'s default key). Default: every scope. */
  scopes?: readonly Scope[]
  /** The tenant the data is seeded into and the keys see. Default `DEMO_TENANT_ID`. */
  tenantId?: string
  /** The store to use (the data is seeded into it). Default: a new in-memory store. */
  store?: Store
  /** A per-key rate limit, to provoke 429s. Default: 10 000 requests per minute, which tests never hit. */
  rateLimit?: RateLimitRule
  /** Sees every request and response that `client` and `request` make (the response is a clone). */
  onResponse?: (response: Response, request: Request) => void | Promise<void>
  /** Passed to `createPublicApi`. */
  basePath?: string
  /** Passed to the client: retries after 429/503. Default 0, so that a test sees every error at once. */
  retries?: number
  /** Further options of `createPublicApi` (`maxBodyBytes`, `onError`, ...). */
  apiOptions?: Partial<Omit<PublicApiOptions, 'store' | 'keyResolver' | 'basePath'>>
}

type ApiOptions = NonNullable<TestApiOptions['apiOptions']>
/** `createPublicApi`'s own checks, but for the options the kit sets itself. */
const API_OPTION_CHECKS = Object.fromEntries(
  Object.entries(PUBLIC_API_CHECKS).filter(([name]) => !['store', 'keyResolver', 'basePath'].includes(name)),
) as OptionChecks<ApiOptions>

/** What each option must be, checked before anything is seeded (src/model/options.ts). */
const CHECKS: OptionChecks<TestApiOptions> = {
  data: is.object,
  scopes: (value) =>
    Array.isArray(value) && value.every((scope) => (SCOPES as readonly unknown[]).includes(scope))
      ? undefined
      : `must be an array of scopes (${SCOPES.join(', ')})`,
  tenantId: is.string,
  store: (value) => (typeof (value as { seed?: unknown } | null)?.seed === 'function' ? undefined : 'must be a store'),
  rateLimit: (value) =>
    v.is(RateLimitRuleSchema, value) ? undefined : 'must be { limit, windowMs } of positive integers',
  onResponse: is.function,
  basePath: is.string,
  retries: is.integer(0),
  apiOptions: nested(API_OPTION_CHECKS, 'apiOptions'),
}

/** Ready-made API keys of the test tenant. */
export interface TestKeys {
  /** Every scope. */
  all: string
  /** Every `.read` scope and nothing else. */
  readOnly: string
  /** A key of another tenant with every scope: it must never see this tenant's data. */
  otherTenant: string
  /** A key of the test tenant with exactly `scopes`. */
  for(scopes: readonly Scope[]): string
}

/** What {@link createTestApi} returns. */
export interface TestApi {
  /** The Fetch handler. Called directly, it answers a native `Response`, as it does any host. */
  api: PublicApiHandler
  /** The store behind it (seed more with `store.seed(tenantId, data)`). */
  store: Store
  /** A typed client bound to `api` in-process. */
  client: Client
  keys: TestKeys
  tenantId: string
  /**
   * Sends a request to `api`: `path` is relative to the base path, the key defaults to the
   * client's; pass `key: null` for none.
   */
  request(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>
}

/**
 * Creates an in-memory API seeded with demo data, keys for every scope set and a typed client.
 *
 * @example
 * import { createTestApi } from 'tenant-public-api/testing'
 *
 * const { client, keys, request } = await createTestApi()
 * const { data } = await client.listTickets({ limit: 5 })
 * expect((await request('/tickets', { key: keys.for(['users.read']) })).status).toBe(403)
 */
export async function createTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  checkOptions(options, CHECKS, { name: 'createTestApi' })
  const tenantId = options.tenantId ?? DEMO_TENANT_ID
  const store = await storeOf(options, tenantId)
  const basePath = options.basePath ?? '/api/public/v1'
  const api = createPublicApi({
    rateLimiter: memoryRateLimiter({ limit: 10_000, windowMs: 60_000 }),
    ...options.apiOptions,
    store,
    basePath,
    keyResolver: testKeyResolver(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
  })
  const keys: TestKeys = {
    all: testKey(tenantId),
    readOnly: testKey(
      tenantId,
      SCOPES.filter((scope) => scope.endsWith('.read')),
    ),
    otherTenant: testKey(`${tenantId}-other`),
    for: (scopes) => testKey(tenantId, scopes),
  }
  const clientKey = options.scopes ? keys.for(options.scopes) : keys.all

  const onResponse = options.onResponse
  const call = async (request: Request): Promise<Response> => {
    const response = await api(request)
    if (onResponse !== undefined) await onResponse(copyOf(response), request)
    return response
  }
  const client = createClient({
    baseUrl: TEST_ORIGIN,
    basePath,
    apiKey: clientKey,
    retries: options.retries ?? 0,
    fetch: (input, init) => call(new TestRequest(input, init)),
  })
  const request: TestApi['request'] = (path, init = {}) => {
    const { key, ...rest } = init
    const headers = new Headers(rest.headers)
    const token = key === undefined ? clientKey : key
    if (token !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`)
    return call(new TestRequest(TEST_ORIGIN + basePath + path, { ...rest, headers }))
  }
  return { api, store, client, keys, tenantId, request }
}

/** The store of a new test API: a fork of the process's demo tenant, unless the options name data or a store. */
async function storeOf(options: TestApiOptions, tenantId: string): Promise<Store> {
  if (options.data === undefined && options.store === undefined)
    return forkMemoryTenant(await demoTenant(), DEMO_TENANT_ID, tenantId)
  const store = options.store ?? createMemoryStore()
  await store.seed(tenantId, options.data ?? createDemoData())
  return store
}

/** The demo tenant, seeded once per process into a store that is only ever forked, never written. */
let demoStore: Promise<MemoryStore> | undefined

function demoTenant(): Promise<MemoryStore> {
  demoStore ??= (async () => {
    const store = createMemoryStore()
    await store.seed(DEMO_TENANT_ID, createDemoData())
    return store
  })().catch((error: unknown) => {
    demoStore = undefined
    throw error
  })
  return demoStore
}

/**
 * The requests of `client` and `request`: native `Request`s carrying the reply factory the API
 * looks for (src/http/reply.ts), on the prototype, so that nothing is written to an instance.
 */
class TestRequest extends Request {
  [MAKE_REPLY](parts: ReplyParts): Response {
    return makeLightweightResponse(parts)
  }
}

/** A second response with `response`'s status, headers and body, for `onResponse`, leaving `response` unread. */
function copyOf(response: Response): Response {
  const parts = replyParts(response)
  if (parts === undefined) return response.clone()
  return makeLightweightResponse({ ...parts, headers: { ...parts.headers } })
}
