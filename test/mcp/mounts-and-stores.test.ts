/**
 * The MCP endpoint through the Node and Express mounts with the SDK's client over real sockets, and
 * cross-tenant probes through every tool on every store (docs/mcp.md): a key of tenant A, handed
 * tenant B's ids or listing, gets nothing of B.
 */
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, memoryRateLimiter, operations, type Store } from 'tenant-public-api'
import { toExpressMiddleware } from 'tenant-public-api/express'
import { toNodeHandler } from 'tenant-public-api/node'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { fixtureIds, fixtureSeed } from '../../src/testing/conformance/fixtures.js'
import { addFixtureWebhooks } from '../../src/testing/conformance/webhook-fixtures.js'
import { createTestPostgresStore } from '../support/postgres.js'
import { mcpClient, sampleArguments, type ToolResult } from './support.js'

const A = 'tenant-mcp-a'
const B = 'tenant-mcp-b'

async function seeded(store: Store): Promise<Store> {
  for (const [tenant, fixture] of [
    [A, 'a'],
    [B, 'b'],
  ] as const) {
    const data = fixtureSeed(fixture)
    await store.seed(tenant, data)
    await addFixtureWebhooks(store, tenant, data)
  }
  return store
}

const apiOf = (store: Store) =>
  createPublicApi({
    store,
    keyResolver: testKeyResolver(),
    rateLimiter: memoryRateLimiter({ limit: 100_000 }),
    mcp: true,
    webhooks: { allowInsecureUrls: true },
  })

const servers: Server[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
})

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/public/v1/mcp`
}

describe('MCP through the mounts', () => {
  it('serves tools on the Node mount and the Express mount (with express.json before it)', async () => {
    const api = apiOf(await seeded(createMemoryStore()))
    const app = express()
    app.use(express.json())
    app.use(toExpressMiddleware(api))
    for (const url of [await listen(toNodeHandler(api)), await listen(app)]) {
      const client = await mcpClient(url, testKey(A))
      expect((await client.listTools()).tools).toHaveLength(operations.length)
      const result = (await client.callTool({
        name: 'getGoal',
        arguments: { id: fixtureIds('a').goals[0]! },
      })) as ToolResult
      expect([result.isError, (result.structuredContent?.data as { id?: string } | undefined)?.id]).toEqual([
        false,
        fixtureIds('a').goals[0],
      ])
      await client.close()
    }
  })
})

const STORES: Array<[string, () => Promise<Store>]> = [
  ['memory', async () => createMemoryStore()],
  ['sqlite', async () => createSqliteStore({ filename: ':memory:' })],
  ['postgres', async () => (await createTestPostgresStore()).store],
]

describe.each(STORES)('cross-tenant probes through every tool (%s)', (_name, create) => {
  it('gives a key of A nothing of B: lists hold only A, every id of B is NOT_FOUND', { timeout: 60_000 }, async () => {
    const store = await seeded(await create())
    const api = apiOf(store)
    const client = await mcpClient('http://mcp.test/api/public/v1/mcp', testKey(A), api)
    const idsOfB = fixtureIds('b')
    let probes = 0
    for (const operation of operations) {
      const args = sampleArguments(operation.id, idsOfB)
      const result = (await client.callTool({ name: operation.id, arguments: args })) as ToolResult
      const text = result.content.map((block) => block.text).join('\n')
      // Fixture ids of B start with bbbbbbbb-, its names end with (B) (src/testing/conformance/fixtures.ts).
      expect([operation.id, text.includes('bbbbbbbb-') || text.includes('(B)')]).toEqual([operation.id, false])
      if ('id' in args) expect([operation.id, result.structuredContent?.code]).toEqual([operation.id, 'NOT_FOUND'])
      else expect([operation.id, result.isError]).toEqual([operation.id, false])
      probes++
    }
    expect(probes).toBe(operations.length)
    await client.close()
    await store.close()
  })
})
