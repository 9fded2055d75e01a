/**
 * The Next.js mount in a real App Router app, examples/next as a user runs it: copied out, installed
 * from the packed package (test/support/example-apps.ts), `npm run build` (the only Next build of the
 * suite) then `npm start` on a free port. test/examples/standalone.test.ts runs the other examples so.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installExample, removeExample } from '../support/example-apps.js'
import { packedPackage } from '../support/packed-package.js'
import { freePort, printedKey, runMountScenario, startProcess, type ServedProcess } from './support.js'

const env = { NEXT_TELEMETRY_DISABLED: '1' }
// The Next.js the repository pins (package.json), which the example's `^16` admits: on 16.4.6 `next start`
// resets the pooled connection after the scenario's declared-length 413, and the next POST on it fails.
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
const next = `next@${(manifest as { devDependencies: Record<string, string> }).devDependencies.next}`

describe('Next.js mount (examples/next)', () => {
  let served: ServedProcess
  let base = ''

  let built = ''
  let app = ''

  beforeAll(async () => {
    app = await installExample('next', (await packedPackage()).tarball, [next])
    // `next build` type-checks the route file too: a handler type Next refuses fails here.
    const build = spawnSync('npm', ['run', 'build'], { cwd: app, env: { ...process.env, ...env }, encoding: 'utf8' })
    built = `${build.stdout}${build.stderr}`
    if (build.status !== 0) throw new Error(`next build failed:\n${built}`)
    const port = await freePort()
    base = `http://127.0.0.1:${port}/api/public/v1`
    served = await startProcess('npm', ['start', '--', '-H', '127.0.0.1', '-p', String(port)], {
      cwd: app,
      env,
      readyUrl: `${base}/openapi.json`,
      timeoutMs: 60_000,
    })
  }, 300_000)
  afterAll(async () => {
    await served?.stop()
    if (app !== '') removeExample(app)
  })

  it('seeds nothing and prints no key while `next build` loads the route module', () => {
    expect(built).toContain('/api/public/v1/[...path]')
    expect(built).not.toMatch(/tpa_|demo key/i)
  })

  it('serves the scenario from app/api/public/v1/[...path]/route.ts', async () => {
    // The page first: after the scenario's aborted upload and 413s, `next start` closes pooled
    // keep-alive connections without saying so, and a request reusing one would be reset.
    const page = await fetch(`${base.replace('/api/public/v1', '')}/`)
    expect(await page.text()).toContain('tenant-public-api on Next.js')
    await runMountScenario(base, await printedKey(served))
  })
})
