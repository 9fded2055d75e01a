/**
 * `npm start`: the API on node:http with a demo tenant. The store is a SQLite file
 * (`.data/demo.db`, created and seeded on first run); `STORE=memory npm start` keeps everything in
 * memory instead, `DEMO_DB=path` picks another file, and `DATABASE_URL=postgres://… npm start` uses Postgres.
 * PORT (default 3000, 0 picks a free one) and HOST (default 127.0.0.1) set the address; a port in use
 * ends the start (exit 1) with what to do, before the running server's demo key is touched.
 */
import { mkdirSync } from 'node:fs'
import { createServer } from 'node:http'
import { dirname } from 'node:path'
import type { AddressInfo } from 'node:net'
import {
  companies,
  createApiKeys,
  createMemoryStore,
  createPublicApi,
  listRequest,
  SCOPES,
  type Store,
} from 'tenant-public-api'
import { nodeServerOptions, toNodeHandler } from 'tenant-public-api/node'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createDemoData, DEMO_TENANT_ID, demoAdmin } from 'tenant-public-api/testing'

async function createStore(): Promise<{ store: Store; label: string }> {
  if (process.env.DATABASE_URL)
    return { store: await createPostgresStore({ connectionString: process.env.DATABASE_URL }), label: 'Postgres' }
  if (process.env.STORE === 'memory') return { store: createMemoryStore(), label: 'in-memory' }
  const filename = process.env.DEMO_DB ?? '.data/demo.db'
  mkdirSync(dirname(filename), { recursive: true })
  return { store: await createSqliteStore({ filename }), label: `SQLite ${filename}` }
}

const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? '127.0.0.1'
const { store, label } = await createStore()
const keys = createApiKeys(store)
// `mcp: true` also serves the API to AI agents at {base}/mcp (docs/mcp.md), under the same keys.
const api = createPublicApi({ store, keyResolver: keys.keyResolver, mcp: true })
// Bounded header and request times: a slow client cannot hold sockets open for minutes.
const server = createServer(nodeServerOptions, toNodeHandler(api))

// The port is taken before anything is written: a second `npm start` beside a running one must not
// revoke that one's key. On a first run the tenant is seeded after this; nobody holds a key to it yet.
try {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error
  console.error(
    code === 'EADDRINUSE'
      ? `Port ${port} on ${host} is in use (another npm start?). Stop that server, or start on another port: ` +
          `PORT=${port + 1} npm start (PORT=0 picks a free one).`
      : `Not allowed to listen on port ${port} on ${host}. Start on a port above 1023: PORT=3000 npm start.`,
  )
  await store.close()
  process.exit(1)
}

const demo = createDemoData()
const existing = await store.list(
  companies,
  DEMO_TENANT_ID,
  listRequest(companies, { page: 1, limit: 1, sortBy: 'name' }),
)
if (existing.totalCount === 0) {
  // Tickets are generated on demand: seed them in slices so a large tenant never sits in memory at once.
  const { tickets, ...rest } = demo
  await store.seed(DEMO_TENANT_ID, rest)
  for (let i = 0; i < tickets.length; i += 5_000)
    await store.seed(DEMO_TENANT_ID, { tickets: tickets.slice(i, i + 5_000) })
}

// A fresh demo key on every start (shown once, stored as a hash); the previous run's is revoked.
const DEMO_KEY_NAME = 'Demo key (npm start)'
for (const old of await keys.list(DEMO_TENANT_ID))
  if (old.name === DEMO_KEY_NAME && old.revokedAt === null) await keys.revoke(old.id)
const { key } = await keys.create({
  tenantId: DEMO_TENANT_ID,
  name: DEMO_KEY_NAME,
  scopes: [...SCOPES],
  createdBy: demoAdmin(),
})

const { address, port: bound } = server.address() as AddressInfo
const base = `http://${address}:${bound}/api/public/v1`
const ticket = demo.tickets.find((t) => t.notes.length > 0) ?? demo.tickets[0]!
const budget = demo.budgets![0]!
const auth = `-H 'Authorization: Bearer ${key}'`
console.log(`tenant-public-api listening on ${base} (store: ${label})`)
console.log(`Demo key (every scope): ${key}`)
console.log(`Reference: ${base}/docs   OpenAPI: ${base}/openapi.json`)
console.log(`MCP for AI agents: claude mcp add --transport http demo ${base}/mcp ${auth.replace('-H', '--header')}`)
console.log('Try:')
console.log(`curl -s ${auth} '${base}/tickets?limit=5&isClosed=false&sortColumn=priority_name'`)
console.log(
  `curl -s ${auth} '${base}/tickets/${encodeURIComponent(ticket.ticketNumber)}?includeNotes=true&notesLimit=3'`,
)
console.log(
  `curl -s ${auth} -H 'Content-Type: application/json' -X POST '${base}/budgets/${budget.id}/items' ` +
    `-d '{"type":"Software","description":"Endpoint protection",` +
    `"unitPrice":4.5,"quantity":40,"recurrence":"Monthly"}'`,
)

function shutdown(): void {
  server.close(() => void store.close().then(() => process.exit(0)))
  server.closeAllConnections()
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
