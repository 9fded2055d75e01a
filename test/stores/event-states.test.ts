/**
 * Change detection reads a record's whole stored state from its definition (src/stores/sql/event-states.ts):
 * its document, its parts (a ticket's notes, a template's structure) and its children (a budget's line
 * items). A re-seed that changes only a part or a child is an `updated` event on every store, the same
 * event the memory store records (docs/extensions.md, section 3); one that changes nothing records none.
 */
import { createMemoryStore, type SeedData, type Store } from 'tenant-public-api'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createDemoData } from 'tenant-public-api/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPgliteStore } from '../support/postgres.js'

const TENANT = 'event-states'
const demo = createDemoData({ tickets: 30, companies: 3 })
const ticket = demo.tickets.find((t) => t.notes.length > 0)!
const budget = demo.budgets.find((b) => b.lineItems.length > 0)!
const template = demo.reportTemplates.find((t) => t.templateStructure !== null)!

/** Re-seeds that change one record only where its event object does not show it, and the event type each gives. */
const CHANGES: readonly { name: string; type: string; seed: SeedData }[] = [
  {
    name: "a ticket's notes (a part)",
    type: 'ticket.updated',
    seed: { tickets: [{ ...ticket, notes: ticket.notes.slice(1) }] },
  },
  {
    name: "a budget's line items (a child collection)",
    type: 'budget.updated',
    seed: { budgets: [{ ...budget, lineItems: budget.lineItems.slice(1) }] },
  },
  {
    name: "a report template's structure (a part)",
    type: 'report_template.updated',
    seed: { reportTemplates: [{ ...template, templateStructure: null }] },
  },
]

/** The tenant's events after `position`, as the feed shows them but for their ids and times. */
async function eventsAfter(store: Store, position: number) {
  const page = await store.listEvents(TENANT, { after: position, order: 'asc', types: null, limit: 100 })
  if (page.state !== 'ok') throw new Error('the feed expired')
  return page.events.map(({ type, resource, data }) => ({ type, resource, data }))
}

async function lastPosition(store: Store): Promise<number> {
  const page = await store.listEvents(TENANT, { after: null, order: 'desc', types: null, limit: 1 })
  return page.state === 'ok' ? page.lastPosition : 0
}

describe.each([
  ['SQLite', () => createSqliteStore({ filename: ':memory:' })],
  ['Postgres (PGlite)', () => createPgliteStore()],
] as const)('change detection on %s', (_, create) => {
  let memory: Store
  let sql: Store
  beforeAll(async () => {
    ;[memory, sql] = [createMemoryStore(), await create()]
    for (const store of [memory, sql]) await store.seed(TENANT, demo)
  }, 120_000)
  afterAll(() => sql.close())

  it.each(CHANGES)('records a change only in $name as $type, as the memory store does', async ({ type, seed }) => {
    const [fromMemory, fromSql] = [await lastPosition(memory), await lastPosition(sql)]
    await memory.seed(TENANT, seed)
    await sql.seed(TENANT, seed)
    const [want, got] = [await eventsAfter(memory, fromMemory), await eventsAfter(sql, fromSql)]
    expect(want.map((event) => event.type)).toEqual([type])
    expect(got).toEqual(want)
  })

  it('records nothing for a re-seed of the same records', async () => {
    const from = await lastPosition(sql)
    await sql.seed(TENANT, { tickets: [ticket], budgets: [budget], reportTemplates: [template] })
    const changed = await eventsAfter(sql, from)
    await sql.seed(TENANT, { tickets: [ticket], budgets: [budget], reportTemplates: [template] })
    expect(changed.length).toBe(3)
    expect(await eventsAfter(sql, from + changed.length)).toEqual([])
  })
})
