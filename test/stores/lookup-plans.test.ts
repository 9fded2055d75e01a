/**
 * A record found by its lookup column (a ticket by its number) seeks that column's index on SQLite,
 * as a store runs (no ANALYZE): ordered by the id itself, the planner walked the tenant's rows in
 * primary-key order instead, milliseconds per read at 10,000 tickets.
 */
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDemoData } from 'tenant-public-api/testing'
import { tickets } from '../../src/model/tickets.js'
import type { Store } from '../../src/ports/store.js'
import { createSqliteStore } from '../../src/stores/sqlite/index.js'

const TENANT = 'tenant-lookup'
const data = createDemoData({ tickets: 2_000 })

describe('a ticket by number on SQLite', () => {
  const database = new Database(':memory:')
  const sent: Array<{ text: string; params: unknown[] }> = []
  let store: Store
  beforeAll(async () => {
    // Every statement the store runs reports its text and parameters.
    const prepare = database.prepare.bind(database)
    database.prepare = ((text: string) => {
      const statement = prepare(text)
      const all = statement.all.bind(statement)
      statement.all = ((...params: unknown[]) => {
        sent.push({ text, params })
        return all(...params)
      }) as typeof statement.all
      return statement
    }) as typeof database.prepare
    store = await createSqliteStore({ database })
    await store.seed(TENANT, data)
  })
  afterAll(() => store.close())

  it('seeks the (tenant_id, ticket_number) index, and finds the ticket', async () => {
    const ticket = data.tickets[1_234]!
    sent.length = 0
    const found = await store.get(tickets, TENANT, ticket.ticketNumber, { include: { notes: 1 } })
    expect(found?.ticketNumber).toBe(ticket.ticketNumber)
    const lookup = sent.find((s) => s.text.includes('"ticket_number" ='))
    expect(lookup, sent.map((s) => s.text).join('\n')).toBeDefined()
    const plan = (database.prepare(`EXPLAIN QUERY PLAN ${lookup!.text}`).all(...lookup!.params) as { detail: string }[])
      .map((row) => row.detail)
      .join('\n')
    expect(plan).toMatch(/SEARCH tickets USING (COVERING )?INDEX \S+ \(tenant_id=\? AND ticket_number=\?\)/)
    expect(plan).not.toMatch(/SCAN tickets/)
  })
})
