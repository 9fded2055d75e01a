/**
 * The examples as standalone apps, as a user copies one: each examples/<name> is copied to a
 * temporary folder, `npm install`ed as printed with the packed package as its `tenant-public-api`
 * (test/support/example-apps.ts), started by its own `npm start`, and answers an authenticated
 * request with the key it prints. The Next.js example, whose build is the suite's heaviest step,
 * runs so once, in test/adapters/next.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installRuntimes } from '../adapters/install-runtimes.js'
import { freePort, printedKey, type ServedProcess, startProcess } from '../adapters/support.js'
import { newWebhookSecret } from '../../src/model/webhook-endpoints.js'
import { webhookHeaders } from '../../src/webhooks/signing.js'
import { installExample, removeExample } from '../support/example-apps.js'
import { packedPackage } from '../support/packed-package.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }

/** Whether a caret range (`^0.1.0`, the only kind the examples use) admits `version`. */
function caretAdmits(range: string, version: string): boolean {
  const [low, at] = [range.replace(/^\^/, ''), version].map((v) => v.split('.').map(Number)) as [number[], number[]]
  const fixed = low.findIndex((part) => part !== 0) // ^0.1.0 fixes 0.1, ^1.2.0 fixes 1
  const same = low.slice(0, Math.max(fixed, 0) + 1).every((part, i) => part === at[i])
  const newer = at[0]! - low[0]! || at[1]! - low[1]! || at[2]! - low[2]!
  return /^\^\d+\.\d+\.\d+$/.test(range) && same && newer >= 0
}

interface Manifest {
  private?: boolean
  type?: string
  scripts?: Record<string, string>
  dependencies?: Record<string, string>
}
const manifests = readdirSync(join(root, 'examples'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((entry) => {
    const path = join(root, 'examples', entry.name, 'package.json')
    try {
      return [[entry.name, JSON.parse(readFileSync(path, 'utf8')) as Manifest] as const]
    } catch {
      return []
    }
  })

describe('the examples are standalone apps', () => {
  it('each mount has one, private, ESM, depending on tenant-public-api by a range that admits this version', () => {
    expect(manifests.map(([name]) => name).sort()).toEqual(expect.arrayContaining(['bun', 'deno', 'express', 'next']))
    expect(manifests.map(([name]) => name)).toContain('node-server')
    for (const [name, manifest] of manifests) {
      const range = manifest.dependencies?.['tenant-public-api']
      expect({ name, private: manifest.private, type: manifest.type, start: typeof manifest.scripts?.start }).toEqual({
        name,
        private: true,
        type: 'module',
        start: 'string',
      })
      expect(range, name).toBeDefined()
      expect(caretAdmits(range!, version), `${name}: ${range} admits ${version}`).toBe(true)
    }
  })

  it('checks a range as npm does', () => {
    expect([caretAdmits('^0.1.0', '0.1.7'), caretAdmits('^0.1.0', '0.2.0'), caretAdmits('^0.1.2', '0.1.1')]).toEqual([
      true,
      false,
      false,
    ])
    expect([caretAdmits('^1.2.0', '1.9.0'), caretAdmits('^1.2.0', '2.0.0'), caretAdmits('~0.1.0', '0.1.0')]).toEqual([
      true,
      false,
      false,
    ])
  })

  it('carry no path into the repository', () => {
    const files = readdirSync(join(root, 'examples'), { recursive: true, encoding: 'utf8' })
    const offenders = files
      .filter((file) => /\.(m?[jt]sx?|json)$/.test(file) && !file.includes('node_modules'))
      .filter((file) =>
        /\.\.\/\.\.(\/(src|dist|adapters)\b|['"])/.test(readFileSync(join(root, 'examples', file), 'utf8')),
      )
    expect(offenders).toEqual([])
  })
})

describe('examples/webhook-receiver, installed from the packed package', () => {
  const secret = newWebhookSecret()
  let served: ServedProcess
  let url = ''
  let app = ''
  beforeAll(async () => {
    app = await installExample('webhook-receiver', (await packedPackage()).tarball)
    const port = await freePort()
    url = `http://127.0.0.1:${port}/`
    served = await startProcess('npm', ['start'], {
      cwd: app,
      env: { PORT: String(port), WEBHOOK_SECRET: secret },
      readyUrl: url,
      timeoutMs: 60_000,
    })
  }, 240_000)
  afterAll(async () => {
    await served?.stop()
    if (app !== '') removeExample(app)
  })

  it('accepts a delivery signed with its secret and prints its event', async () => {
    const id = 'evt_standalone'
    const body = JSON.stringify({ id, type: 'ticket.updated', resource: { type: 'ticket', id: 't1' } })
    const headers = webhookHeaders({ id, body, secrets: [secret], timestamp: new Date() })
    const response = await fetch(url, { method: 'POST', headers, body })
    expect(response.status).toBe(204)
    // Printed before the answer, but read through npm's pipe, which may deliver it a little later.
    const line = `{"received":"${id}","type":"ticket.updated"`
    for (let waited = 0; !served.output().includes(line) && waited < 5000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50))
    expect(served.output()).toContain(line)
  })
})

describe.each(['node-server', 'express', 'bun', 'deno'])('examples/%s, installed from the packed package', (name) => {
  let served: ServedProcess
  let base = ''
  let app = ''
  beforeAll(async () => {
    const [installed, runtimes] = await Promise.all([
      packedPackage().then(({ tarball }) => installExample(name, tarball)),
      // The script bounds the runtimes' install (150 s) and says why it failed.
      name === 'bun' || name === 'deno' ? installRuntimes() : Promise.resolve(''),
    ])
    app = installed
    // `npm start` runs `bun ...` / `deno ...`: the runtimes go on its PATH.
    const path = [
      ...runtimes
        .split('\n')
        .filter(Boolean)
        .map((bin) => dirname(bin)),
      process.env.PATH,
    ].join(':')
    const port = await freePort()
    base = `http://127.0.0.1:${port}/api/public/v1`
    served = await startProcess('npm', ['start'], {
      cwd: app,
      env: { PORT: String(port), PATH: path, DENO_NO_UPDATE_CHECK: '1' },
      readyUrl: `${base}/openapi.json`,
      timeoutMs: 60_000,
    })
  }, 240_000)
  afterAll(async () => {
    await served?.stop()
    if (app !== '') removeExample(app)
  })

  it('answers an authenticated request with the key it prints', async () => {
    const key = await printedKey(served)
    const response = await fetch(`${base}/tickets?limit=1`, { headers: { authorization: `Bearer ${key}` } })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(1)
  })
})
