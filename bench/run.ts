/**
 * `npm run bench [part...]`: runs each benchmark part in its own process, so one part's heap and
 * caches never colour another's figures. Parts: `http` (mounts vs raw node:http, @hono/node-server
 * and Fastify), `stores` (1,000,000 tickets on SQLite and Postgres vs raw SQL), `writes` (what a write
 * costs as the data behind it grows), `limits` (the Redis rate limiter vs the SQL one; the handler
 * with and without onResponse and a tracer), `api-keys` (a busy key through createApiKeys' resolver
 * vs a fixed-token resolver), `events` (the feed's page and write path), `webhooks` (deliveries
 * per second from one and from two dispatcher processes), `operations` (every read and write
 * against an earlier commit's, on every store: the before/after of a reshape), `statements`
 * (what compiling a statement once saves) and `mcp` (a tools/call of listTickets vs GET /tickets,
 * through the Fetch handler and through the Node mount).
 * Every figure is a ratio to a baseline measured in the same run.
 */
import { spawnSync } from 'node:child_process'
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
] as const
const requested = process.argv.slice(2)
const unknown = requested.filter((part) => !(PARTS as readonly string[]).includes(part))
if (unknown.length > 0) {
  console.error(`Unknown bench part(s): ${unknown.join(', ')}. Parts: ${PARTS.join(', ')}`)
  process.exit(2)
}

let failed = false
for (const part of requested.length > 0 ? requested : PARTS) {
  console.log(`\n=== bench: ${part} ===`)
  const script = fileURLToPath(new URL(`./${part}.ts`, import.meta.url))
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', script], { stdio: 'inherit' })
  if (result.status !== 0) {
    console.error(`bench ${part} exited with ${result.status ?? result.signal}`)
    failed = true
  }
}
process.exit(failed ? 1 : 0)
