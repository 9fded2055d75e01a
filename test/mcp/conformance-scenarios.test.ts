/**
 * The official MCP conformance scenarios for servers (`@modelcontextprotocol/conformance`), run
 * against the endpoint on the Node mount: initialize, ping, tools/list and DNS-rebinding protection
 * (docs/mcp.md). The other server scenarios call tools of the SDK's reference server
 * (`test_error_handling`, ...) or features this endpoint does not offer (resources, prompts, logging,
 * sampling, SSE streams). The CLI sends no key, so this test's mount adds the demo key to a request
 * without one, as a technician's configured client would.
 */
import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toNodeHandler } from 'tenant-public-api/node'
import { createTestApi } from 'tenant-public-api/testing'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../', import.meta.url))
const CLI = `${root}node_modules/@modelcontextprotocol/conformance/dist/index.js`
const NODE20_SHIM = `${root}test/mcp/fixtures/node20-glob-sync.mjs`
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']

let server: Server
let url: string

beforeAll(async () => {
  server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const { api, keys } = await createTestApi({
    apiOptions: { mcp: { allowedOrigins: [`http://localhost:${port}`, `http://127.0.0.1:${port}`] } },
  })
  const handler = toNodeHandler(api)
  server.on('request', (req, res) => {
    if (req.headers.authorization === undefined) req.rawHeaders.push('Authorization', `Bearer ${keys.all}`)
    handler(req, res)
  })
  url = `http://localhost:${port}/api/public/v1/mcp`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('official MCP conformance scenarios', () => {
  for (const scenario of SCENARIOS) {
    it(`passes ${scenario}`, { timeout: 60_000 }, async () => {
      // Async, not spawnSync: the server under test runs in this process.
      const { stdout } = await run(
        process.execPath,
        ['--import', NODE20_SHIM, CLI, 'server', '--url', url, '--scenario', scenario],
        { cwd: root, timeout: 55_000 },
      ).catch((error: { stdout?: string; stderr?: string }) => {
        throw new Error(`conformance ${scenario} failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`)
      })
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(stdout)
      expect(summary, stdout).not.toBeNull()
      const [, passed, total, failed] = summary!.map(Number)
      expect([passed, failed], stdout).toEqual([total, 0])
      expect(total).toBeGreaterThan(0)
    })
  }
})
