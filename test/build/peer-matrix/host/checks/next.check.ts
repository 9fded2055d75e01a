/**
 * The Next.js mount on the installed Next.js: the host app's App Router route
 * (app/api/public/v1/[...path]/route.js) built by `next build` and served by `next start`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { afterAll, beforeAll, it } from 'vitest'
import { BASE } from './env.js'
import { runScenario } from './scenario.js'

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }
const next = ['node_modules/next/dist/bin/next']
let server: ChildProcess | undefined
let base = ''
let output = ''

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

beforeAll(async () => {
  execFileSync(process.execPath, [...next, 'build'], { env, stdio: 'pipe', timeout: 240_000 })
  const port = await freePort()
  base = `http://127.0.0.1:${port}${BASE}`
  server = spawn(process.execPath, [...next, 'start', '-H', '127.0.0.1', '-p', String(port)], { env })
  server.stdout?.on('data', (chunk) => (output += chunk))
  server.stderr?.on('data', (chunk) => (output += chunk))
  const deadline = Date.now() + 60_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`next start exited ${server.exitCode}:\n${output}`)
    const answer = await fetch(`${base}/openapi.json`).catch(() => undefined)
    if (answer?.status === 200) break
    if (Date.now() > deadline) throw new Error(`next start never answered:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}, 300_000)

afterAll(() => {
  server?.kill()
})

it('serves the scenario from app/api/public/v1/[...path]/route.js', async () => {
  await runScenario(base)
})
