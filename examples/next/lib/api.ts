import { createApiKeys, createMemoryStore, createPublicApi, type PublicApiHandler, SCOPES } from 'tenant-public-api'
import { createDemoData, DEMO_TENANT_ID, demoAdmin } from 'tenant-public-api/testing'

// One API per server process, made on the first request and not when this module loads: `next build`
// loads every route module to collect its page data, and would otherwise seed the store and print a
// key while building. The demo tenant (10,000 tickets) is seeded once, on that first request.
async function start(): Promise<PublicApiHandler> {
  const store = createMemoryStore()
  // Postgres instead:
  //   import { createPostgresStore } from 'tenant-public-api/postgres'
  //   const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL })
  // SQLite instead (runtime 'nodejs' only):
  //   import { createSqliteStore } from 'tenant-public-api/sqlite'
  //   const store = await createSqliteStore({ filename: 'demo.db' })
  await store.seed(DEMO_TENANT_ID, createDemoData())
  // A demo key with every scope, printed once to the server's log (the store keeps only its hash).
  const keys = createApiKeys(store)
  const { key } = await keys.create({
    tenantId: DEMO_TENANT_ID,
    name: 'Demo key',
    scopes: [...SCOPES],
    createdBy: demoAdmin(),
  })
  console.log(`Next.js demo key (every scope): ${key}`)
  return createPublicApi({ store, keyResolver: keys.keyResolver })
}

let started: Promise<PublicApiHandler> | undefined

export const api = async (request: Request): Promise<Response> => {
  started ??= start()
  return (await started)(request)
}
