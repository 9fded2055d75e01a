/**
 * `tenant-public-api serve` (and `npm start`, which runs it) as a newcomer runs it: start it in an
 * empty folder, run the three curl lines it prints exactly as printed and point the SDK's MCP client
 * at the MCP line it prints; Ctrl-C stops it (exit 0); restarted through `npm start`'s command on
 * the same SQLite file it keeps the data and does not seed it twice; a second start beside a running
 * one stops with advice, leaving the running one's key alone; a key made by `keys create` on the
 * same file reads through it; `--store memory` keeps nothing.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { operations } from 'tenant-public-api'
import { afterAll, describe, expect, it } from 'vitest'
import { getJson, killServers, printedKey, root, runCli, scratchFolder, startServe, stopWith } from './support.js'

const { dir, remove } = scratchFolder('serve')
afterAll(() => {
  killServers()
  remove()
})

/** `npm start`'s command (package.json `scripts.start`), run from the repository's tsx. */
function npmStartCommand(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }
  const [tsx, file, command] = scripts.start!.split(' ')
  expect([tsx, command]).toEqual(['tsx', 'serve'])
  // tsx as the repository has it, whatever folder the command runs in.
  return [
    process.execPath,
    '--import',
    pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href,
    join(root, file!),
  ]
}

/** Runs one printed curl line through a shell, as a user pasting it would, adding the status code. */
function curl(line: string): { status: number; body: any } {
  const out = execFileSync('bash', ['-c', `${line} -w '\\n%{http_code}'`], { encoding: 'utf8' })
  const split = out.lastIndexOf('\n')
  return { status: Number(out.slice(split + 1)), body: JSON.parse(out.slice(0, split)) }
}

describe('tenant-public-api serve (npm start)', () => {
  let lines: string[] = []
  let createdId = ''
  const database = join(dir, 'tenant-public-api.db')

  it('prints the URL, its default SQLite file, a demo key and three curl lines that work as printed', async () => {
    const { child, banner, curlLines } = await startServe(['--port', '0'], { cwd: dir })
    expect(banner).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/api\/public\/v1 \(store: SQLite file /)
    expect(banner).toContain(`(store: SQLite file ${database})\nThe data stays in ${database} (the default store;`)
    expect(existsSync(database)).toBe(true)
    expect(banner).toMatch(/Demo key \(every scope\): tpa_[0-9A-Za-z]{38}\n/)
    lines = curlLines
    expect(lines).toHaveLength(3)

    const list = curl(lines[0]!)
    expect(list.status).toBe(200)
    expect(list.body.data).toHaveLength(5)
    expect(list.body.data.every((t: { isClosed: boolean }) => !t.isClosed)).toBe(true)

    const ticket = curl(lines[1]!)
    expect(ticket.status).toBe(200)
    expect(ticket.body.data.notes.length).toBeGreaterThan(0)

    const item = curl(lines[2]!)
    expect(item.status).toBe(201)
    expect(item.body.data).toMatchObject({ type: 'Software', annualisedCost: 2160, status: 'draft' })
    createdId = item.body.data.id

    // The MCP line, as `claude mcp add` reads it: the endpoint and the header with the demo key.
    const mcpLine = /^MCP for AI agents: claude mcp add --transport http demo (\S+) --header '([^:]+): ([^']+)'$/m
    const mcp = mcpLine.exec(banner)
    expect(mcp).not.toBeNull()
    const client = new Client({ name: 'cli-serve-test', version: '1.0.0' })
    const headers = { [mcp![2]!]: mcp![3]! }
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp![1]!), { requestInit: { headers } }))
    expect((await client.listTools()).tools).toHaveLength(operations.length)
    const result = await client.callTool({ name: 'listTickets', arguments: { limit: 2, isClosed: false } })
    expect(result.isError).toBe(false)
    expect((result.structuredContent as { data: unknown[] }).data).toHaveLength(2)
    await client.close()

    // Ctrl-C: it says so, closes the store and exits 0.
    const output: string[] = []
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    expect(await stopWith(child, 'SIGINT')).toBe(0)
    expect(output.join('')).toBe('Stopping...\n')
  }, 120_000)

  it('npm start keeps its SQLite file, does not seed it twice and revokes the previous key', async () => {
    const served = await startServe(['--port', '0'], { cwd: dir, command: npmStartCommand() })
    const { base, key } = served
    expect(served.banner).not.toContain('Seeding')
    const budgetId = /budgets\/([0-9a-f-]{36})\/items/.exec(lines[2]!)![1]!
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const budget = await fetch(`${base}/budgets/${budgetId}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ notes: 'persisted?' }),
    })
    const body = (await budget.json()) as { data: { lineItems: Array<{ id: string }> } }
    expect(budget.status).toBe(200)
    expect(body.data.lineItems.filter((item) => item.id === createdId)).toHaveLength(1)
    const previous = /Bearer (\S+)'/.exec(lines[0]!)![1]!
    expect(previous).not.toBe(key)
    expect((await getJson(`${base}/tickets?limit=1`, previous)).status).toBe(401)
    expect((await getJson(`${base}/tickets?limit=1`, key)).body.pagination.totalCount).toBe(10_000)

    // A second start on the running one's port says what to do and exits 1, with no stack and the
    // running server's key untouched.
    const { port } = new URL(base)
    const second = await runCli(['serve', '--port', port], { cwd: dir })
    expect(second.code).toBe(1)
    expect(second.stdout).toBe('')
    expect(second.stderr.trim()).toBe(
      `Port ${port} on 127.0.0.1 is in use (another tenant-public-api serve?). Stop that server, or start on ` +
        `another port: --port ${Number(port) + 1} (--port 0 picks a free one).`,
    )
    expect((await getJson(`${base}/tickets?limit=1`, key)).status).toBe(200)

    // A key made by `keys create` on the same file, while it runs, reads through it.
    const made = await runCli(
      ['keys', 'create', '--store', 'sqlite:tenant-public-api.db', '--tenant', 'tenant_harborline_demo'],
      { cwd: dir },
    )
    expect((await getJson(`${base}/companies?limit=2`, printedKey(made.stdout))).body.data).toHaveLength(2)
    expect(await stopWith(served.child, 'SIGTERM')).toBe(0)
  }, 120_000)

  it('cuts off a client that never finishes its headers after nodeServerOptions.headersTimeout', async () => {
    const served = await startServe(['--port', '0', '--store', 'memory'], { cwd: dir })
    expect(served.banner).toContain('(store: memory (nothing is kept after it stops))')
    const { hostname, port } = new URL(served.base)
    // 10 s, checked every second, not Node's default 60 s.
    const socket = connect(Number(port), hostname)
    socket.on('error', () => undefined)
    await new Promise((resolve) => socket.once('connect', resolve))
    const started = Date.now()
    socket.write('GET /api/public/v1/tickets HTTP/1.1\r\nHost: x\r\nX-Slow: ')
    const dripping = setInterval(() => socket.write('a'), 1_000)
    let answer = ''
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()))
    await new Promise((resolve) => socket.once('close', resolve))
    clearInterval(dripping)
    const closedAfter = Date.now() - started
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
    expect(closedAfter).toBeGreaterThanOrEqual(9_000)
    expect(closedAfter).toBeLessThan(20_000)
    expect(await stopWith(served.child)).toBe(0)
  }, 60_000)
})
