/**
 * The MCP endpoint through the Fetch handler (docs/mcp.md), with the SDK's own client: tools per key
 * and per `readOnly`, every tool called on the demo tenant, tool errors in the Error shape, rate
 * limits, idempotent replays, Origin and body bounds, and what onResponse is told.
 */
import { describe, expect, it } from 'vitest'
import {
  createPublicApi,
  memoryRateLimiter,
  operations,
  StoreUnavailableError,
  type ResponseEvent,
} from 'tenant-public-api'
import { createMemoryStore } from 'tenant-public-api'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { fixtureIds, fixtureSeed } from '../../src/testing/conformance/fixtures.js'
import { addFixtureWebhooks } from '../../src/testing/conformance/webhook-fixtures.js'
import { mcpTools } from '../../src/mcp/tools.js'
import { mcpClient, mcpPost, sampleArguments, type ToolResult } from './support.js'

const URL_ = 'http://mcp.test/api/public/v1/mcp'
const TENANT = 'tenant-mcp'

async function setup(options: { mcp?: Parameters<typeof createPublicApi>[0]['mcp']; limit?: number } = {}) {
  const store = createMemoryStore()
  const data = fixtureSeed('a')
  await store.seed(TENANT, data)
  await addFixtureWebhooks(store, TENANT, data)
  const events: ResponseEvent[] = []
  const api = createPublicApi({
    store,
    keyResolver: testKeyResolver(options.limit ? { rateLimit: { limit: options.limit, windowMs: 60_000 } } : {}),
    rateLimiter: memoryRateLimiter({ limit: 10_000 }),
    mcp: options.mcp ?? true,
    onResponse: (event) => {
      events.push(event)
    },
  })
  return { api, store, events }
}

const post = (api: (r: Request) => Promise<Response>, body: unknown, headers: Record<string, string> = {}) =>
  mcpPost(api, URL_, testKey(TENANT), body, headers)

