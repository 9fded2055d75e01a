/**
 * The cached ticket totalCount follows every seed, also one made through another store instance
 * (another process, in effect): the tenant's generation number lives in the database.
 */
import { describe, expect, it } from 'vitest'
import type { Store } from 'tenant-public-api'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createCountingPostgresStore, createTestPostgresStore, DATABASE_URL } from '../support/postgres.js'
import { createCountingSqliteStore } from '../support/sqlite.js'
import { listRequest } from '../../src/model/list-request.js'
import { tickets } from '../../src/model/tickets.js'
import Database from 'better-sqlite3'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ticket = (n: number) => ({
  id: `t-${n}`,
  ticketNumber: `N${n}`,
  title: `Printer ${n}`,
  isClosed: false,
  provider: 'psa_a' as const,
  status: 'Open',
  createdAt: `2025-01-0${n}T00:00:00.000Z`,
})
const query = { page: 1, limit: 1, sortColumn: 'created_date', sortDesc: true } as const

/** A page of the tenant's tickets for a list query, as the operation asks the store for it. */
const listTickets = (store: Store, tenantId: string, q: { page: number; limit: number; [name: string]: unknown }) =>
  store.list(tickets, tenantId, listRequest(tickets, q))

/** Two store instances on one database, how to close them, and a way to run SQL behind their backs. */
async function pair(
  kind: 'sqlite' | 'postgres',
): Promise<[Store, Store, () => Promise<void>, (text: string) => Promise<void>]> {
  if (kind === 'sqlite') {
    const filename = join(mkdtempSync(join(tmpdir(), 'tenant-api-count-')), 'c.db')
    const a = await createSqliteStore({ filename })
    const b = await createSqliteStore({ filename }, { migrate: false })
    const execute = async (text: string) => {
      const database = new Database(filename)
      database.exec(text)
      database.close()
    }
    return [a, b, async () => void (await Promise.all([a.close(), b.close()])), execute]
  }
  const { store, engine, schema, execute } = await createTestPostgresStore()
  if (engine === 'pglite') return [store, store, () => store.close(), execute]
  const b = await createPostgresStore({ connectionString: DATABASE_URL, schema: schema! }, { migrate: false })
  const close = async () => {
    await b.close()
    await store.close()
  }
  return [store, b, close, execute]
}

describe.each(['sqlite', 'postgres'] as const)('%s', (kind) => {
  it('a steady-state page is one statement: the page, read only while the counted generation is current', async () => {
    const { store, statements } =
      kind === 'sqlite' ? await createCountingSqliteStore() : await createCountingPostgresStore()
    await store.seed('tenant-e', { tickets: [ticket(1), ticket(2), ticket(3)] })
    for (const filter of [{}, { status: 'open' }, { search: 'printer' }]) {
      expect((await listTickets(store, 'tenant-e', { ...query, ...filter })).totalCount).toBe(3)
      const before = statements()
      const page = await listTickets(store, 'tenant-e', { ...query, ...filter, page: 2 })
      expect(statements() - before).toBe(1)
      expect(page).toMatchObject({ totalCount: 3, items: [{ id: 't-2' }] })
    }
    // After a seed the steady-state statement finds nothing (its generation is gone); the page then
    // reads the generation, counts and reads the page: four statements, then one again.
    await store.seed('tenant-e', { tickets: [ticket(4)] })
    const afterSeed = statements()
    expect((await listTickets(store, 'tenant-e', query)).totalCount).toBe(4)
    expect(statements() - afterSeed).toBe(4)
    const before = statements()
    expect((await listTickets(store, 'tenant-e', query)).totalCount).toBe(4)
    expect(statements() - before).toBe(1)
    await store.close()
  })

  it('totalCount and pages follow a seed made through another instance', async () => {
    const [a, b, close] = await pair(kind)
    await a.seed('tenant-c', { tickets: [ticket(1)] })
    for (const filter of [{}, { status: 'OPEN' }, { search: 'print' }]) {
      const first = await listTickets(a, 'tenant-c', { ...query, ...filter })
      expect(first.totalCount).toBe(1)
      expect(await listTickets(a, 'tenant-c', { ...query, ...filter })).toEqual(first) // served from the cache
    }
    await b.seed('tenant-c', { tickets: [ticket(2), { ...ticket(1), status: 'Closed', title: 'Monitor' }] })
    const all = await listTickets(a, 'tenant-c', query)
    expect(all.totalCount).toBe(2)
    expect(all.items.map((t) => t.id)).toEqual(['t-2'])
    expect((await listTickets(a, 'tenant-c', { ...query, status: 'OPEN' })).totalCount).toBe(1)
    expect((await listTickets(a, 'tenant-c', { ...query, search: 'print' })).totalCount).toBe(1)
    expect((await listTickets(a, 'tenant-c', { ...query, page: 2 })).items.map((t) => t.id)).toEqual(['t-1'])
    await close()
  })

  it('serves the cached count while the generation is unchanged (the steady state does not recount)', async () => {
    const [a, , close, execute] = await pair(kind)
    await a.seed('tenant-d', { tickets: [ticket(2)] })
    expect((await listTickets(a, 'tenant-d', query)).totalCount).toBe(1)
    // A row written behind the store's back (tickets change only through seed, which bumps the
    // generation) is not counted: proof that the page came from the cached-count statement.
    await execute(
      `INSERT INTO tickets (tenant_id, id, ticket_number, title, created_at, provider, is_closed, title_f, doc, notes)
       VALUES ('tenant-d', 't-0', 'N0', 'Old', '2024-01-01T00:00:00.000Z', 'psa_a', FALSE, 'old', '{}', '[]')`,
    )
    const steady = await listTickets(a, 'tenant-d', query)
    expect(steady.totalCount).toBe(1)
    expect(steady.items.map((t) => t.id)).toEqual(['t-2'])
    // A seed changes the generation: the next page counts again and sees the row.
    await a.seed('tenant-d', { tickets: [ticket(2)] })
    expect((await listTickets(a, 'tenant-d', query)).totalCount).toBe(2)
    await close()
  })
})
