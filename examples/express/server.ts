// A standalone app (docs/mounts.md, "Examples"): npm install && npm start (runs `tsx server.ts`).
import { createServer } from 'node:http'
import express from 'express'
import { createApiKeys, createMemoryStore, createPublicApi, SCOPES } from 'tenant-public-api'
import { toExpressMiddleware } from 'tenant-public-api/express'
import { nodeServerOptions } from 'tenant-public-api/node'
import { createDemoData, DEMO_TENANT_ID, demoAdmin } from 'tenant-public-api/testing'

const store = createMemoryStore()
// Postgres instead:
//   import { createPostgresStore } from 'tenant-public-api/postgres'
//   const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL })
// SQLite instead:
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

const app = express()
app.use(express.json()) // the host's own parser: the API still gets its bodies, and its errors stay JSON
app.use(toExpressMiddleware(api))
app.get('/', (_req, res) => void res.send('The host app; the API is under /api/public/v1'))

const port = Number(process.env.PORT ?? 3000)
// Bounded header and request times (Node's defaults let a slow client hold a socket for minutes).
createServer(nodeServerOptions, app).listen(port, '127.0.0.1', () =>
  console.log(`Express: http://127.0.0.1:${port}/api/public/v1/tickets  (Authorization: Bearer ${key})`),
)
