/**
 * `npm run bench [part...]`: runs each benchmark part in its own process, so one part's heap and
 * caches never colour another's figures. Parts: `http` (mounts vs raw node:http, @hono/node-server
 * and Fastify), `stores` (1,000,000 tickets on SQLite and Postgres vs raw SQL), `writes` (what a write
 * costs as the data behind it grows), `limits` (the Redis rate limiter vs the SQL one; the handler
 * with and without onResponse and a tracer), `api-keys` (a busy key through createApiKeys' resolver
 * vs a fixed-token resolver), `events` (the feed's page and write path), `webhooks` (deliveries
 * per second from one and from two dispatcher processes), `operations` (every read and write
 * against an earlier commit's, on every store: the before/after of a reshape), `statements`
 * (what compiling a statement once saves), `mcp` (a tools/call of listTickets vs GET /tickets,
 * through the Fetch handler and through the Node mount) and `testing` (createTestApi() per instance
 * and a GET /tickets through the testing kit, vs an earlier commit's).
 * Every figure is a ratio to a baseline measured in the same run.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const PARTS = [
  'http',
  'stores',
  'writes',
  'limits',
  'api-keys',
  'events',
  'webhooks',
  'operations',
  'statements',
  'mcp',
  'testing',
] as const
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
const requested = process.argv.slice(2)
const unknown = requested.filter((part) => !(PARTS as readonly string[]).includes(part))
if (unknown.length > 0) {
  console.error(`Unknown bench part(s): ${unknown.join(', ')}. Parts: ${PARTS.join(', ')}`)
  process.exit(2)
}

/**
 * Runs one part. A signal sent to this process is passed on to it (a Ctrl-C reaches both; a SIGTERM,
 * e.g. from npm, only this one), and the part cleans up (bench/cleanup.ts) before it ends; resolves
 * to its exit code, or the signal that ended it.
 */
function runPart(script: string): Promise<number | NodeJS.Signals> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', script], { stdio: 'inherit' })
  const forward = (signal: NodeJS.Signals) => child.kill(signal)
  for (const signal of SIGNALS) process.on(signal, forward)
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      for (const name of SIGNALS) process.off(name, forward)
      resolve(code ?? signal!)
    }),
  )
}

let failed = false
for (const part of requested.length > 0 ? requested : PARTS) {
  console.log(`\n=== bench: ${part} ===`)
  const end = await runPart(fileURLToPath(new URL(`./${part}.ts`, import.meta.url)))
  if (typeof end === 'string') {
    // Stopped by a signal: so is the whole run, as the signal would have ended it.
    console.error(`bench ${part} ended by ${end}`)
    process.kill(process.pid, end)
    await new Promise(() => {})
  }
  if (end !== 0) {
    console.error(`bench ${part} exited with ${end}`)
    failed = true
  }
}
process.exit(failed ? 1 : 0)
