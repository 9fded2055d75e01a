// The Next.js mount in the host app (App Router), built by `next build` and served by `next start`
// in checks/next.check.ts: the memory store seeded as checks/scenario.ts seeds it.
import { createMemoryStore, createPublicApi } from 'tenant-public-api'
import { toNextRouteHandlers } from 'tenant-public-api/next'
import { createDemoData, DEMO_TENANT_ID, testKeyResolver } from 'tenant-public-api/testing'

export const runtime = 'nodejs'
export const dynamic = 'force-dynamic'

const store = createMemoryStore()
const seeded = store.seed(DEMO_TENANT_ID, createDemoData({ tickets: 20, companies: 2 }))
const api = createPublicApi({ store, keyResolver: testKeyResolver(), onError: () => {} })

export const { GET, POST, PATCH, DELETE, PUT, HEAD, OPTIONS } = toNextRouteHandlers(async (request) => {
  await seeded
  return api(request)
})
