import { describe, expect, it } from 'vitest'
import { createTestApi, DEMO_TENANT_ID } from 'tenant-public-api/testing'
import { ApiResponseError } from 'tenant-public-api/client'
import { IDS, seedData } from '../http/fixture.js'
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
})
