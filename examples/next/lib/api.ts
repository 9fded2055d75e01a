import { createApiKeys, createMemoryStore, createPublicApi, SCOPES } from 'tenant-public-api'
import { createDemoData, DEMO_TENANT_ID, demoAdmin } from 'tenant-public-api/testing'

// One API per server process (module scope), seeded once with the demo tenant (10,000 tickets).
const store = createMemoryStore()
// Postgres instead:
//   import { createPostgresStore } from 'tenant-public-api/postgres'
//   const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL })
// SQLite instead (runtime 'nodejs' only):
//   import { createSqliteStore } from 'tenant-public-api/sqlite'
//   const store = await createSqliteStore({ filename: 'demo.db' })
// A demo key with every scope, made when the route first loads and printed once to the server's log
// (the store keeps only its hash).
const keys = createApiKeys(store)
const seeded = store.seed(DEMO_TENANT_ID, createDemoData()).then(async () => {
  const { key } = await keys.create({
    tenantId: DEMO_TENANT_ID,
    name: 'Demo key',
    scopes: [...SCOPES],
    createdBy: demoAdmin(),
  })
  console.log(`Next.js demo key (every scope): ${key}`)
})
const handler = createPublicApi({ store, keyResolver: keys.keyResolver })

export const api = async (request: Request): Promise<Response> => {
  await seeded
  return handler(request)
}
