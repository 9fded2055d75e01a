/**
 * `npm start` as a newcomer runs it: start the example server, run the three curl lines it prints
 * exactly as printed and point the SDK's MCP client at the MCP line it prints, then restart it on
 * the same SQLite file and see the data persisted; a second start beside a running one stops with
 * advice, leaving the running one's key alone.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { connect } from 'node:net'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { operations } from 'tenant-public-api'
import { afterAll, describe, expect, it } from 'vitest'

const dir = mkdtempSync(join(tmpdir(), 'tpa-node-server-'))
const database = join(dir, 'demo.db')
const children: ChildProcess[] = []

function spawnExample(port: string): ChildProcess {
  // The example's SQLite file is what is tested: a DATABASE_URL the test run was given would pick Postgres.
  const { DATABASE_URL: _postgres, ...env } = process.env
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/node-server/server.ts'], {
    env: { ...env, PORT: port, DEMO_DB: database },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  return child
}

/** Starts the example and resolves with its banner once the last curl line is printed. */
function start(): Promise<{ child: ChildProcess; banner: string }> {
  const child = spawnExample('0')
  return new Promise((resolve, reject) => {
    let banner = ''
    let errors = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      banner += chunk.toString()
      if ((banner.match(/^curl /gm) ?? []).length === 3) resolve({ child, banner })
    })
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()))
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${errors}`)))
  })
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

/** Runs one printed curl line through a shell, as a user pasting it would, adding the status code. */
function curl(line: string): { status: number; body: any } {
  const out = execFileSync('bash', ['-c', `${line} -w '\\n%{http_code}'`], { encoding: 'utf8' })
  const split = out.lastIndexOf('\n')
  return { status: Number(out.slice(split + 1)), body: JSON.parse(out.slice(0, split)) }
}

afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

describe('examples/node-server (npm start)', () => {
  let lines: string[] = []
  let createdId = ''

  it('prints the URL, a demo key and three curl lines that work as printed', async () => {
    const { child, banner } = await start()
    expect(banner).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/api\/public\/v1 \(store: SQLite /)
    expect(banner).toMatch(/Demo key \(every scope\): tpa_[0-9A-Za-z]{38}\n/)
    lines = banner.split('\n').filter((line) => line.startsWith('curl '))
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
    const client = new Client({ name: 'node-server-test', version: '1.0.0' })
    const headers = { [mcp![2]!]: mcp![3]! }
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp![1]!), { requestInit: { headers } }))
    expect((await client.listTools()).tools).toHaveLength(operations.length)
    const result = await client.callTool({ name: 'listTickets', arguments: { limit: 2, isClosed: false } })
    expect(result.isError).toBe(false)
    expect((result.structuredContent as { data: unknown[] }).data).toHaveLength(2)
    await client.close()
    await stop(child)
  }, 120_000)

  it('keeps its SQLite file across restarts and does not seed it twice', async () => {
    const { child, banner } = await start()
    const base = /listening on (\S+)/.exec(banner)![1]!
    const key = /Demo key \(every scope\): (\S+)/.exec(banner)![1]!
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
    // Each start makes a new demo key and revokes the previous run's.
    const previous = /Bearer (\S+)'/.exec(lines[0]!)![1]!
    expect(previous).not.toBe(key)
    expect((await fetch(`${base}/tickets?limit=1`, { headers: { authorization: `Bearer ${previous}` } })).status).toBe(
      401,
    )
    const tickets = (await (await fetch(`${base}/tickets?limit=1`, { headers })).json()) as {
      pagination: { totalCount: number }
    }
    expect(tickets.pagination.totalCount).toBe(10_000)

    // A second start on the running one's port says what to do and exits 1, with no stack and the
    // running server's key untouched.
    const { port } = new URL(base)
    const second = spawnExample(port)
    let output = ''
    second.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    second.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const code = await new Promise((resolve) => second.once('exit', resolve))
    expect(code).toBe(1)
    expect(output.trim()).toBe(
      `Port ${port} on 127.0.0.1 is in use (another npm start?). Stop that server, or start on another port: ` +
        `PORT=${Number(port) + 1} npm start (PORT=0 picks a free one).`,
    )
    expect((await fetch(`${base}/tickets?limit=1`, { headers })).status).toBe(200)

    // A client that never finishes its headers is cut off after nodeServerOptions.headersTimeout
    // (10 s, checked every second), not after Node's default 60 s.
    const socket = connect(Number(port), new URL(base).hostname)
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
    await stop(child)
  }, 120_000)
})
