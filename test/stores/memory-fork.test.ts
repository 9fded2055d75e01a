/**
 * forkMemoryTenant (src/stores/memory/memory-store.ts): a memory store holding a copy of another's
 * tenant, sharing its frozen records and each collection's maps until a write. Whatever either side
 * writes, removes or appends to its events feed, the other never sees it, nor does a sibling fork.
 */
import { describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, memoryRateLimiter, operations, type Store } from 'tenant-public-api'
import { createHarness, testKey, testKeyResolver } from 'tenant-public-api/testing'
import { webhookEndpoints } from '../../src/model/index.js'
import { forkMemoryTenant } from '../../src/stores/memory/memory-store.js'
import { storedEndpoints } from '../../src/testing/conformance/webhook-fixtures.js'
import { IDS, sampleOf, seedData, snapshot, webhookEndpointRecord } from '../http/fixture.js'

const BASE = 'base-tenant'
const COPY = 'copy-tenant'

async function seededBase(): Promise<Store> {
  const store = createMemoryStore()
  await store.seed(BASE, seedData())
  await store.seed('another-tenant', seedData())
  return store
}

/** What a tenant holds: its records (with their parts), its events feed and its webhook endpoints. */
async function everything(store: Store, tenantId: string) {
  return {
    records: await snapshot(store, tenantId),
    events: await store.listEvents(tenantId, { after: null, order: 'asc', types: null, limit: 1000 }),
    endpoints: await storedEndpoints(store, tenantId),
  }
}

const NEW_TICKET = '00000000-0000-4000-8000-0000000000ff'

/**
 * Writes to every part of the tenant: each write operation of the registry through an API over
 * `store` (its sample request, answered 2xx), a seeded ticket, a removed user and a taken
 * idempotency key. Lists first, so that the sorted orders the forks share are filled before.
 */
async function writeEverything(store: Store, tenantId: string): Promise<void> {
  await snapshot(store, tenantId)
  await store.replaceVersioned(webhookEndpoints, tenantId, webhookEndpointRecord(), null)
  const api = createPublicApi({ store, keyResolver: testKeyResolver(), rateLimiter: memoryRateLimiter({ limit: 1e6 }) })
  const h = createHarness(api, { key: testKey(tenantId) })
  // DELETEs last: the endpoint they delete is the one the others change.
  const writes = operations.filter((operation) => operation.method !== 'GET')
  for (const operation of [...writes].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))) {
    const sample = sampleOf(operation)
    const { status, body } = await h.call(operation.method, sample.path, { body: sample.body })
    expect(status, `${operation.id}: ${JSON.stringify(body)}`).toBeLessThan(300)
  }
  await store.seed(tenantId, {
    tickets: [
      {
        id: NEW_TICKET,
        ticketNumber: 'T-2002',
        title: 'New',
        isClosed: false,
        provider: 'psa_a',
        createdAt: '2025-03-01T00:00:00.000Z',
      },
    ],
  })
  await store.remove(tenantId, { users: [IDS.user] })
  expect(await store.reserveIdempotencyKey(tenantId, 'key-1', 'fingerprint', new Date())).toEqual({ state: 'reserved' })
}

describe('forkMemoryTenant', () => {
  it('holds what the base tenant held, under its new id, and no other tenant', async () => {
    const base = await seededBase()
    const fork = forkMemoryTenant(base, BASE, COPY)
    expect(await everything(fork, COPY)).toEqual(await everything(base, BASE))
    expect(((await snapshot(fork, BASE)) as { tickets: { totalCount: number } }).tickets.totalCount).toBe(0)
    expect(((await snapshot(fork, 'another-tenant')) as { tickets: { totalCount: number } }).tickets.totalCount).toBe(0)
  })

  it('writes to a fork reach neither its base nor a sibling fork, whose lists were read before', async () => {
    const base = await seededBase()
    const before = await everything(base, BASE)
    const fork = forkMemoryTenant(base, BASE, COPY)
    const sibling = forkMemoryTenant(base, BASE, COPY)
    await snapshot(sibling, COPY)

    await writeEverything(fork, COPY)

    const written = await everything(fork, COPY)
    expect(written.records).not.toEqual(before.records)
    expect(written.records).toMatchObject({ tickets: { totalCount: 2 }, users: { totalCount: 0 } })
    expect(written.events).toMatchObject({ state: 'ok' })
    expect(written.endpoints.length).toBeGreaterThan(0)
    expect(await everything(sibling, COPY)).toEqual(before)
    expect(await everything(base, BASE)).toEqual(before)
    expect(await everything(forkMemoryTenant(base, BASE, COPY), COPY)).toEqual(before)
    // The sibling's idempotency keys are its own: the key the fork took is free there.
    expect(await sibling.reserveIdempotencyKey(COPY, 'key-1', 'other', new Date())).toEqual({ state: 'reserved' })
  })

  it('writes to the base after a fork do not reach the fork', async () => {
    const base = await seededBase()
    const fork = forkMemoryTenant(base, BASE, COPY)
    const before = await everything(fork, COPY)

    await writeEverything(base, BASE)

    expect(await everything(base, BASE)).not.toEqual(before)
    expect(await everything(fork, COPY)).toEqual(before)
  })

  it('shares the events frozen, so that no holder can change what another reads', async () => {
    const base = await seededBase()
    const fork = forkMemoryTenant(base, BASE, COPY)
    const page = await fork.listEvents(COPY, { after: null, order: 'asc', types: null, limit: 10 })
    if (page.state !== 'ok') throw new Error('no events')
    const [event] = page.events
    expect(event).toBeDefined()
    expect(Object.isFrozen(event) && Object.isFrozen(event!.data) && Object.isFrozen(event!.resource)).toBe(true)
    expect(() => Object.assign(event!, { type: 'changed' })).toThrow(TypeError)
  })

  it('refuses a base that is not a memory store', () => {
    const notMemory = { ...createMemoryStore() }
    expect(() => forkMemoryTenant(notMemory, BASE, COPY)).toThrow(TypeError)
  })
})
