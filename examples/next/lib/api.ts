import { createMemoryStore, createPublicApi } from 'tenant-public-api'
import { createDemoData, DEMO_TENANT_ID, demoKeyResolver } from 'tenant-public-api/testing'

// One API per server process (module scope), seeded once with the demo tenant (10,000 tickets).
const store = createMemoryStore()
// Postgres instead:
//   import { createPostgresStore } from 'tenant-public-api/postgres'
//   const store = createPostgresStore({ connectionString: process.env.DATABASE_URL })
// SQLite instead (runtime 'nodejs' only):
//   import { createSqliteStore } from 'tenant-public-api/sqlite'
//   const store = createSqliteStore({ filename: 'demo.db' })
const seeded = store.seed(DEMO_TENANT_ID, createDemoData())
const handler = createPublicApi({ store, keyResolver: demoKeyResolver() })

export const api = async (request: Request): Promise<Response> => {
  await seeded
  return handler(request)
}
