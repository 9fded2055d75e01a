/**
 * Counting (docs/mcp.md#counting): every JSON-RPC message of an MCP POST counts one request of the
 * key's and the tenant's budgets, whatever it is, before any runs; a POST its budgets do not cover is
 * refused whole with the REST 429 and its headers, spending nothing; a tool call is not counted again
 * as its REST request. And batches (docs/mcp.md#batches) and the JSON-RPC details of the endpoint.
 */
import { describe, expect, it } from 'vitest'
import {
  createMemoryStore,
  createPublicApi,
  memoryRateLimiter,
  type RateLimiter,
  type RateLimitRule,
  type ResponseEvent,
} from 'tenant-public-api'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { fixtureIds, fixtureSeed } from '../../src/testing/conformance/fixtures.js'
import { mcpPost, sampleArguments } from './support.js'

const URL_ = 'http://mcp.test/api/public/v1/mcp'
const TENANT = 'tenant-mcp-counting'

interface Options {
  limit?: number
  tenantRateLimit?: RateLimitRule
  rateLimiter?: RateLimiter
}

async function setup(options: Options = {}) {
  const store = createMemoryStore()
  await store.seed(TENANT, fixtureSeed('a'))
  const events: ResponseEvent[] = []
  const api = createPublicApi({
    store,
    keyResolver: testKeyResolver({ rateLimit: { limit: options.limit ?? 1000, windowMs: 60_000 } }),
    rateLimiter: options.rateLimiter ?? memoryRateLimiter(),
    tenantRateLimit: options.tenantRateLimit,
    mcp: true,
    onResponse: (event) => {
      events.push(event)
    },
  })
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    mcpPost(api, URL_, testKey(TENANT), body, headers)
  return { api, post, events, store }
}

const remaining = (response: Response) => Number(response.headers.get('x-ratelimit-remaining'))
const call = (id: number | undefined, name: unknown, args: unknown = {}) => ({
  jsonrpc: '2.0',
  ...(id === undefined ? {} : { id }),
  method: 'tools/call',
  params: { name, arguments: args },
})
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' })
const CURRENT = { 'mcp-protocol-version': '2025-11-25' }

describe('counting every message of an MCP POST', () => {
  it('counts each message, whatever it is, and a tool call once', async () => {
    const { post, events } = await setup({ limit: 20 })
    const lone = await post(call(1, 'listCompanies'), CURRENT)
    expect([lone.status, remaining(lone)]).toEqual([200, 19])
    // Its tool call ran as its REST request, reporting the MCP request's count, not counting again.
    const toolEvent = events.find((event) => event.tool === 'listCompanies')!
    expect(toolEvent.status).toBe(200)
    expect(remaining(await post(ping(2), CURRENT))).toBe(18)
    const batch = await post([
      call(3, 'noSuchTool'),
      call(4, 'listCompanies', 5),
      call(undefined, 'listCompanies'),
      ping(5),
      { jsonrpc: '2.0', id: 6, method: 'tools/list' },
      { jsonrpc: '2.0', id: 7, method: 'no/such/method' },
    ])
    expect([batch.status, remaining(batch)]).toEqual([200, 12])
    const answers = (await batch.json()) as Array<{ id: number; error?: { code: number } }>
    // The notification answers nothing; every request is answered, in order.
    expect(answers.map((answer) => [answer.id, answer.error?.code])).toEqual([
      [3, -32602],
      [4, -32602],
      [5, undefined],
      [6, undefined],
      [7, -32601],
    ])
    expect(remaining(await post({ jsonrpc: '2.0', method: 'notifications/initialized' }))).toBe(11)
  })

  it('refuses a POST its budget does not cover whole: the REST 429 and headers, nothing run or spent', async () => {
    const { post, events } = await setup({ limit: 5 })
    expect(remaining(await post([ping(1), ping(2), ping(3)]))).toBe(2)
    const write = call(4, 'createBudgetLineItem', sampleArguments('createBudgetLineItem', fixtureIds('a')))
    const refused = await post([write, ping(5), ping(6)])
    expect(refused.status).toBe(429)
    expect((await refused.json()) as { code: string }).toMatchObject({ code: 'RATE_LIMITED' })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect([refused.headers.get('x-ratelimit-limit'), remaining(refused)]).toEqual(['5', 2])
    expect(refused.headers.get('ratelimit-policy')).toBe('"key";q=5;w=60')
    expect(refused.headers.get('ratelimit')).toMatch(/^"key";r=2;t=\d+$/)
    expect(events.some((event) => event.tool !== undefined)).toBe(false)
    // What was left is still there.
    const after = await post([ping(7), ping(8)])
    expect([after.status, remaining(after)]).toEqual([200, 0])
    expect((await post(ping(9))).status).toBe(429)
  })

  it("counts against the tenant's budget too", async () => {
    const { post } = await setup({ tenantRateLimit: { limit: 3, windowMs: 30_000 } })
    expect((await post([ping(1), ping(2)])).status).toBe(200)
    const refused = await post([ping(3), ping(4)])
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { error: string }).error).toMatch(/tenant/)
    expect(refused.headers.get('ratelimit-policy')).toBe('"tenant";q=3;w=30')
    expect((await post(ping(5))).status).toBe(200)
  })

  it('asks a limiter that does not count a cost once per message, up to its first refusal', async () => {
    const memory = memoryRateLimiter()
    const asked: string[] = []
    const rateLimiter: RateLimiter = {
      consume: (key, rule) => {
        asked.push(key)
        return memory.consume(key, rule)
      },
    }
    const { post } = await setup({ limit: 4, rateLimiter })
    expect((await post([ping(1), ping(2), ping(3)])).status).toBe(200)
    expect(asked).toHaveLength(3)
    const refused = await post([ping(4), ping(5), ping(6)])
    expect([refused.status, asked.length]).toEqual([429, 5])
  })
})

