/**
 * Stores hand out the records they keep without copying (the memory store its records, the SQL
 * stores their cached parsed documents). Those results are frozen, so a caller that mutates one
 * gets a TypeError instead of changing what every later read returns.
 */
import { describe, expect, it } from 'vitest'
import { createMemoryStore, type Store } from 'tenant-public-api'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createDemoData } from 'tenant-public-api/testing'
import { createTestPostgresStore } from '../support/postgres.js'

const query = { page: 1, limit: 5, sortColumn: 'created_date', sortDesc: true } as const

const stores: Array<[string, () => Promise<Store>]> = [
  ['memory', async () => createMemoryStore()],
  ['sqlite', () => createSqliteStore({ filename: ':memory:' })],
  ['postgres', async () => (await createTestPostgresStore()).store],
]

describe.each(stores)('%s store results', (_name, create) => {
  it('are frozen, and a read after a refused mutation returns the stored record', async () => {
    const store = await create()
    try {
      const data = createDemoData({ tickets: 20 })
      await store.seed('tenant-frozen', { tickets: data.tickets.slice(), companies: data.companies })
      const first = await store.listTickets('tenant-frozen', query)
      const ticket = first.items[0]!
      const title = ticket.title
      expect(Object.isFrozen(ticket)).toBe(true)
      expect(() => {
        ;(ticket as { title: string }).title = 'changed by a caller'
      }).toThrow(TypeError)
      const again = await store.listTickets('tenant-frozen', query)
      expect(again.items[0]!.title).toBe(title)
    } finally {
      await store.close()
    }
  })
})
