/**
 * The SQLite store keeps prepared statements per SQL text (at most 256, least recently used
 * dropped). Pages differ in their OFFSET, so a walk over many pages cycles the cache; a schema
 * change made through the caller's own handle re-prepares cached statements.
 */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { createMemoryStore, type Store } from 'tenant-public-api'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createDemoData } from 'tenant-public-api/testing'
import { listRequest } from '../../src/model/list-request.js'
import { tickets } from '../../src/model/tickets.js'

const TENANT = 'tenant-statements'

/** A page of the tenant's tickets for a list query, as the operation asks the store for it. */
const listTickets = (store: Store, tenantId: string, q: { page: number; limit: number; [name: string]: unknown }) =>
  store.list(tickets, tenantId, listRequest(tickets, q))

describe('SQLite statement cache', () => {
  it('serves 600 distinct pages (more than it keeps) exactly as the memory store does', async () => {
    const data = createDemoData({ tickets: 600 })
    const sqlite = await createSqliteStore({ filename: ':memory:' })
    const memory = createMemoryStore()
    try {
      await sqlite.seed(TENANT, data)
      await memory.seed(TENANT, data)
      for (let page = 1; page <= 600; page++) {
        const query = { page, limit: 1, sortColumn: 'title', sortDesc: page % 2 === 0 } as const
        const [a, b] = await Promise.all([listTickets(sqlite, TENANT, query), listTickets(memory, TENANT, query)])
        expect(a, `page ${page}`).toEqual(b)
      }
      // The first pages again, their statements long dropped from the cache.
      expect(
        (await listTickets(sqlite, TENANT, { page: 1, limit: 3, sortColumn: 'title', sortDesc: false })).items.map(
          (t) => t.id,
        ),
      ).toEqual(
        (await listTickets(memory, TENANT, { page: 1, limit: 3, sortColumn: 'title', sortDesc: false })).items.map(
          (t) => t.id,
        ),
      )
    } finally {
      await sqlite.close()
    }
  })

  it('keeps working after the schema changes under cached statements', async () => {
    const database = new Database(':memory:')
    const store = await createSqliteStore({ database })
    try {
      const data = createDemoData({ tickets: 30 })
      await store.seed(TENANT, data)
      const query = { page: 1, limit: 5, sortColumn: 'created_date', sortDesc: true } as const
      const before = await listTickets(store, TENANT, query)
      database.exec(
        'ALTER TABLE tickets ADD COLUMN host_note TEXT; CREATE INDEX host_index ON tickets (tenant_id, host_note)',
      )
      expect(await listTickets(store, TENANT, query)).toEqual(before)
      expect((await store.get(tickets, TENANT, data.tickets[0]!.id))?.id).toBe(data.tickets[0]!.id)
    } finally {
      await store.close()
    }
  })
})