describe('batches', () => {
  it('are a JSON-RPC error from revision 2025-06-18 on, counted as one request, running nothing', async () => {
    const { post, events } = await setup({ limit: 10 })
    for (const version of ['2025-06-18', '2025-11-25']) {
      const response = await post([call(1, 'listCompanies'), ping(2)], { 'mcp-protocol-version': version })
      const body = (await response.json()) as { id: null; error: { code: number; message: string } }
      expect([response.status, body.id, body.error.code]).toEqual([400, null, -32600])
      expect(body.error.message).toContain(version)
    }
    expect(events.some((event) => event.tool !== undefined)).toBe(false)
    expect(remaining(await post(ping(3)))).toBe(7)
  })

  it('hold at most 10 messages with an older revision or none (2025-03-26 assumed), never initialize', async () => {
    const { post } = await setup()
    const ten = Array.from({ length: 10 }, (_, i) => ping(i))
    for (const headers of [{}, { 'mcp-protocol-version': '2025-03-26' }] as Record<string, string>[]) {
      const answered = await post(ten, headers)
      expect([answered.status, ((await answered.json()) as unknown[]).length]).toEqual([200, 10])
    }
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }
    for (const [batch, message] of [
      [[...ten, ping(10)], 'at most 10 messages'],
      [[], 'must not be empty'],
      [[initialize, ping(2)], 'initialize must not be part of a batch'],
    ] as const) {
      const refused = await post(batch)
      const body = (await refused.json()) as { error: { code: number; message: string } }
      expect([refused.status, body.error.code]).toEqual([400, -32600])
      expect(body.error.message).toContain(message)
    }
    const notifications = await post([call(undefined, 'listCompanies'), { jsonrpc: '2.0', method: 'x/y' }])
    expect([notifications.status, await notifications.text()]).toEqual([202, ''])
  })
})

describe('JSON-RPC details', () => {
  it('answers initialize with invalid params -32602, without a validation dump', async () => {
    const { post } = await setup()
    for (const params of [undefined, { protocolVersion: 5 }, { protocolVersion: '2025-06-18' }]) {
      const response = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', ...(params ? { params } : {}) })
      const body = (await response.json()) as { id: number; error: { code: number; message: string } }
      expect([response.status, body.id, body.error.code]).toEqual([200, 1, -32602])
      expect(body.error.message).not.toContain('invalid_type')
    }
  })

  it('cuts short what an error repeats: a long MCP-Protocol-Version, a long id, a long tool name', async () => {
    const { post } = await setup()
    const version = await post(ping(1), { 'mcp-protocol-version': 'v'.repeat(8192) })
    const text = await version.text()
    expect(version.status).toBe(400)
    expect(text.length).toBeLessThan(400)
    expect(text).toContain(`${'v'.repeat(40)}…`)
    const id = await post({ jsonrpc: '2.0', id: 'i'.repeat(101), method: 'ping' })
    const idText = await id.text()
    expect([id.status, idText.length < 300]).toEqual([400, true])
    const name = await post(call(2, 'n'.repeat(5000)), CURRENT)
    expect((await name.text()).length).toBeLessThan(400)
    expect((await post({ jsonrpc: '2.0', id: 'i'.repeat(100), method: 'ping' })).status).toBe(200)
  })
})
