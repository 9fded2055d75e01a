// A standalone app (docs/mounts.md, "Examples"): npm install && npm start, which runs
//   deno run --allow-net --allow-env --allow-read server.ts
// (deno.json's "nodeModulesDir": "manual" reads the packages npm installed).
import { createApiKeys, createMemoryStore, createPublicApi, SCOPES } from 'tenant-public-api'
import { serveWithDeno } from 'tenant-public-api/deno'
import { createDemoData, DEMO_TENANT_ID, demoAdmin } from 'tenant-public-api/testing'

const store = createMemoryStore()
// Postgres instead:
//   import { createPostgresStore } from 'tenant-public-api/postgres'
//   const store = await createPostgresStore({ connectionString: Deno.env.get('DATABASE_URL') })
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
const port = Number(Deno.env.get('PORT') ?? 3000)
serveWithDeno(api, {
  port,
  hostname: '127.0.0.1',
  onListen: () => console.log(`Deno: http://127.0.0.1:${port}/api/public/v1/tickets  (Authorization: Bearer ${key})`),
})
