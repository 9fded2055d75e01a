/**
 * No argument value makes a 500 (docs/mcp.md, "A tool call is a request"): every tool of the
 * registry, called with hostile values in every argument of its input schema, with extra keys and
 * with `arguments` of the wrong type, on every store, answers a JSON-RPC error, a tool result (an
 * error in the Error shape when it failed) or the REST refusal of the HTTP request, and `onError`
 * is never called. Header arguments (`ifMatch`, `idempotencyKey`) follow the document's patterns and
 * are refused after the scope check.
 */
import { describe, expect, it } from 'vitest'
import {
  createMemoryStore,
  createPublicApi,
  memoryRateLimiter,
  type PublicApiHandler,
  type Store,
} from 'tenant-public-api'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { mcpTools } from '../../src/mcp/tools.js'
import { REQUEST_HEADERS } from '../../src/http/request-headers.js'
import { fixtureIds, fixtureSeed } from '../../src/testing/conformance/fixtures.js'
import { addFixtureWebhooks } from '../../src/testing/conformance/webhook-fixtures.js'
import { createTestPostgresStore } from '../support/postgres.js'
import { sampleArguments } from './support.js'

const TENANT = 'tenant-hostile'
const URL_ = 'http://mcp.test/api/public/v1/mcp'
/** The default `maxBodyBytes`: a string this long cannot fit in an MCP POST with its envelope. */
const MAX_BODY_BYTES = 1024 * 1024

/** Hostile values, each put in every argument of every tool in turn. */
const HOSTILE: ReadonlyArray<readonly [string, unknown]> = [
  ['CR/LF', 'a\r\nX-Injected: 1'],
  ['LF alone', '\n'],
  ['NUL', 'a\u0000b'],
  ['Latin-1', '"1"\u00e9'],
  ['past U+00FF', '\u0100 \u4e2d \ud83d\ude00'],
  ['lone high surrogate', '\ud800'],
  ['lone low surrogate', 'x\udc00'],
  ['1 MB string', 'x'.repeat(1_000_000)],
  ['empty string', ''],
  ['number', -1.5],
  ['huge number', 1e300],
  ['boolean', true],
  ['null', null],
  ['array', ['\r\n', 1, null]],
  ['object', { a: { b: ['\u4e2d'] } }],
]

/** Keys no tool has, with hostile names. */
const EXTRA_KEYS = { 'bogus\r\nX-Injected': 'x', 'Idempotency-Key': '\u4e2d', ünïcode: 1 }

interface Answer {
  status: number
  body: Record<string, unknown>
}

async function post(api: PublicApiHandler, key: string, message: unknown): Promise<Answer> {
  const response = await api(
    new Request(URL_, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      body: JSON.stringify(message),
    }),
  )
  return { status: response.status, body: JSON.parse(await response.text()) as Record<string, unknown> }
}

let nextId = 1
const call = (api: PublicApiHandler, key: string, name: string, args: unknown) =>
  post(api, key, { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } })

/** The Error shape of the REST API: `error`, `code`, `requestId`, and `details` when there are some. */
function expectErrorShape(what: string, body: Record<string, unknown> | undefined): void {
  expect([what, typeof body?.error, typeof body?.code, typeof body?.requestId]).toEqual([
    what,
    'string',
    'string',
    'string',
  ])
}

/**
 * A clear answer: the REST refusal of the HTTP request (4xx, Error shape), a JSON-RPC invalid-params
 * error, or a tool result whose REST status is not 5xx, in the Error shape when it is an error.
 */
function expectClearAnswer(what: string, answer: Answer): void {
  if (answer.status !== 200) {
    expect([what, answer.status >= 400 && answer.status < 500]).toEqual([what, true])
    expectErrorShape(what, answer.body)
    return
  }
  const error = answer.body.error as { code: number } | undefined
  if (error !== undefined) {
    expect([what, error.code]).toEqual([what, -32602])
    return
  }
  const result = answer.body.result as {
    isError: boolean
    structuredContent: Record<string, unknown>
    _meta: Record<string, number>
  }
  const status = result._meta['tenant-public-api/status']!
  expect([what, status < 500, result.isError === status >= 400]).toEqual([what, true, true])
  if (result.isError) expectErrorShape(what, result.structuredContent)
}

async function seeded(store: Store): Promise<Store> {
  const data = fixtureSeed('a')
  await store.seed(TENANT, data)
  await addFixtureWebhooks(store, TENANT, data)
  return store
}

function apiOf(store: Store, errors: unknown[]): PublicApiHandler {
  return createPublicApi({
    store,
    keyResolver: testKeyResolver(),
    rateLimiter: memoryRateLimiter({ limit: 1_000_000 }),
    mcp: true,
    webhooks: { allowInsecureUrls: true },
    onError: (error) => {
      errors.push(error)
    },
  })
}

