/**
 * The Node and Express mounts of the installed package over real sockets, on the installed Express,
 * and the MCP endpoint through each with the installed MCP SDK's own client.
 */
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import express from 'express'
import { afterAll, describe, expect, it } from 'vitest'
import { toExpressMiddleware } from 'tenant-public-api/express'
import { toNodeHandler } from 'tenant-public-api/node'
import { BASE } from './env.js'
import { runScenario, seededApi, TOKEN } from './scenario.js'

const servers: Server[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
})

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE}`
}

const mounts: Array<[string, () => Promise<string>]> = [
  ['Node (toNodeHandler)', async () => listen(toNodeHandler(await seededApi()))],
  [
    'Express (toExpressMiddleware)',
    async () => {
      const app = express()
      // The host's own parser first: the API still gets its bodies, and its errors stay JSON.
      app.use(express.json())
      app.use(toExpressMiddleware(await seededApi()))
      return listen(app as unknown as RequestListener)
    },
  ],
]

describe.each(mounts)('%s', (_name, serve) => {
  let base: Promise<string> | undefined
  const served = () => (base ??= serve())

  it('serves the scenario', async () => {
    await runScenario(await served())
  })

  it('serves MCP: the SDK client lists the tools and calls listTickets', async () => {
    const client = new Client({ name: 'peer-matrix', version: '1.0.0' })
    const transport = new StreamableHTTPClientTransport(new URL(`${await served()}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    })
    await client.connect(transport)
    try {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toContain('listTickets')
      const result = (await client.callTool({ name: 'listTickets', arguments: { limit: 2 } })) as {
        isError?: boolean
        structuredContent?: { data?: unknown[] }
      }
      expect(result.isError ?? false).toBe(false)
      expect(result.structuredContent?.data).toHaveLength(2)
    } finally {
      await client.close()
    }
  })
})
