// The CommonJS build in a host that requires it: the SQLite store migrates (through the Kysely
// installed, ESM-only from 0.29) and answers a page. Run by checks/cjs.check.ts; prints one JSON line.
const { createPublicApi } = require('tenant-public-api')
const { createSqliteStore } = require('tenant-public-api/sqlite')
const { createDemoData, DEMO_TENANT_ID, testKey, testKeyResolver } = require('tenant-public-api/testing')

async function main() {
  const store = await createSqliteStore({ filename: ':memory:' })
  await store.seed(DEMO_TENANT_ID, createDemoData({ tickets: 20, companies: 2 }))
  const api = createPublicApi({ store, keyResolver: testKeyResolver() })
  const response = await api(
    new Request('http://peer-matrix.test/api/public/v1/tickets?limit=3', {
      headers: { authorization: `Bearer ${testKey(DEMO_TENANT_ID)}` },
    }),
  )
  const body = await response.json()
  await store.close()
  console.log(JSON.stringify({ status: response.status, tickets: body.data.length }))
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
