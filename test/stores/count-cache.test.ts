/**
 * The cached ticket totalCount follows every seed, also one made through another store instance
 * (another process, in effect): the tenant's generation number lives in the database.
 */
import { describe, expect, it } from 'vitest'
import type { Store } from 'tenant-public-api'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createTestPostgresStore, DATABASE_URL } from '../support/postgres.js'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ticket = (n: number) => ({ id: `t-${n}`, ticketNumber: `N${n}`, title: `Printer ${n}`, isClosed: false, provider: 'psa_a' as const, status: 'Open', createdAt: `2025-01-0${n}T00:00:00.000Z` })
const query = { page: 1, limit: 1, sortColumn: 'created_date', sortDesc: true } as const

async function pair(kind: 'sqlite' | 'postgres'): Promise<[Store, Store, () => Promise<void>]> {
  if (kind === 'sqlite') {
    const filename = join(mkdtempSync(join(tmpdir(), 'tenant-api-count-')), 'c.db')
    const a = await createSqliteStore({ filename })
    const b = await createSqliteStore({ filename }, { migrate: false })
    return [a, b, async () => void (await Promise.all([a.close(), b.close()]))]
  }
  const { store, engine, schema } = await createTestPostgresStore()
  if (engine === 'pglite') return [store, store, () => store.close()]
  const b = await createPostgresStore({ connectionString: DATABASE_URL, schema: schema! }, { migrate: false })
  return [store, b, async () => {
    await b.close()
    await store.close()
  }]
}

describe.each(['sqlite', 'postgres'] as const)('%s', (kind) => {
  it('totalCount and pages follow a seed made through another instance', async () => {
    const [a, b, close] = await pair(kind)
    await a.seed('tenant-c', { tickets: [ticket(1)] })
    for (const filter of [{}, { status: 'OPEN' }, { search: 'print' }]) {
      const first = await a.listTickets('tenant-c', { ...query, ...filter })
      expect(first.totalCount).toBe(1)
      expect(await a.listTickets('tenant-c', { ...query, ...filter })).toEqual(first) // served from the cache
    }
    await b.seed('tenant-c', { tickets: [ticket(2), { ...ticket(1), status: 'Closed', title: 'Monitor' }] })
    const all = await a.listTickets('tenant-c', query)
    expect(all.totalCount).toBe(2)
    expect(all.items.map((t) => t.id)).toEqual(['t-2'])
    expect((await a.listTickets('tenant-c', { ...query, status: 'OPEN' })).totalCount).toBe(1)
    expect((await a.listTickets('tenant-c', { ...query, search: 'print' })).totalCount).toBe(1)
    expect((await a.listTickets('tenant-c', { ...query, page: 2 })).items.map((t) => t.id)).toEqual(['t-1'])
    await close()
  })
})
