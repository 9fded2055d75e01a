import { createMemoryStore, createPublicApi } from 'tenant-public-api'
import { testKeyResolver } from 'tenant-public-api/testing'
import { demoSeed, DEMO_TENANT } from '../../shared/demo-seed'

// One API per server process (module scope), seeded once.
const store = createMemoryStore()
// Postgres instead: import { createPostgresStore } from 'tenant-public-api/postgres'; const store = createPostgresStore({ connectionString: process.env.DATABASE_URL })
// SQLite instead (runtime 'nodejs' only): import { createSqliteStore } from 'tenant-public-api/sqlite'; const store = createSqliteStore({ filename: 'demo.db' })
const seeded = store.seed(DEMO_TENANT, demoSeed())
const handler = createPublicApi({ store, keyResolver: testKeyResolver() })

export const api = async (request: Request): Promise<Response> => {
  await seeded
  return handler(request)
}
