/**
 * `createTestApi()`: the whole API in memory, seeded, with keys and a typed client bound to the
 * handler in-process, for a host's own test suite. No port, no database, no key table.
 */
import { createClient, type Client } from '../client/create-client.js'
import { createDemoData, DEMO_TENANT_ID } from '../demo/index.js'
import { createPublicApi, type PublicApiHandler, type PublicApiOptions } from '../create-public-api.js'
import { SCOPES, type RateLimitRule, type Scope } from '../http/auth.js'
import { memoryRateLimiter } from '../http/rate-limit.js'
import { createMemoryStore } from '../stores/memory/memory-store.js'
import type { SeedData } from '../model/seed.js'
import type { Store } from '../ports/store.js'
import { testKey, testKeyResolver } from './keys.js'

/** The origin the in-process client and `request` use; nothing listens on it. */
export const TEST_ORIGIN = 'http://tenant-public-api.test'

/** Options of {@link createTestApi}. */
export interface TestApiOptions {
  /** What to seed into the tenant. Default: the demo data set (`createDemoData()`). Pass `{}` for an empty tenant. */
  data?: SeedData
  /** The scopes of the client's key (and of `request`'s default key). Default: every scope. */
  scopes?: readonly Scope[]
  /** The tenant the data is seeded into and the keys see. Default `DEMO_TENANT_ID`. */
  tenantId?: string
  /** The store to use. Default: a new in-memory store. */
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
  /** The Fetch handler. */
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
  const tenantId = options.tenantId ?? DEMO_TENANT_ID
  const store = options.store ?? createMemoryStore()
  await store.seed(tenantId, options.data ?? createDemoData())
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

  const call = async (request: Request): Promise<Response> => {
    const response = await api(request)
    if (options.onResponse) await options.onResponse(response.clone(), request)
    return response
  }
  const client = createClient({
    baseUrl: TEST_ORIGIN,
    basePath,
    apiKey: clientKey,
    retries: options.retries ?? 0,
    fetch: (input, init) => call(new Request(input, init)),
  })
  const request: TestApi['request'] = (path, init = {}) => {
    const { key, ...rest } = init
    const headers = new Headers(rest.headers)
    const token = key === undefined ? clientKey : key
    if (token !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`)
    return call(new Request(TEST_ORIGIN + basePath + path, { ...rest, headers }))
  }
  return { api, store, client, keys, tenantId, request }
}
