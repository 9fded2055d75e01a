/**
 * Stores hand out the records they keep without copying (the memory store its records, the SQL
 * stores their cached parsed documents). Those results are frozen, so a caller that mutates one
 * gets a TypeError instead of changing what every later read returns.
 */
import { describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, type Store } from 'tenant-public-api'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createDemoData, testKey, testKeyResolver } from 'tenant-public-api/testing'
import { createTestPostgresStore } from '../support/postgres.js'
import { listRequest } from '../../src/model/list-request.js'
import { tickets as ticketsCollection } from '../../src/model/tickets.js'

const query = { page: 1, limit: 5, sortColumn: 'created_date', sortDesc: true } as const

/** A page of the tenant's tickets for a list query, as the operation asks the store for it. */
const listTickets = (store: Store, tenantId: string, q: { page: number; limit: number; [name: string]: unknown }) =>
  store.list(ticketsCollection, tenantId, listRequest(ticketsCollection, q))

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
      const first = await listTickets(store, 'tenant-frozen', query)
      const ticket = first.items[0]!
      const title = ticket.title
      expect(Object.isFrozen(ticket)).toBe(true)
      expect(() => {
        ;(ticket as { title: string }).title = 'changed by a caller'
      }).toThrow(TypeError)
      const again = await listTickets(store, 'tenant-frozen', query)
      expect(again.items[0]!.title).toBe(title)
    } finally {
      await store.close()
    }
  })
})

describe('reply bodies', () => {
  it('are byte-identical on every store (the SQL stores reuse the stored JSON text), and canonical JSON', async () => {
    const data = createDemoData({ tickets: 60 })
    const paths = [
      '/tickets?limit=25',
      '/tickets?limit=25&page=2&sortColumn=title&sortDesc=false',
      `/tickets/${data.tickets[3]!.id}`,
      '/companies',
      '/users?limit=10',
    ]
    const bodies = new Map<string, string[]>()
    for (const [name, create] of stores) {
      const store = await create()
      try {
        await store.seed('tenant-bytes', data)
        const api = createPublicApi({ store, keyResolver: testKeyResolver() })
        // Twice: the second answer comes from the remembered text.
        for (const round of [1, 2]) {
          const texts: string[] = []
          for (const path of paths) {
            const response = await api(
              new Request(`http://host/api/public/v1${path}`, {
                headers: { authorization: `Bearer ${testKey('tenant-bytes')}` },
              }),
            )
            expect(response.status, `${name} ${path}`).toBe(200)
            const text = await response.text()
            expect(text, `${name} ${path}`).toBe(JSON.stringify(JSON.parse(text)))
            texts.push(text)
          }
          bodies.set(`${name} ${round}`, texts)
        }
      } finally {
        await store.close()
      }
    }
    const [first, ...rest] = [...bodies.values()]
    for (const texts of rest) expect(texts).toEqual(first)
  })
})

describe("the SQL stores' parsed-doc cache", () => {
  it('never confuses two records whose stored text starts alike (keyed by prefix, checked on full text)', async () => {
    const [template] = createDemoData({ tickets: 1 }).tickets
    // Ids longer than the cache key, differing only at the end: their documents share the first 64+ characters.
    const prefix = 'shared-prefix-'.repeat(6)
    const tickets = ['a', 'b', 'c'].map((last, i) => ({
      ...template!,
      id: `${prefix}${last}`,
      ticketNumber: `T-${i}`,
      title: `Title ${last}`,
      notes: [],
    }))
    for (const [name, create] of stores.filter(([name]) => name !== 'memory')) {
      const store = await create()
      try {
        await store.seed('tenant-prefix', { tickets })
        const query = { page: 1, limit: 10, sortColumn: 'title', sortDesc: false } as const
        for (let round = 0; round < 3; round++) {
          expect(
            (await listTickets(store, 'tenant-prefix', query)).items.map((t) => [t.id.slice(-1), t.title]),
            name,
          ).toEqual([
            ['a', 'Title a'],
            ['b', 'Title b'],
            ['c', 'Title c'],
          ])
          for (const ticket of tickets)
            expect((await store.get(ticketsCollection, 'tenant-prefix', ticket.id))?.title, name).toBe(ticket.title)
        }
      } finally {
        await store.close()
      }
    }
  })
})
