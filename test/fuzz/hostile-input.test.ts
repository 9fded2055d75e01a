/**
 * Hostile input against every route of the registry (fast-check). Two properties per operation:
 *
 * 1. anything goes — random query strings (unknown, repeated, badly encoded, huge numbers), random
 *    JSON (wrong types, NaN-ish strings, `1e309`, `-0`, deep nesting, `__proto__`/`constructor`
 *    keys, huge strings), wrong or missing content types, malformed ids: never a 5xx, always the
 *    Error shape with a code for 4xx, always X-Request-Id, always what the document says;
 * 2. malformed by construction — a valid request with one defect injected: always a 4xx, and the
 *    seeded tenant is exactly as it was.
 */
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  createMemoryStore,
  createPublicApi,
  memoryRateLimiter,
  operations,
  type AnyOperation,
  type ErrorBody,
} from 'tenant-public-api'
import { createHarness, testKey, testKeyResolver, type CallResult, type Harness } from 'tenant-public-api/testing'
import { assertMatchesContract } from '../support/contract.js'
import { concretePath, IDS, sampleOf, seedData, snapshot, TENANT } from '../http/fixture.js'
import { keysOf, percentEncode } from './support.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 120)

const RAW_QUERY_TOKENS = [
  '%FF',
  '%E0%A4%A',
  '%E0%A4',
  '%',
  '%zz',
  '%00',
  '%ED%A0%80',
  '1e309',
  '-0',
  '99999999999999999999',
  'NaN',
  '',
  '+',
  '%2B1',
  '0x10',
]

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff',
    '__proto__',
    'constructor',
    'null',
    'true',
    '00000000-0000-4000-8000-00000000dead',
    'x'.repeat(6000),
  ),
)

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, 0, 1e21, -1e21, Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 5e-324, 0.1 + 0.2),
)

/** Random JSON values; `fields` makes objects likely to use the operation's real keys. */
function hostileJson(fields: string[]): fc.Arbitrary<unknown> {
  const key = fc.oneof(
    fc.constantFrom(...fields, '__proto__', 'constructor', 'prototype', 'id', 'tenantId', 'version'),
    fc.string({ maxLength: 8 }),
  )
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      hostileNumber,
      hostileString,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    ),
  }))
  return value
}

/** A JSON body as text: a random value, or one that `JSON.stringify` cannot express. */
function hostileBodyText(fields: string[]): fc.Arbitrary<string | Uint8Array<ArrayBuffer>> {
  const field = fc.constantFrom(...(fields.length > 0 ? fields : ['x']))
  return fc.oneof(
    {
      arbitrary: fc
        .dictionary(fc.constantFrom(...fields, 'extra'), hostileJson(fields), { maxKeys: 6 })
        .map((o) => JSON.stringify(o)),
      weight: 4,
    },
    { arbitrary: hostileJson(fields).map((value) => JSON.stringify(value) ?? 'undefined'), weight: 2 },
    field.chain((f) =>
      fc.constantFrom(
        `{"${f}":1e309}`,
        `{"${f}":-0}`,
        `{"${f}":-1e400}`,
        `{"${f}":NaN}`,
        `{"${f}":"\\ud800"}`,
        `{"${f}":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      ),
    ),
    fc.constantFrom(
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      '',
      '{',
      'null',
      '[]',
      '"x"',
      `${'{"a":'.repeat(20000)}1${'}'.repeat(20000)}`,
    ),
    fc
      .uint8Array({ maxLength: 40 })
      .map((bytes) => new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, ...bytes, 0x22, 0x7d])),
  )
}

function hostileQuery(names: string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    fc.constantFrom(...names, 'bogus', '__proto__', 'constructor', 'page', 'limit'),
    fc.constantFrom(...RAW_QUERY_TOKENS),
    fc.string({ maxLength: 6 }).map(percentEncode),
  )
  const value = fc.oneof(
    fc.constantFrom(...RAW_QUERY_TOKENS),
    hostileString.map(percentEncode),
    fc.integer().map(String),
    fc.constantFrom('true', 'false', 'asc', 'desc', '2025-02-30', IDS.company),
  )
  return fc
    .array(fc.tuple(name, value), { maxLength: 5 })
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([n, v]) => `${n}=${v}`).join('&')}`))
}

const hostileId = fc.oneof(
  fc.constantFrom(
    ...Object.values(IDS),
    'not-a-uuid',
    '%FF',
    '%E0%A4%A',
    '%',
    '%00',
    '..',
    '.',
    '9'.repeat(5000),
    IDS.goal.toUpperCase(),
    `${IDS.goal}%2F..`,
    'T-1001',
  ),
  fc.uuid(),
  fc.string({ maxLength: 10 }).map(percentEncode),
)

const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/jsonx',
    'APPLICATION/JSON',
    '',
  ),
  { nil: undefined },
)

interface Hostile {
  id: string
  query: string
  body?: string | Uint8Array<ArrayBuffer>
  contentType?: string | undefined
  headers: Record<string, string>
}

function hostileRequest(operation: AnyOperation): fc.Arbitrary<Hostile> {
  const header = fc.dictionary(
    fc.constantFrom('if-match', 'idempotency-key', 'x-request-id', 'accept'),
    fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 }),
    { maxKeys: 2 },
  )
  return fc.record({
    id: hostileId,
    query: hostileQuery(keysOf(operation.query)),
    body: operation.body === undefined ? fc.constant(undefined) : hostileBodyText(keysOf(operation.body)),
    contentType,
    headers: header,
  })
}

