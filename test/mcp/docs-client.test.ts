/**
 * What docs/mcp.md tells a client: the SDK client snippet runs as printed against a served endpoint
 * (its blocks type-check with every doc's: test/docs/ts-blocks.test.ts); a wrong key is what the doc
 * says the SDK's client shows; the tool list's sizes are within 10% of measured.
 */
import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, type Scope } from 'tenant-public-api'
import { nodeServerOptions, toNodeHandler } from 'tenant-public-api/node'
import { createTestApi, testKey, testKeyResolver } from 'tenant-public-api/testing'
import { mcpClient } from './support.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const doc = readFileSync(join(root, 'docs/mcp.md'), 'utf8')
const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!)
const clientSnippet = blocks.find((code) => code.includes('StreamableHTTPClientTransport'))
const DOC_URL = 'https://portal.example/api/public/v1/mcp'

const work = join(root, 'test-output')
mkdirSync(work, { recursive: true })
const base = mkdtempSync(join(work, 'mcp-doc-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))
const run = promisify(execFile)

describe('docs/mcp.md', () => {
  it('runs the SDK client snippet as printed against a served endpoint', { timeout: 60_000 }, async () => {
    const { api, keys } = await createTestApi({ apiOptions: { mcp: true } })
    const server = createServer(nodeServerOptions, toNodeHandler(api)).listen(0, '127.0.0.1')
    await once(server, 'listening')
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/public/v1/mcp`
      expect(clientSnippet, 'the SDK client snippet').toBeDefined()
      expect(clientSnippet).toContain(DOC_URL)
      // The snippet has no type annotations: as printed, it is also an ES module Node runs.
      const file = join(base, 'client-snippet.mjs')
      writeFileSync(file, clientSnippet!.replace(DOC_URL, url))
      const { stdout } = await run(process.execPath, [file], {
        cwd: root,
        env: { ...process.env, PORTAL_API_KEY: keys.all },
        timeout: 50_000,
      })
      expect(stdout).toContain("'listTickets'")
      expect(stdout).toMatch(/data: \[[\s\S]*pagination: \{/)
    } finally {
      server.close()
    }
  })

  it('runs mcp-remote with npx -y (without it npx stops when mcp-remote is not installed)', () => {
    const commands = [...doc.matchAll(/"command": "npx",\s*"args": \[([^\]]*)\]/g)].map((match) => match[1]!)
    expect(commands.length).toBeGreaterThan(0)
    for (const args of commands) expect(args).toMatch(/^"-y", "mcp-remote", /)
    expect(doc).not.toMatch(/npx mcp-remote/)
  })

  it('says what the SDK client shows for a wrong key', async () => {
    const flat = doc.replace(/\s+/g, ' ')
    expect(flat).toContain('`StreamableHTTPError` whose `code` is the HTTP status (401)')
    expect(flat).toContain('`WWW-Authenticate: Bearer realm="api", error="invalid_token"`')
    const api = createPublicApi({ store: createMemoryStore(), keyResolver: testKeyResolver(), mcp: true })
    const error = await mcpClient('http://api.test/api/public/v1/mcp', 'tpa_wrong', api).then(
      () => null,
      (thrown: unknown) => thrown,
    )
    expect(error).toBeInstanceOf(StreamableHTTPError)
    expect((error as StreamableHTTPError).code).toBe(401)
    const { message } = error as Error
    expect(message).toMatch(/^Streamable HTTP error: Error POSTing to endpoint: \{"error":"A valid API key is required/)
    expect(message).toContain('"code":"UNAUTHORIZED"')
    const response = await api(
      new Request('http://api.test/api/public/v1/mcp', {
        method: 'POST',
        headers: { authorization: 'Bearer tpa_wrong', 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      }),
    )
    expect([response.status, response.headers.get('www-authenticate')]).toEqual([
      401,
      'Bearer realm="api", error="invalid_token"',
    ])
  })

  it('states the tool list’s sizes within 10% of measured', async () => {
    const KiB = 1024
    const measure = async (label: string, readOnly: boolean, scopes: readonly Scope[] | '*') => {
      const api = createPublicApi({ store: createMemoryStore(), keyResolver: testKeyResolver(), mcp: { readOnly } })
      const response = await api(
        new Request('http://api.test/api/public/v1/mcp', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${testKey('tenant-a', scopes)}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        }),
      )
      const body = await response.text()
      const { tools } = (JSON.parse(body) as { result: { tools: Array<{ outputSchema: unknown }> } }).result
      const schemas = tools.reduce((sum, tool) => sum + Buffer.byteLength(JSON.stringify(tool.outputSchema)), 0)
      return { label, tools: tools.length, bytes: Buffer.byteLength(body), schemas }
    }
    const measured = [
      await measure('every scope', false, '*'),
      await measure('every scope, `readOnly: true`', true, '*'),
      await measure('`tickets.read` only', false, ['tickets.read']),
    ]
    const rows = measured.map(
      ({ label, tools, bytes, schemas }) =>
        `| ${label} | ${tools} | ${Math.round(bytes / KiB)} KiB | ${Math.round(schemas / KiB)} KiB |`,
    )
    const stale = `docs/mcp.md's tool list sizes are stale; its rows should be:\n${rows.join('\n')}`
    const table = doc
      .slice(doc.indexOf('### The size of the tool list\n'))
      .split('\n')
      .filter((line) => /^\| .+ \| \d+ \| \d+ KiB \| \d+ KiB \|$/.test(line))
    expect(table.length, stale).toBe(measured.length)
    table.forEach((line, i) => {
      const [label, tools, bytes, schemas] = line.slice(2, -2).split(' | ')
      const row = measured[i]!
      expect([label, Number(tools)], stale).toEqual([row.label, row.tools])
      for (const [stated, actual] of [
        [bytes, row.bytes],
        [schemas, row.schemas],
      ] as const) {
        expect(Math.abs(Number.parseInt(stated!, 10) * KiB - actual) / actual, stale).toBeLessThanOrEqual(0.1)
      }
    })
  })
})
