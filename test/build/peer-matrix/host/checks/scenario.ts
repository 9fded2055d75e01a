/**
 * What every mount must answer over real HTTP, on the demo tenant: a list, a detail, a
 * POST, a PATCH with If-Match, a 401 without a key and a 413 past the body limit, all in JSON.
 */
import { expect } from 'vitest'
import { createMemoryStore, createPublicApi, type PublicApiHandler } from 'tenant-public-api'
import { createDemoData, DEMO_TENANT_ID, testKey, testKeyResolver } from 'tenant-public-api/testing'

export const TOKEN = testKey(DEMO_TENANT_ID)

/** The API of a memory store seeded with a small demo tenant, the MCP endpoint on. */
export async function seededApi(): Promise<PublicApiHandler> {
  const store = createMemoryStore()
  await store.seed(DEMO_TENANT_ID, createDemoData({ tickets: 20, companies: 2 }))
  return createPublicApi({ store, keyResolver: testKeyResolver(), mcp: true, onError: () => {} })
}

const rule = {
  name: 'Escalate stale tickets',
  triggerType: 'date_threshold',
  triggerConfig: { days: 3 },
  entityType: 'ticket',
  conditions: [{ logic: 'AND', conditions: [{ field: 'status', operator: 'equals', value: 'Open' }] }],
  actions: [{ actionType: 'notify', config: { to: 'ops' } }],
}

/** Runs the scenario against the API at `base` (origin and base path). */
export async function runScenario(base: string): Promise<void> {
  const auth = { authorization: `Bearer ${TOKEN}` }
  const json = { ...auth, 'content-type': 'application/json' }

  const list = await fetch(`${base}/tickets?limit=2`, { headers: auth })
  expect(list.status).toBe(200)
  expect(list.headers.get('content-type')).toBe('application/json; charset=utf-8')
  const page = (await list.json()) as { data: Array<{ id: string; ticketNumber: string }> }
  expect(page.data).toHaveLength(2)

  const first = page.data[0]!
  const detail = await fetch(`${base}/tickets/${encodeURIComponent(first.id)}`, {
    headers: { ...auth, 'x-request-id': 'peer-matrix-1' },
  })
  expect(detail.status).toBe(200)
  expect(detail.headers.get('x-request-id')).toBe('peer-matrix-1')
  expect(((await detail.json()) as { data: { ticketNumber: string } }).data.ticketNumber).toBe(first.ticketNumber)

  const created = await fetch(`${base}/automation`, { method: 'POST', headers: json, body: JSON.stringify(rule) })
  expect(created.status).toBe(201)
  const { id } = ((await created.json()) as { data: { id: string } }).data
  const patched = await fetch(`${base}/automation/${id}`, {
    method: 'PATCH',
    headers: { ...json, 'if-match': '"1"' },
    body: JSON.stringify({ isActive: true }),
  })
  expect(patched.status).toBe(200)
  expect(patched.headers.get('etag')).toBe('"2"')

  const anonymous = await fetch(`${base}/tickets`)
  expect(anonymous.status).toBe(401)
  expect(((await anonymous.json()) as { code: string }).code).toBe('UNAUTHORIZED')

  const large = JSON.stringify({ ...rule, description: 'x'.repeat(2 * 1024 * 1024) })
  const tooLarge = await fetch(`${base}/automation`, { method: 'POST', headers: json, body: large })
  expect(tooLarge.status).toBe(413)
  expect(((await tooLarge.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE')
}