/** One defect injected into a valid request: each makes the request invalid by construction. */
function malformedRequest(operation: AnyOperation): fc.Arbitrary<{ path: string; body?: string }> {
  const sample = sampleOf(operation)
  const [path, search = ''] = sample.path.split('?')
  const query = search === '' ? [] : search.split('&')
  const bodyFields = keysOf(operation.body)
  const withQuery = (extra: string) => `${path}?${[...query, extra].join('&')}`
  const body = sample.body as Record<string, unknown> | undefined
  const text = (value: unknown) => JSON.stringify(value)
  const unknownName = fc
    .string({ minLength: 1, maxLength: 10 })
    .filter((s) => !keysOf(operation.query).includes(s) && s.trim() === s)

  const defects: Array<fc.Arbitrary<{ path: string; body?: string }>> = [
    unknownName.map((n) => ({ path: withQuery(`${percentEncode(n)}=1`), body: body && text(body) })),
    fc
      .constantFrom('%FF', '%E0%A4%A', '%00', '%ED%A0%80')
      .map((bad) => ({ path: withQuery(`x=${bad}`), body: body && text(body) })),
  ]
  if (keysOf(operation.query).includes('page')) {
    defects.push(
      fc
        .constantFrom('0', '-1', '1.5', '1e3', '', '99999999999999999', 'abc')
        .map((bad) => ({ path: withQuery(`page=${bad}`) })),
    )
    defects.push(fc.constant({ path: withQuery('limit=5&limit=6') }))
  }
  if (body !== undefined) {
    const unknownField = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !bodyFields.includes(k))
    defects.push(
      fc
        .tuple(unknownField, hostileJson(bodyFields))
        .map(([k, value]) => ({ path: sample.path, body: text({ ...body, [k]: value ?? null }) })),
    )
    const field = fc.constantFrom(...bodyFields)
    defects.push(field.map((f) => ({ path: sample.path, body: text({ ...body, [f]: [[{}]] }) })))
    defects.push(
      field.chain((f) =>
        fc
          .constantFrom(`${text(body).slice(0, -1)},"${f}":1e309}`, `${text(body).slice(0, -1)},"${f}":"a\\u0000"}`)
          .map((b) => ({ path: sample.path, body: b })),
      ),
    )
    defects.push(
      fc
        .constantFrom('__proto__', 'constructor')
        .map((k) => ({ path: sample.path, body: `${text(body).slice(0, -1)},"${k}":{"prototype":{"x":1}}}` })),
    )
    defects.push(
      fc.integer({ min: 65, max: 3000 }).map((depth) => ({
        path: sample.path,
        body: `${text(body).slice(0, -1)},"${bodyFields[0]}":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      })),
    )
  }
  if (operation.params !== undefined) {
    // A malformed id (for UUID ids) or an id that no record has: only a 404, never a touched record.
    const bad = ['getTicket', 'getNpsSurvey'].includes(operation.id)
      ? ['%FF', '%E0%A4%A', 'no-such-id']
      : ['not-a-uuid', '%FF', '%E0%A4%A', `${IDS.goal}x`, '00000000-0000-4000-8000-00000000dead']
    defects.push(
      fc
        .constantFrom(...bad)
        .map((id) => ({ path: concretePath(operation, id) + (search ? `?${search}` : ''), body: body && text(body) })),
    )
  }
  return fc.oneof(...defects)
}

let harness: Harness
let store: ReturnType<typeof createMemoryStore>
const failures: unknown[] = []

beforeAll(async () => {
  store = createMemoryStore()
  await store.seed(TENANT, seedData())
  const api = createPublicApi({
    store,
    keyResolver: testKeyResolver(),
    rateLimiter: memoryRateLimiter({ limit: 1e9 }),
    onError: (error) => void failures.push(error),
  })
  harness = createHarness(api, { key: testKey(TENANT), onResponse: assertMatchesContract })
})

function assertWellFormed(result: CallResult<Partial<ErrorBody> | undefined>): void {
  expect(result.status).toBeLessThan(500)
  expect(result.headers.get('x-request-id')).toBeTruthy()
  if (result.status >= 400 && result.request.method !== 'HEAD') {
    expect(typeof result.body?.error).toBe('string')
    expect(typeof result.body?.code).toBe('string')
    expect(result.body?.requestId).toBe(result.headers.get('x-request-id'))
  }
}

describe.each(operations.map((operation) => [operation.id, operation] as const))('%s', (_id, operation) => {
  it('answers hostile requests with a well-formed 2xx/4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest(operation), async (input) => {
        const headers: Record<string, string> = { ...input.headers }
        if (input.contentType !== undefined) headers['content-type'] = input.contentType
        const result = await harness.call<Partial<ErrorBody> | undefined>(
          operation.method,
          concretePath(operation, input.id) + input.query,
          {
            headers,
            ...(input.body === undefined ? {} : { rawBody: input.body }),
          },
        )
        assertWellFormed(result)
      }),
      { numRuns: RUNS },
    )
    expect(failures).toEqual([])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('answers requests malformed by construction with a 4xx and changes no stored data', async () => {
    await fc.assert(
      fc.asyncProperty(malformedRequest(operation), async ({ path, body }) => {
        const before = await snapshot(store)
        const result = await harness.call<Partial<ErrorBody> | undefined>(
          operation.method,
          path,
          body === undefined ? {} : { rawBody: body, headers: { 'content-type': 'application/json' } },
        )
        assertWellFormed(result)
        expect(result.status).toBeGreaterThanOrEqual(400)
        expect(await snapshot(store)).toEqual(before)
      }),
      { numRuns: RUNS },
    )
    expect(failures).toEqual([])
  })
})
