/**
 * The Next.js mount in a real App Router app (examples/next): `next build` (the only Next build of
 * the suite) then `next start` on a free port, against the repository's ESM build.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, printedKey, runMountScenario, startProcess, type ServedProcess } from './support.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const app = join(root, 'examples/next')
const nextBin = join(root, 'node_modules/.bin/next')
const env = { NEXT_TELEMETRY_DISABLED: '1' }

describe('Next.js mount (examples/next)', () => {
  let served: ServedProcess
  let base = ''

  beforeAll(async () => {
    // `next build` type-checks the route file too: a handler type Next refuses fails here.
    execFileSync(nextBin, ['build'], { cwd: app, env: { ...process.env, ...env }, stdio: 'pipe' })
    const port = await freePort()
    base = `http://127.0.0.1:${port}/api/public/v1`
    served = await startProcess(nextBin, ['start', '-H', '127.0.0.1', '-p', String(port)], {
      cwd: app,
      env,
      readyUrl: `${base}/openapi.json`,
      timeoutMs: 60_000,
    })
  }, 300_000)
  afterAll(() => served?.stop())

  it('serves the scenario from app/api/public/v1/[...path]/route.ts', async () => {
    // The page first: after the scenario's aborted upload and 413s, `next start` closes pooled
    // keep-alive connections without saying so, and a request reusing one would be reset.
    const page = await fetch(`${base.replace('/api/public/v1', '')}/`)
    expect(await page.text()).toContain('tenant-public-api on Next.js')
    await runMountScenario(base, await printedKey(served))
  })
})
