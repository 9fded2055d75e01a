/**
 * A seed far larger than a function's argument limit (a spread of that many drafts overflowed V8's
 * stack) records every event: bulk loads go through the same path as small ones. On memory and
 * SQLite; Postgres runs the same SQL seeding code (src/stores/sql/seeding.ts), and 200,000 records
 * with their events take it minutes on this machine, too long for every run.
 */
import { createMemoryStore, type Store } from 'tenant-public-api'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createDemoData } from 'tenant-public-api/testing'
import { describe, expect, it } from 'vitest'

const TICKETS = 200_000
const data = createDemoData({ tickets: TICKETS })
const seed = { companies: data.companies, tickets: data.tickets }

const stores: Array<[string, () => Promise<Store & { close?: () => Promise<void> }>]> = [
  ['memory', async () => createMemoryStore()],
  ['sqlite', () => createSqliteStore({ filename: ':memory:' })],
]

describe.each(stores)('a seed of %s', (_name, open) => {
  it(`of ${TICKETS.toLocaleString('en')} tickets records an event per record`, { timeout: 240_000 }, async () => {
    const store = await open()
    try {
      await store.seed('big', seed)
      const page = await store.listEvents('big', { after: null, order: 'desc', types: null, limit: 1 })
      expect(page.state === 'ok' && page.lastPosition).toBe(seed.companies.length + TICKETS)
    } finally {
      await store.close?.()
    }
  })
})
