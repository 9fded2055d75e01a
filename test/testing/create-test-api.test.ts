import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { createApiKeys } from 'tenant-public-api'
import { createTestApi, DEMO_TENANT_ID, type TestApi } from 'tenant-public-api/testing'
import { ApiResponseError } from 'tenant-public-api/client'
import { storedEndpoints } from '../../src/testing/conformance/webhook-fixtures.js'
import { IDS, seedData, snapshot } from '../http/fixture.js'
import { assertResponseMatchesContract } from '../support/contract.js'

describe('createTestApi', () => {
  it('seeds the demo tenant by default', async () => {
    const { client, tenantId } = await createTestApi({ onResponse: assertResponseMatchesContract })
    expect(tenantId).toBe(DEMO_TENANT_ID)
    const { pagination } = await client.listTickets({ limit: 100 })
    expect(pagination.totalCount).toBeGreaterThan(1000)
    const { data: companies } = await client.listCompanies({ limit: 3 })
    expect(companies).toHaveLength(3)
  })

  it('is one line to a working, typed client in-process', async () => {
    const { client } = await createTestApi({ data: seedData(), onResponse: assertResponseMatchesContract })
    const { data } = await client.listTickets({ limit: 5 })
    expect(data.map((ticket) => ticket.ticketNumber)).toEqual(['T-1001'])
  })

  it('hands out keys for each scope set, and another tenant sees nothing', async () => {
    const { request, keys, tenantId } = await createTestApi({
      data: seedData(),
      onResponse: assertResponseMatchesContract,
    })
    expect(tenantId).toBe(DEMO_TENANT_ID)
    expect((await request('/users', { key: keys.readOnly })).status).toBe(200)
    const readOnlyWrite = await request(`/budgets/${IDS.budget}`, {
      key: keys.readOnly,
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"x"}',
    })
    expect(readOnlyWrite.status).toBe(403)
    expect((await request('/users', { key: keys.for(['tickets.read']) })).status).toBe(403)
    expect((await request('/tickets', { key: keys.for(['tickets.read']) })).status).toBe(200)
    expect((await request(`/goals/${IDS.goal}`, { key: keys.otherTenant })).status).toBe(404)
    expect((await request('/tickets', { key: null })).status).toBe(401)
  })

  it('binds the client to the scopes asked for', async () => {
    const { client } = await createTestApi({
      data: seedData(),
      scopes: ['tickets.read'],
      onResponse: assertResponseMatchesContract,
    })
    await expect(client.listTickets()).resolves.toMatchObject({ pagination: { totalCount: 1 } })
    const error = (await client.listUsers().catch((e: unknown) => e)) as ApiResponseError
    expect(error).toBeInstanceOf(ApiResponseError)
    expect(error.code).toBe('INSUFFICIENT_SCOPE')
  })

  it('seeds an empty tenant with data: {} and can provoke 429s with rateLimit', async () => {
    const { client } = await createTestApi({
      data: {},
      tenantId: 'acme',
      rateLimit: { limit: 2, windowMs: 60_000 },
      onResponse: assertResponseMatchesContract,
    })
    expect((await client.listCompanies()).data).toEqual([])
    await client.listCompanies()
    await expect(client.listCompanies()).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED' })
  })

  it('answers client and request with a Response read from its body string, the handler a native one', async () => {
    const seen: string[] = []
    const { api, request, keys } = await createTestApi({
      data: seedData(),
      onResponse: async (response) => void seen.push(await response.text()),
    })
    const response = await request('/tickets?limit=5')
    // The lightweight Response of the Node bridge (adapters/node-bridge/lightweight-response.ts).
    expect(inspect(response)).toMatch(/^Response \(lightweight\)/)
    expect(response).toBeInstanceOf(Response)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const body = (await response.json()) as { data: { id: string }[] }
    expect(body.data.map((ticket) => ticket.id)).toEqual([IDS.ticket])
    // onResponse read a copy of its own; the caller's body was still there, and is now used.
    expect(seen.map((text) => JSON.parse(text))).toEqual([body])
    expect(response.bodyUsed).toBe(true)
    await expect(response.text()).rejects.toThrow(TypeError)

    const direct = await api(
      new Request('http://api.test/api/public/v1/tickets', { headers: { authorization: `Bearer ${keys.all}` } }),
    )
    expect(Object.getPrototypeOf(direct)).toBe(Response.prototype)
    expect(((await direct.json()) as { data: unknown[] }).data).toHaveLength(1)
  })
})

/** What a test API's tenant holds and shows: records, events feed, webhook endpoints, ticket count. */
async function stateOf({ store, request, tenantId }: TestApi) {
  const events = (await (await request('/events?order=desc&limit=5')).json()) as { data: { id: string }[] }
  return {
    records: await snapshot(store, tenantId),
    events: events.data.map((event) => event.id),
    endpoints: await storedEndpoints(store, tenantId),
    tickets: ((await (await request('/tickets?limit=1')).json()) as { pagination: unknown }).pagination,
  }
}

describe('createTestApi with the demo data: one demo tenant per process, forked per instance', () => {
  it('gives each instance a tenant of its own: writes, removals and events of one reach no other', async () => {
    const [a, b] = await Promise.all([createTestApi(), createTestApi()])
    const before = await stateOf(b)
    expect(await stateOf(a)).toEqual(before)
    const records = before.records as Record<string, { records: { id: string }[] }>
    const budget = records.budgets!.records[0]!.id
    const enrollment = records.trainingEnrollments!.records[0]!.id
    const user = records.users!.records[0]!.id

    await a.client.updateBudget(budget, { title: 'Changed in a' })
    const item = { type: 'Hardware', description: 'Laptop', unitPrice: 1200 } as const
    await a.client.createBudgetLineItem(budget, item, { idempotencyKey: 'same-key' })
    await a.client.deleteTrainingEnrollment(enrollment)
    await a.client.createWebhookEndpoint({ url: 'https://hooks.example.com/a', events: ['*'] })
    await a.store.remove(a.tenantId, { users: [user] })
    await createApiKeys(a.store).create({ tenantId: a.tenantId, name: 'a', scopes: ['tickets.read'] })

    const after = await stateOf(a)
    expect(after.records).not.toEqual(before.records)
    expect(after.events).not.toEqual(before.events)
    expect(after.endpoints).toHaveLength(1)
    expect(await stateOf(b)).toEqual(before)
    expect(await b.store.listApiKeys(b.tenantId)).toEqual([])
    // The idempotency key a used is b's to use for another request (a's would answer 422).
    const other = await b.request(`/budgets/${budget}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'same-key' },
      body: JSON.stringify({ ...item, description: 'Desk' }),
    })
    expect(other.status).toBe(201)
    // The demo tenant every instance is forked from is untouched.
    expect(await stateOf(await createTestApi())).toEqual(before)
  })

  it('forks the demo tenant under the tenant id asked for', async () => {
    const acme = await createTestApi({ tenantId: 'acme' })
    const demo = await createTestApi()
    expect(acme.tenantId).toBe('acme')
    expect(await stateOf(acme)).toEqual(await stateOf(demo))
    const other = await acme.request('/tickets', { key: acme.keys.otherTenant })
    expect(((await other.json()) as { pagination: { totalCount: number } }).pagination.totalCount).toBe(0)
    expect(await snapshot(acme.store, DEMO_TENANT_ID)).toMatchObject({ tickets: { totalCount: 0 } })
  })
})