const STORES: Array<[string, () => Promise<Store>]> = [
  ['memory', async () => createMemoryStore()],
  ['sqlite', async () => createSqliteStore({ filename: ':memory:' })],
  ['postgres', async () => (await createTestPostgresStore()).store],
]

describe.each(STORES)('hostile tool arguments (%s)', (_name, create) => {
  it('every argument of every tool, extra keys and wrong types: no 500, no onError', { timeout: 120_000 }, async () => {
    const store = await seeded(await create())
    const errors: unknown[] = []
    const api = apiOf(store, errors)
    const key = testKey(TENANT)
    const ids = fixtureIds('a')
    let calls = 0
    for (const tool of mcpTools()) {
      const name = tool.definition.name
      const sample = sampleArguments(name, ids)
      const properties = Object.keys((tool.definition.inputSchema as { properties: object }).properties)
      for (const argument of properties) {
        for (const [label, value] of HOSTILE) {
          const what = `${name}.${argument} = ${label}`
          expectClearAnswer(what, await call(api, key, name, { ...sample, [argument]: value }))
          expect([what, errors.length]).toEqual([what, 0])
          calls++
        }
      }
      expectClearAnswer(`${name} extra keys`, await call(api, key, name, { ...sample, ...EXTRA_KEYS }))
      for (const args of ['{}', [sample], 7, false]) {
        const answer = await call(api, key, name, args)
        expect([name, args, (answer.body.error as { code?: number } | undefined)?.code]).toEqual([name, args, -32602])
      }
      // A string past maxBodyBytes: the MCP POST is refused whole, 413 in the Error shape.
      const tooLarge = await call(api, key, name, { ...sample, [properties[0]!]: 'x'.repeat(MAX_BODY_BYTES) })
      expect([name, tooLarge.status, tooLarge.body.code]).toEqual([name, 413, 'PAYLOAD_TOO_LARGE'])
      // The path and the query: CR/LF and characters past U+00FF are percent-encoded into the request,
      // so an id holding them is an unknown id, and a query parameter named with them an unknown one.
      const codeOf = (answer: Answer) =>
        (answer.body.result as { structuredContent: { code?: string } }).structuredContent.code
      for (const id of tool.route.path)
        expect([name, codeOf(await call(api, key, name, { ...sample, [id]: 'a\r\n\u4e2d' }))]).toEqual([
          name,
          'NOT_FOUND',
        ])
      if (!tool.route.body) {
        const unknown = await call(api, key, name, { ...sample, 'x\r\nX-Injected: 1': '\u4e2d\r\n' })
        const details = (unknown.body.result as { structuredContent: { details?: unknown } }).structuredContent.details
        expect([name, codeOf(unknown), details]).toEqual([
          name,
          'VALIDATION_ERROR',
          [{ in: 'query', path: 'x\r\nX-Injected: 1', message: 'Unknown query parameter' }],
        ])
      }
      calls += 6
    }
    expect(calls).toBeGreaterThan(mcpTools().length * HOSTILE.length)
    expect(errors).toEqual([])
    await store.close()
  })

  it('a header argument outside its pattern is a 400 tool error after the scope check', async () => {
    const store = await seeded(await create())
    const errors: unknown[] = []
    const api = apiOf(store, errors)
    const ids = fixtureIds('a')
    let checked = 0
    for (const tool of mcpTools()) {
      const name = tool.definition.name
      // The tool's header arguments (idempotencyKey → Idempotency-Key, ifMatch → If-Match), as its route sends them.
      for (const [argument, headerName] of tool.route.headers) {
        const header = REQUEST_HEADERS.find((each) => each.name === headerName)!
        expect([name, header.readBy(tool.operation)]).toEqual([name, true])
        for (const value of ['1\r\n', '\u0100', '"1"\n\n{}']) {
          const args = { ...sampleArguments(name, ids), [argument]: value }
          // A key without the tool's scope gets its 403 first, as a REST request with that header would.
          const unscoped = await call(api, testKey(TENANT, ['tickets.read']), name, args)
          const denied = (unscoped.body.result as { structuredContent: { code: string } }).structuredContent
          expect([name, denied.code]).toEqual([name, 'INSUFFICIENT_SCOPE'])
          const answer = await call(api, testKey(TENANT), name, args)
          const result = answer.body.result as {
            isError: boolean
            structuredContent: { code: string; details: unknown }
            _meta: Record<string, number>
          }
          expect([
            name,
            result.isError,
            result._meta['tenant-public-api/status'],
            result.structuredContent.code,
          ]).toEqual([name, true, 400, 'VALIDATION_ERROR'])
          expect(result.structuredContent.details).toEqual([
            { in: 'header', path: header.name, message: header.message },
          ])
          checked++
        }
      }
    }
    // updateAutomationRule and updateReport take If-Match, createBudgetLineItem takes Idempotency-Key.
    expect(checked).toBeGreaterThanOrEqual(9)
    expect(errors).toEqual([])
    await store.close()
  })
})
