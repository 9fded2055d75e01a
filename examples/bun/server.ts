// A standalone app (docs/mounts.md, "Examples"): npm install && npm start (runs `bun server.ts`).
import { createApiKeys, createMemoryStore, createPublicApi, SCOPES } from 'tenant-public-api'
import { serveWithBun } from 'tenant-public-api/bun'
import { createDemoData, DEMO_TENANT_ID, demoAdmin } from 'tenant-public-api/testing'

const store = createMemoryStore()
// Postgres instead:
//   import { createPostgresStore } from 'tenant-public-api/postgres'
//   const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL })
// SQLite instead (bun runs better-sqlite3):
//   import { createSqliteStore } from 'tenant-public-api/sqlite'
//   const store = await createSqliteStore({ filename: 'demo.db' })
await store.seed(DEMO_TENANT_ID, createDemoData())

// A demo key with every scope, made on each start and printed once (the store keeps only its hash).
const keys = createApiKeys(store)
const { key } = await keys.create({
  tenantId: DEMO_TENANT_ID,
  name: 'Demo key',
  scopes: [...SCOPES],
  createdBy: demoAdmin(),
})
const api = createPublicApi({ store, keyResolver: keys.keyResolver })
const server = serveWithBun<{ url: URL }>(api, { port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' })
console.log(`Bun: ${server.url}api/public/v1/tickets  (Authorization: Bearer ${key})`)
