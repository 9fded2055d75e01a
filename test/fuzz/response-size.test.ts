/**
 * The answer never outgrows the question (fast-check). For every route of the registry, requests
 * built to provoke as many problems as they can — long arrays of junk where the schema has arrays,
 * groups full of bad conditions, objects with thousands of keys, long keys and strings that JSON
 * escapes six bytes to the character, hundreds of unknown query parameters — are answered with at
 * most twice the request's bytes plus 16 KiB; an error is never over 64 KiB nor lists more than
 * 100 problems and the entry that counts the rest.
 *
 * Every run asks a store freshly seeded with the fixture. A read answers with stored records, not
 * with the request, so the bound holds for reads only while what is stored is fixed: on one shared
 * store, earlier runs' successful writes stayed (a report update with a 2,000-character description
 * of characters JSON escapes to six bytes), each recorded an event holding the record and the values
 * it replaced, and `listEvents`' first page of 25 once reached 162 KB (ten such updates: 165 KB).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, memoryRateLimiter, operations, type AnyOperation } from 'tenant-public-api'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { assertMatchesContract } from '../support/contract.js'
import { BASE, ORIGIN, sampleOf, seedData, TENANT } from '../http/fixture.js'
import { keysOf, percentEncode } from './support.js'

const RUNS = Math.max(10, Math.floor(Number(process.env.FUZZ_RUNS ?? 120) / 4))
const SLACK_BYTES = 16 * 1024
const MAX_ERROR_BYTES = 64 * 1024

/** Values that fail most schemas, some of them shaped like what the schema wants. */
const junk = fc.constantFrom<unknown>(
  0,
  '',
  null,
  true,
  {},
  [],
  'not-a-uuid',
  '\u0001\u0001',
  { logic: 'XOR' },
  { logic: 'AND', conditions: [0, 0], groups: [0] },
  { field: '', operator: 7 },
  { actionType: 5, bogus: 1 },
)

/** `n` copies of one value. */
const many = <T>(item: fc.Arbitrary<T>, max: number) =>
  fc.tuple(item, fc.nat({ max })).map(([value, n]) => Array.from({ length: n }, () => value))

/** A string that costs many bytes once echoed: long, or made of characters JSON escapes. */
const costlyText = fc
  .tuple(fc.constantFrom('k', '\u0001', '"', 'é', '😀', '\ud800'), fc.integer({ min: 1, max: 400 }))
  .map(([unit, n]) => unit.repeat(n))

const bulk: fc.Arbitrary<unknown> = fc.oneof(
  many(junk, 5000),
  fc.array(junk, { maxLength: 300 }),
  // Groups within the top-level cap, each full of invalid conditions.
  fc
    .tuple(many(junk, 300), fc.nat({ max: 250 }))
    .map(([conditions, n]) => Array.from({ length: n }, () => ({ logic: 'AND', conditions, groups: [] }))),
  fc
    .tuple(costlyText, fc.nat({ max: 600 }), junk)
    .map(([prefix, n, value]) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, value]))),
  fc.tuple(costlyText, fc.nat({ max: 100 })).map(([text, n]) => text.repeat(n)),
)

function bulkBody(operation: AnyOperation): fc.Arbitrary<string | undefined> {
  if (operation.body === undefined) return fc.constant(undefined)
  const sample = sampleOf(operation).body as Record<string, unknown>
  const field = fc.oneof(fc.constantFrom(...keysOf(operation.body)), costlyText)
  return fc
    .array(fc.tuple(field, bulk), { minLength: 1, maxLength: 3 })
    .map((entries) => JSON.stringify({ ...sample, ...Object.fromEntries(entries) }))
}

function bulkQuery(operation: AnyOperation): fc.Arbitrary<string> {
  const name = fc.oneof(
    fc.constantFrom(...keysOf(operation.query), 'bogus', 'page', 'limit'),
    costlyText.map(percentEncode),
    fc.nat().map((n) => `p${n}`),
  )
  const value = fc.oneof(fc.constantFrom('', '0', 'x', '%FF', 'true'), costlyText.map(percentEncode))
  return fc
    .array(fc.tuple(name, value), { maxLength: 400 })
    .map((pairs) => pairs.map(([n, v]) => `${n}=${v}`).join('&'))
}

const failures: unknown[] = []

/** An API over a new store holding only the fixture, so that no run sees another's writes. */
async function freshApi(): Promise<(request: Request) => Promise<Response>> {
  const store = createMemoryStore()
  await store.seed(TENANT, seedData())
  return createPublicApi({
    store,
    keyResolver: testKeyResolver(),
    rateLimiter: memoryRateLimiter({ limit: 1e9 }),
    onError: (error) => void failures.push(error),
  })
}

const utf8 = (text: string) => new TextEncoder().encode(text).byteLength

describe.each(operations.map((operation) => [operation.id, operation] as const))('%s', (_id, operation) => {
  it('answers with at most twice the request plus 16 KiB; errors stay within 64 KiB', async () => {
    const [path, search = ''] = sampleOf(operation).path.split('?')
    await fc.assert(
      fc.asyncProperty(bulkQuery(operation), bulkBody(operation), async (query, body) => {
        const url = `${ORIGIN}${BASE}${path}?${[search, query].filter(Boolean).join('&')}`
        const headers: Record<string, string> = { authorization: `Bearer ${testKey(TENANT)}` }
        if (body !== undefined) headers['content-type'] = 'application/json'
        const request = new Request(url, { method: operation.method, headers, body: body ?? null })
        const api = await freshApi()
        const response = await api(request.clone())
        const text = await response.text()
        const requestBytes =
          utf8(request.url) +
          (body === undefined ? 0 : utf8(body)) +
          Object.entries(headers).reduce((sum, [k, v]) => sum + k.length + v.length, 0)
        const responseBytes = utf8(text)
        const parsed = text === '' ? undefined : JSON.parse(text)
        assertMatchesContract({ status: response.status, headers: response.headers, body: parsed, request })
        expect(response.status).toBeLessThan(500)
        expect(responseBytes).toBeLessThanOrEqual(2 * requestBytes + SLACK_BYTES)
        if (response.status >= 400) expect(responseBytes).toBeLessThanOrEqual(MAX_ERROR_BYTES)
        if (parsed?.code === 'VALIDATION_ERROR') {
          // Query and body problems are capped together: 100, then the entry counting the rest.
          expect(parsed.details.length).toBeLessThanOrEqual(101)
        }
      }),
      { numRuns: RUNS },
    )
    expect(failures).toEqual([])
  })
})