describe('MCP endpoint (Fetch handler)', () => {
  it('negotiates the current protocol revision and the previous one', async () => {
    const { api } = await setup()
    for (const version of ['2025-11-25', '2025-06-18']) {
      const response = await post(api, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
      })
      const body = (await response.json()) as { result: { protocolVersion: string; capabilities: object } }
      expect(body.result.protocolVersion).toBe(version)
      expect(body.result.capabilities).toEqual({ tools: { listChanged: false } })
    }
  })

  it('lists every tool to a full key, each with its schemas and annotations', async () => {
    const { api } = await setup()
    const client = await mcpClient(URL_, testKey(TENANT), api)
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(operations.map((operation) => operation.id))
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    expect(byName.get('getTicket')!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true })
    expect(byName.get('deleteTrainingEnrollment')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    })
    expect(byName.get('createBudgetLineItem')!.inputSchema.properties).toHaveProperty('idempotencyKey')
    expect(byName.get('createBudgetLineItem')!.inputSchema.required).toEqual(
      expect.arrayContaining(['id', 'type', 'description', 'unitPrice']),
    )
    expect(byName.get('listTickets')!.inputSchema.properties).toHaveProperty('cursor')
    await client.close()
  })

  it('lists only what the key’s scopes allow, and only read tools with readOnly', async () => {
    const { api } = await setup()
    const one = await mcpClient(URL_, testKey(TENANT, ['tickets.read']), api)
    expect((await one.listTools()).tools.map((tool) => tool.name)).toEqual(['listTickets', 'getTicket'])
    const readOnly = await setup({ mcp: { readOnly: true } })
    const reader = await mcpClient(URL_, testKey(TENANT), readOnly.api)
    const names = (await reader.listTools()).tools.map((tool) => tool.name)
    expect(names).toEqual(operations.filter((operation) => operation.method === 'GET').map((operation) => operation.id))
    await expect(reader.callTool({ name: 'updateBudget', arguments: { id: 'x', title: 'y' } })).rejects.toThrow(
      /Unknown tool/,
    )
  })

  it('pages tools/list with nextCursor', async () => {
    const { api } = await setup({ mcp: { toolsPageSize: 10 } })
    const client = await mcpClient(URL_, testKey(TENANT), api)
    const names: string[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor })
      names.push(...page.tools.map((tool) => tool.name))
      cursor = page.nextCursor
      pages++
    } while (cursor !== undefined)
    expect([pages, names]).toEqual([3, operations.map((operation) => operation.id)])
    await expect(client.listTools({ cursor: 'nope' })).rejects.toThrow(/Invalid cursor/)
  })

  it('calls every tool on the fixture tenant, each answering its REST body', async () => {
    const { api } = await setup()
    const client = await mcpClient(URL_, testKey(TENANT), api)
    const ids = fixtureIds('a')
    // Deletes last: the endpoint and enrollment they remove are read by the tools before them.
    const order = [...operations].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
    for (const operation of order) {
      const result = (await client.callTool({
        name: operation.id,
        arguments: sampleArguments(operation.id, ids),
      })) as ToolResult
      expect([operation.id, result.isError]).toEqual([operation.id, false])
      expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent)
    }
  })

  it('answers API errors as tool errors in the Error shape', async () => {
    const { api } = await setup()
    const client = await mcpClient(URL_, testKey(TENANT, ['tickets.read']), api)
    const invalid = (await client.callTool({ name: 'listTickets', arguments: { limit: 'x' } })) as ToolResult
    expect([invalid.isError, invalid.structuredContent?.code]).toEqual([true, 'VALIDATION_ERROR'])
    expect(invalid.structuredContent?.details).toEqual([expect.objectContaining({ in: 'query', path: 'limit' })])
    const scope = (await client.callTool({ name: 'listUsers', arguments: {} })) as ToolResult
    expect(scope.structuredContent).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { requiredScopes: ['users.read'] },
    })
    const other = (await client.callTool({
      name: 'getTicket',
      arguments: { id: fixtureIds('b').tickets[0]! },
    })) as ToolResult
    expect([other.isError, other.structuredContent?.code]).toEqual([true, 'NOT_FOUND'])
    await expect(client.callTool({ name: 'getTicket', arguments: {} })).rejects.toThrow(/Argument id is required/)
  })

  it('counts the MCP POST, not its tool call again: past the budget the POST is the REST 429', async () => {
    const { api } = await setup({ limit: 3 })
    const client = await mcpClient(URL_, testKey(TENANT), api)
    // initialize and its notification count one each; the call counts once, as its POST.
    const result = (await client.callTool({ name: 'listCompanies', arguments: {} })) as ToolResult
    expect(result.isError).toBe(false)
    await expect(client.callTool({ name: 'listCompanies', arguments: {} })).rejects.toThrow(/RATE_LIMITED/)
  })

  it('answers a 503 of a tool call as a tool error with the seconds to wait', async () => {
    const store = createMemoryStore()
    await store.seed(TENANT, fixtureSeed('a'))
    const down = new Proxy(store, {
      get: (target, name, receiver) =>
        name === 'list'
          ? () => Promise.reject(new StoreUnavailableError(new Error('gone')))
          : Reflect.get(target, name, receiver),
    })
    const api = createPublicApi({ store: down, keyResolver: testKeyResolver(), mcp: true, onError: () => {} })
    const client = await mcpClient(URL_, testKey(TENANT), api)
    const result = (await client.callTool({ name: 'listCompanies', arguments: {} })) as ToolResult
    expect(result.structuredContent?.code).toBe('SERVICE_UNAVAILABLE')
    expect(result._meta?.['tenant-public-api/retryAfter']).toBe(1)
    expect(result.content[1]?.text).toBe('Retry after 1 seconds.')
  })

  it('replays a write with the same idempotencyKey', async () => {
    const { api } = await setup()
    const client = await mcpClient(URL_, testKey(TENANT), api)
    const args = { ...sampleArguments('createBudgetLineItem', fixtureIds('a')), idempotencyKey: 'mcp-retry-1' }
    const first = (await client.callTool({ name: 'createBudgetLineItem', arguments: args })) as ToolResult
    const again = (await client.callTool({ name: 'createBudgetLineItem', arguments: args })) as ToolResult
    expect(first.isError).toBe(false)
    expect(again.structuredContent).toEqual(first.structuredContent)
    const changed = (await client.callTool({
      name: 'createBudgetLineItem',
      arguments: { ...args, description: 'Another' },
    })) as ToolResult
    expect(changed.structuredContent?.code).toBe('IDEMPOTENCY_KEY_REUSED')
  })

  it('refuses a foreign Origin, a missing key, and bodies past the REST bounds', async () => {
    const { api } = await setup({ mcp: { allowedOrigins: ['https://portal.example'] } })
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' }
    const foreign = await post(api, ping, { origin: 'https://evil.example' })
    expect([foreign.status, ((await foreign.json()) as { code: string }).code]).toEqual([403, 'ORIGIN_NOT_ALLOWED'])
    expect((await post(api, ping, { origin: 'https://portal.example' })).status).toBe(200)
    expect((await post(api, ping, { authorization: '' })).status).toBe(401)
    const large = await post(api, { ...ping, params: { pad: 'x'.repeat(1024 * 1024) } })
    expect([large.status, ((await large.json()) as { code: string }).code]).toEqual([413, 'PAYLOAD_TOO_LARGE'])
    const deep = await post(api, `{"jsonrpc":"2.0","id":1,"method":"ping","params":${'['.repeat(80)}${']'.repeat(80)}}`)
    expect(deep.status).toBe(400)
    const get = await api(new Request(URL_, { headers: { authorization: `Bearer ${testKey(TENANT)}` } }))
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST, OPTIONS'])
  })

  it('serves no MCP without the option', async () => {
    const api = createPublicApi({ store: createMemoryStore(), keyResolver: testKeyResolver() })
    expect((await post(api, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(404)
  })

  it('tells onResponse about the MCP request and the tool call, naming the tool', async () => {
    const { api, events } = await setup()
    const response = await post(api, {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'listCompanies', arguments: { limit: 1 } },
    })
    const body = (await response.json()) as { id: number; result: ToolResult }
    expect([body.id, body.result.isError]).toEqual([7, false])
    const requestId = response.headers.get('x-request-id')
    expect(events.map((event) => [event.route, event.operationId, event.tool, event.requestId === requestId])).toEqual([
      ['/api/public/v1/companies', 'listCompanies', 'listCompanies', true],
      ['/api/public/v1/mcp', null, undefined, true],
    ])
  })

  it('resolves the key once per MCP request: its tool call is served as that principal', async () => {
    const store = createMemoryStore()
    await store.seed(TENANT, fixtureSeed('a'))
    const resolve = testKeyResolver()
    const tokens: string[] = []
    const api = createPublicApi({
      store,
      keyResolver: (token, request) => {
        tokens.push(token)
        return resolve(token, request)
      },
      mcp: true,
    })
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'listCompanies', arguments: {} } }
    const body = (await (await post(api, call)).json()) as { result: ToolResult }
    expect([body.result.isError, tokens]).toEqual([false, [testKey(TENANT)]])
    // The scopes that apply are still the key's: the call is checked as its operation.
    const narrow = await post(api, call, { authorization: `Bearer ${testKey(TENANT, ['tickets.read'])}` })
    const refused = (await narrow.json()) as { result: ToolResult }
    expect(refused.result.structuredContent?.code).toBe('INSUFFICIENT_SCOPE')
    expect(tokens).toHaveLength(2)
  })

  it('writes tools/list as ASCII text: characters past ASCII are escaped, not lost', async () => {
    const { api } = await setup()
    const text = await (await post(api, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).text()
    expect(text).toMatch(/^[\x20-\x7e]*$/)
    const definitions = mcpTools().map((tool) => tool.definition)
    // The registry's texts hold characters past ASCII (a dash), so the escaping is exercised.
    expect(JSON.stringify(definitions)).toMatch(/[^\x20-\x7e]/)
    expect((JSON.parse(text) as { result: { tools: unknown } }).result.tools).toEqual(definitions)
  })

  it('hands onError the MCP request for a failure inside a tool call, and says nothing of it', async () => {
    const store = createMemoryStore()
    await store.seed(TENANT, fixtureSeed('a'))
    const failing = new Proxy(store, {
      get: (target, name, receiver) =>
        name === 'list' ? () => Promise.reject(new Error('disk on fire')) : Reflect.get(target, name, receiver),
    })
    const seen: { error: unknown; request: Request }[] = []
    const api = createPublicApi({
      store: failing,
      keyResolver: testKeyResolver(),
      mcp: true,
      onError: (error, { request }) => {
        seen.push({ error, request })
      },
    })
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'listCompanies', arguments: {} } }
    const text = await (await post(api, call)).text()
    const { result } = JSON.parse(text) as { result: ToolResult }
    expect([result.isError, result.structuredContent?.code]).toEqual([true, 'INTERNAL_ERROR'])
    expect(text).not.toContain('disk on fire')
    expect(seen.map(({ error, request }) => [(error as Error).message, request.method, request.url])).toEqual([
      ['disk on fire', 'POST', URL_],
    ])
    expect(seen[0]!.request).toBeInstanceOf(Request)
  })
})
