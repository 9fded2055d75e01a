/**
 * The CLI from the package alone, as an npm user gets it: the tarball `npm pack` makes of this
 * build, installed into an empty app (its dependencies from the npm cache or registry, its optional
 * peers not at all). `npx tenant-public-api --help` works; `serve` on its default SQLite store says
 * which peers to install; `serve --store memory` needs none and its curl line reads a page; with the
 * SQLite peers added (linked from this repository's node_modules) `keys create` works on a file.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packedOf } from '../support/npm-pack.js'
import { killServers, printedKey, root, runCli, scratchFolder, startServe, stopWith } from './support.js'

const { dir, remove } = scratchFolder('packed')
const app = join(dir, 'app')
const bin = join(app, 'node_modules/.bin/tenant-public-api')
let packedFiles: string[] = []

afterAll(() => {
  killServers()
  remove()
})

beforeAll(() => {
  const packed = packedOf(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    }),
  )
  packedFiles = packed.files.map((file) => file.path)
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'scratch-app', private: true, type: 'module' }))
  execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(dir, packed!.filename)],
    { cwd: app, encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] },
  )
}, 180_000)

/** Links an optional peer from this repository's node_modules into the app, as `npm install <peer>` would put it. */
function linkPeer(name: string): void {
  symlinkSync(realpathSync(join(root, 'node_modules', name)), join(app, 'node_modules', name), 'dir')
}

describe('the CLI of the packed package, installed into an app', () => {
  it('ships dist/cli.js and docs/cli.md; npx tenant-public-api --help and --version work', async () => {
    expect(packedFiles).toContain('dist/cli.js')
    expect(packedFiles).toContain('docs/cli.md')
    const npx = ['npx', '--no', '--', 'tenant-public-api']
    const help = await runCli(['--help'], { cwd: app, command: npx })
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/^Usage: tenant-public-api <command>/)
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
    expect((await runCli(['--version'], { cwd: app, command: npx })).stdout).toBe(`${version}\n`)
  }, 60_000)

  it('serve on SQLite or migrate on Postgres, without their peers, says what to npm install', async () => {
    const { code, stdout, stderr } = await runCli(['serve', '--port', '0'], { cwd: app, command: [bin] })
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr.trim()).toMatch(
      new RegExp(
        '^The SQLite store needs the optional peer dependencies better-sqlite3 and kysely ' +
          '\\((kysely|better-sqlite3) is missing\\): npm install better-sqlite3 kysely$',
      ),
    )
    const postgres = await runCli(['migrate', '--store', 'postgres://postgres@127.0.0.1:5432/app'], {
      cwd: app,
      command: [bin],
    })
    expect(postgres.code).toBe(1)
    const said = postgres.stderr.trim()
    expect(said).toMatch(
      /^The Postgres store needs the optional peer dependencies pg and kysely \((kysely|pg) is missing\)/,
    )
    expect(said).toMatch(/\): npm install pg kysely$/)
  })

  it('serve --store memory needs no peer: its curl line reads a page, and Ctrl-C stops it', async () => {
    const served = await startServe(['--port', '0', '--store', 'memory'], { cwd: app, command: [bin] })
    // The MCP SDK is an optional peer too: the banner says how to add it instead of a line that would fail.
    expect(served.banner).toMatch(/^MCP for AI agents: npm install @modelcontextprotocol\/sdk, then start again/m)
    const page = JSON.parse(execFileSync('bash', ['-c', served.curlLines[0]!], { encoding: 'utf8' })) as {
      data: unknown[]
    }
    expect(page.data).toHaveLength(5)
    expect(await stopWith(served.child, 'SIGINT')).toBe(0)
  }, 60_000)

  it('with the SQLite peers installed, keys create and list work on a file', async () => {
    linkPeer('kysely')
    linkPeer('better-sqlite3')
    const store = ['--store', 'sqlite:app.db', '--tenant', 'acme']
    const created = await runCli(['keys', 'create', ...store, '--scopes', 'tickets.read'], { cwd: app, command: [bin] })
    expect(created.code, created.stderr).toBe(0)
    const key = printedKey(created.stdout)
    const listed = await runCli(['keys', 'list', ...store], { cwd: app, command: [bin] })
    expect(listed.stdout).toContain(`${key.slice(0, 12)}…`)
    expect(listed.stdout).not.toContain(key)
  }, 60_000)
})
