/**
 * A child process for the MCP answer-memory test: serves the API with `mcp: true` (the default
 * answer budget) through the Node mount on a memory store holding events of about 600 KB of
 * backslashes and quotes, made with API writes; then 8 clients each send one batch of 10
 * `listEvents` calls and never read. Prints the RSS after a garbage collection before the clients,
 * the peak, the RSS while the answers are held, and after the clients left.
 * The package as built into dist/ (the tests' global setup builds it), Node mount included.
 * Run with `node --expose-gc --import tsx test/mcp/answer-memory-worker.ts '{}'`.
 */
import { createServer } from 'node:http'
import { connect, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { createMemoryStore, createPublicApi, memoryRateLimiter } from 'tenant-public-api'
import { toNodeHandler } from 'tenant-public-api/node'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'

const RULE = {
  name: 'r',
  triggerType: 'scheduled',
  triggerConfig: { cron: '0 * * * *' },
  entityType: 'ticket',
  actions: [],
}
const CLIENTS = 8
const CALLS = 10
const gc = () => (globalThis as { gc?: () => void }).gc?.()
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let answered = 0
const api = createPublicApi({
  store: createMemoryStore(),
  keyResolver: testKeyResolver(),
  rateLimiter: memoryRateLimiter({ limit: 1_000_000 }),
  mcp: true,
  onResponse: (event) => {
    if (event.route?.endsWith('/mcp') && event.tool === undefined) answered++
  },
})
const authorization = `Bearer ${testKey('tenant-memory', ['automation.write', 'events.read'])}`
for (let n = 0; n < 4; n++) {
  const value = (n % 2 === 0 ? '\\"' : '"\\').repeat(150_000)
  const body = { ...RULE, conditions: [{ logic: 'AND', conditions: [{ field: 'f', operator: 'eq', value }] }] }
  const response = await api(
    new Request('http://x/api/public/v1/automation', {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )
  if (response.status !== 201) throw new Error(`POST /automation answered ${response.status}`)
}

const server = createServer(toNodeHandler(api))
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const { port } = server.address() as AddressInfo
const batch = JSON.stringify(
  Array.from({ length: CALLS }, (_, id) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'listEvents', arguments: { limit: 100 } },
  })),
)
const request =
  'POST /api/public/v1/mcp HTTP/1.1\r\nhost: x\r\n' +
  `authorization: ${authorization}\r\naccept: application/json, text/event-stream\r\n` +
  `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(batch)}\r\n\r\n${batch}`

gc()
const baseline = process.memoryUsage().rss
const sockets: Socket[] = []
for (let i = 0; i < CLIENTS; i++) {
  const socket = connect(port, '127.0.0.1')
  // Never read: what the server writes stays with it (and the kernel's buffers).
  socket.pause()
  socket.write(request)
  sockets.push(socket)
}
for (let waited = 0; answered < CLIENTS && waited < 60_000; waited += 50) await settle(50)
await settle(500)
gc()
const held = process.memoryUsage().rss
for (const socket of sockets) socket.destroy()
await settle(500)
gc()
const left = process.memoryUsage().rss
const peak = process.resourceUsage().maxRSS * 1024
server.close()
console.log(JSON.stringify({ baseline, peak, held, left, answered }))
