/**
 * `npm run bench api-keys`: a busy key through `createApiKeys(store).keyResolver`, on the memory
 * store and on SQLite, against a baseline resolver that knows one fixed token (a string compare:
 * what a resolver costs when it does no work), both measured in this process in alternating
 * rounds. Then the same through the whole API (`GET /tickets?limit=1`). A counting wrapper around
 * the store prints how many key reads and writes the measured requests made: one read per
 * `cacheTtlMs` and one `lastUsedAt` write per minute, never one per request.
 */
import { createApiKeys, createMemoryStore, createPublicApi, memoryRateLimiter, SCOPES } from 'tenant-public-api'
import type { KeyResolver, Principal, Store } from 'tenant-public-api'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createDemoData, DEMO_TENANT_ID } from 'tenant-public-api/testing'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const RESOLVES = 100_000
const REQUESTS = 20_000

/** `store` with every call counted by method name. */
function counting(store: Store): { store: Store; calls: Map<string, number> } {
  const calls = new Map<string, number>()
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        calls.set(String(property), (calls.get(String(property)) ?? 0) + 1)
        return value.apply(target, args)
      }
    },
  })
  return { store: wrapped, calls }
}

/** Calls per second of `run(i)` over `n` sequential calls. */
async function rate(n: number, run: (i: number) => Promise<unknown>): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < n; i++) await run(i)
  return n / ((performance.now() - started) / 1000)
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

async function part(label: string, base: Store): Promise<void> {
  await base.seed(DEMO_TENANT_ID, createDemoData({ tickets: 1_000 }))
  const { store, calls } = counting(base)
  const keys = createApiKeys(store)
  const { key, apiKey } = await keys.create({ tenantId: DEMO_TENANT_ID, name: 'bench', scopes: [...SCOPES] })
  const principal: Principal = {
    tenantId: DEMO_TENANT_ID,
    keyId: apiKey.id,
    scopes: [...SCOPES],
    actor: { id: apiKey.id, name: apiKey.name },
  }
  const fixed: KeyResolver = (token) => (token === key ? principal : null)
  const request = () =>
    new Request('http://bench/api/public/v1/tickets?limit=1', { headers: { authorization: `Bearer ${key}` } })
  const rateLimiter = () => memoryRateLimiter({ limit: 1_000_000_000, windowMs: 60_000 })
  const withKeys = createPublicApi({ store, keyResolver: keys.keyResolver, rateLimiter: rateLimiter() })
  const withFixed = createPublicApi({ store, keyResolver: fixed, rateLimiter: rateLimiter() })
  const dummy = new Request('http://bench/')

  // Warm-up, then count only the measured calls.
  await rate(5_000, () => Promise.resolve(keys.keyResolver(key, dummy)))
  await rate(1_000, () => withKeys(request()))
  calls.clear()
  const resolver: number[] = []
  const api: number[] = []
  let resolves = 0
  let requests = 0
  const started = Date.now()
  for (let round = 0; round < ROUNDS; round++) {
    const baseline = await rate(RESOLVES, () => Promise.resolve(fixed(key, dummy)))
    const measured = await rate(RESOLVES, () => Promise.resolve(keys.keyResolver(key, dummy)))
    resolver.push(measured / baseline)
    const apiBaseline = await rate(REQUESTS, () => withFixed(request()))
    const apiMeasured = await rate(REQUESTS, () => withKeys(request()))
    api.push(apiMeasured / apiBaseline)
    resolves += RESOLVES
    requests += REQUESTS
    console.log(
      `  round ${round + 1}: resolver ${fmt(measured)}/s vs fixed ${fmt(baseline)}/s; ` +
        `API ${fmt(apiMeasured)} req/s vs ${fmt(apiBaseline)} req/s`,
    )
  }
  const seconds = (Date.now() - started) / 1000
  const read = (calls.get('findApiKeyByHash') ?? 0) + (calls.get('getApiKey') ?? 0)
  console.log(
    `${label}: keyResolver / fixed resolver ${median(resolver).toFixed(2)}x, ` +
      `API with createApiKeys / with fixed resolver ${median(api).toFixed(2)}x (medians of ${ROUNDS} rounds)`,
  )
  console.log(
    `${label}: ${fmt(resolves + requests)} resolutions of one key in ${seconds.toFixed(1)} s: ` +
      `${read} store reads of keys, ${calls.get('updateApiKey') ?? 0} lastUsedAt writes`,
  )
  await base.close()
}

await part('memory', createMemoryStore())
await part('sqlite', await createSqliteStore({ filename: ':memory:' }))
