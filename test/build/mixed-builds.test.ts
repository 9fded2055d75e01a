/**
 * The built package, ESM and CJS, mixed as an app may mix them: an API made with one format served
 * by a mount of the other, on the Node and the Express mounts. Each copy has its own classes, so
 * nothing between them may rely on `instanceof`: the mounts recognise the API's replies by their
 * registered brand, the API recognises the other copy's ApiError the same way. dist/ is built in
 * both formats by test/global-setup.ts; the servers run under plain Node, which resolves the
 * package's own name as an installed app would.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mountSeed, TENANT } from '../adapters/support.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const dist = (name: string) => readFileSync(`${root}dist/${name}`, 'utf8')

interface Served {
  webhooks: Record<string, Record<string, number>>
  resolved: { import: string; require: string }
  twoCopies: boolean
  ports: Record<string, number>
}

let child: ChildProcess | undefined
let served: Served

beforeAll(async () => {
  const script = fileURLToPath(new URL('./serve-mixed-builds.mjs', import.meta.url))
  child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, TENANT, SEED: JSON.stringify(mountSeed()) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  served = await new Promise<Served>((resolve, reject) => {
    child!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const line = output.split('\n').find((text) => text.startsWith('{'))
      if (line !== undefined && output.includes('\n')) resolve(JSON.parse(line) as Served)
    })
    child!.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child!.once('exit', (code) => reject(new Error(`the mixed-builds server exited (${code}):\n${output}`)))
  })
}, 60_000)
afterAll(() => {
  child?.kill()
})

describe('the built mounts load the core through the package name', () => {
  it('import and require it from dist/ (ESM dist/index.js, CJS dist/index.cjs), never a bundled copy', () => {
    expect(served.resolved.import).toBe(pathToFileURL(`${root}dist/index.js`).href)
    expect(served.resolved.require).toBe(`${root}dist/index.cjs`)
    // The Node mounts call the core (errorResponse, resolveRequestId...); Next, Bun and Deno only
    // hand it requests, so they import nothing of it at run time. None carries a copy of it.
    for (const mount of ['node', 'express']) {
      expect(dist(`${mount}.js`), mount).toMatch(/from ['"]tenant-public-api['"]/)
      expect(dist(`${mount}.cjs`), mount).toMatch(/require\(['"]tenant-public-api['"]\)/)
    }
    for (const mount of ['node', 'express', 'next', 'bun', 'deno'])
      for (const format of ['js', 'cjs'])
        expect(dist(`${mount}.${format}`), mount).not.toMatch(
          /function (createPublicApi|errorResponse|resolveRequestId)\b/,
        )
    expect(served.twoCopies).toBe(true)
  })
})

describe('tenant-public-api/webhooks, built', () => {
  it.each(['esm dispatcher, cjs store', 'cjs dispatcher, esm store'])(
    '%s: delivers the event to a local receiver',
    (name) => {
      expect(served.webhooks[name]).toEqual({
        enqueued: 1,
        delivered: 1,
        retrying: 0,
        failed: 0,
        dropped: 0,
        received: 1,
      })
    },
  )

  it('is an entry of its own in both formats', () => {
    expect(dist('webhooks.js')).toMatch(/createWebhookDispatcher/)
    expect(dist('webhooks.cjs')).toMatch(/createWebhookDispatcher/)
  })
})

const ruleBody = {
  name: 'Mixed builds',
  triggerType: 'scheduled',
  triggerConfig: { cron: '0 * * * *' },
  entityType: 'ticket',
  conditions: [],
  actions: [],
}

describe.each([
  'node: esm api, cjs mount',
  'node: cjs api, esm mount',
  'express: esm api, cjs mount',
  'express: cjs api, esm mount',
])('%s', (name) => {
  const base = () => `http://127.0.0.1:${served.ports[name]}/api/public/v1`
  const good = { authorization: 'Bearer good' }

  it('lists (200), with the headers and a Content-Length of the written reply', async () => {
    const response = await fetch(`${base()}/tickets?limit=2`, { headers: { ...good, 'x-request-id': 'mixed-1' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(response.headers.get('x-request-id')).toBe('mixed-1')
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull()
    const text = await response.text()
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    expect((JSON.parse(text) as { data: unknown[] }).data).toHaveLength(2)
  })

  it('creates (201) from a streamed body', async () => {
    const response = await fetch(`${base()}/automation`, {
      method: 'POST',
      headers: { ...good, 'content-type': 'application/json' },
      body: JSON.stringify(ruleBody),
    })
    expect(response.status).toBe(201)
    expect(((await response.json()) as { data: { name: string } }).data.name).toBe(ruleBody.name)
  })

  it('answers an unknown path with 404 in the Error shape', async () => {
    const response = await fetch(`${base()}/nope`, { headers: good })
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' })
  })

  it("answers an ApiError thrown by a key resolver built with the other copy's class as that error", async () => {
    const response = await fetch(`${base()}/tickets`, {
      headers: { authorization: 'Bearer suspended', 'x-request-id': 'mixed-2' },
    })
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({
      error: 'This key is suspended',
      code: 'INSUFFICIENT_SCOPE',
      requestId: 'mixed-2',
    })
  })
})
