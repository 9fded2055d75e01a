/**
 * The README's complete host app runs as printed: its block, written to a file inside the repository
 * (so `tenant-public-api` resolves to the package itself, dist/ as the test run built it), started with
 * tsx on a free port, answers the README's curl request with the company it seeded.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const folder = join(root, 'test-output', `readme-app-${process.pid}`)
let child: ChildProcess | undefined

afterAll(() => {
  child?.kill('SIGKILL')
  rmSync(folder, { recursive: true, force: true })
})

/** The first `ts` block after `heading`, and the first `sh` block after that. */
function blocksAfter(heading: string): { app: string; curl: string } {
  const section = readme.slice(readme.indexOf(heading))
  const found = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)]
  const app = found.find((m) => m[1] === 'ts')?.[2]
  const curl = found.find((m) => m[1] === 'sh')?.[2]
  if (app === undefined || curl === undefined) throw new Error(`README.md: no ts and sh blocks after ${heading}`)
  return { app, curl }
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise((done) => server.close(done))
  return port
}

describe('README.md, A complete host app', () => {
  it('runs as printed and answers its curl line', { timeout: 60_000 }, async () => {
    const { app, curl } = blocksAfter('## A complete host app')
    expect(app).toContain('.listen(3000')
    const port = await freePort()
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'server.ts'), app.replace('.listen(3000', `.listen(${port}`))
    writeFileSync(join(folder, 'package.json'), '{ "type": "module", "private": true }\n')
    const tsx = join(root, 'node_modules/tsx/dist/cli.mjs')
    child = spawn(process.execPath, [tsx, 'server.ts'], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
    await expect.poll(() => output, { timeout: 30_000, interval: 100 }).toContain('http://127.0.0.1:')
    const [, key, path] = /Bearer ([^']+)' http:\/\/127\.0\.0\.1:3000(\S+)/.exec(curl) ?? []
    expect([key, path]).toEqual(['demo-key', '/api/public/v1/companies'])
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${key}` } })
    const body = (await response.json()) as { data: Array<{ name: string }>; pagination: { totalCount: number } }
    expect([response.status, body.data.map((company) => company.name), body.pagination.totalCount]).toEqual([
      200,
      ['Acme'],
      1,
    ])
  })
})
