/**
 * How the SQL stores write events (docs/stores.md#events): on Postgres a rule update or a line item
 * is its locked read and one statement (the change, the tenant's counter, the event) inside the
 * transaction, a budget update the same and a read of its items; a tenant's expired events are
 * pruned at most once a minute, not on every write; and the ids SQL splices into stored events are
 * `eventId`'s, also past twelve digits.
 */
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import type { Store } from 'tenant-public-api'
import { createSqliteStore, type SqlStore } from 'tenant-public-api/sqlite'
import { createDemoData } from 'tenant-public-api/testing'
import type { AutomationRuleRecord } from '../../src/model/automation-rules.js'
import { eventId } from '../../src/model/events.js'
import { createCountingPostgresStore, createTestPostgresStore } from '../support/postgres.js'

const TENANT = 'tenant-event-writes'
const T0 = '2025-01-01T00:00:00.000Z'
const company = (id: string, name: string) => ({ id, name, status: 'active', createdAt: T0, updatedAt: T0 }) as const

/** The positions and ids of every event of `tenantId`, oldest first. */
async function feed(store: Store, tenantId: string) {
  const page = await store.listEvents(tenantId, { after: null, order: 'asc', types: null, limit: 100 })
  if (page.state !== 'ok') throw new Error('the feed expired')
  return page.events.map((event) => event.id)
}

/** A SQLite store on a database this test can also write to behind the store's back. */
async function sqlite(eventRetentionMs?: number) {
  const database = new Database(':memory:')
  const store = await createSqliteStore({ database, ...(eventRetentionMs === undefined ? {} : { eventRetentionMs }) })
  return { store, execute: async (text: string) => void database.exec(text) }
}

const stores: SqlStore[] = []
afterAll(async () => {
  for (const store of stores) await store.close()
})

describe.each([
  ['SQLite', sqlite],
  ['Postgres', (eventRetentionMs?: number) => createTestPostgresStore({ eventRetentionMs })],
] as const)('events written by the %s store', (_engine, open) => {
  it('prunes a tenant at its first write, then not again within the minute', async () => {
    const { store, execute } = await open(100 * 60_000)
    stores.push(store)
    await store.seed(TENANT, { companies: [company('c1', 'First')] })
    // The first event expires behind the store's back; the next write, within the minute, keeps it.
    await execute(`UPDATE events SET created_at = '2000-01-01T00:00:00.000Z' WHERE tenant_id = '${TENANT}'`)
    await store.seed(TENANT, { companies: [company('c2', 'Second')] })
    expect(await feed(store, TENANT)).toEqual([eventId(1), eventId(2)])
    // Another tenant's first write prunes that tenant only.
    await store.seed('other-tenant', { companies: [company('c3', 'Third')] })
    expect(await feed(store, TENANT)).toEqual([eventId(1), eventId(2)])
  })

  it('writes the ids eventId gives, past twelve digits too', async () => {
    const { store, execute } = await open()
    stores.push(store)
    await store.seed(TENANT, { companies: [company('c0', 'Zero')] })
    await execute(`UPDATE event_positions SET position = 999999999998 WHERE tenant_id = '${TENANT}'`)
    await store.seed(TENANT, { companies: ['c1', 'c2', 'c3'].map((id) => company(id, id)) })
    const page = await store.listEvents(TENANT, { after: 999_999_999_998, order: 'asc', types: null, limit: 10 })
    expect(page.state === 'ok' && page.events.map((event) => event.id)).toEqual(
      [999_999_999_999, 1_000_000_000_000, 1_000_000_000_001].map(eventId),
    )
  })
})

describe('a write with its event on Postgres', () => {
  it('sends BEGIN, the locked read, one statement and COMMIT for a rule update and a line item', async () => {
    const { store, statements } = await createCountingPostgresStore()
    stores.push(store)
    const demo = createDemoData({ tickets: 1 })
    // A tenant-wide rule: a rule naming companies also reads their names for the event (one statement more).
    const rule: AutomationRuleRecord = { ...demo.automationRules[0]!, scopeType: 'tenant', companyIds: [] }
    await store.seed(TENANT, { ...demo, automationRules: [rule] } as never)
    let before = statements()
    const next = { ...rule, priority: rule.priority === 1 ? 2 : 1, version: rule.version + 1 }
    expect(await store.replaceAutomationRule(TENANT, next, rule.version)).toBe(true)
    expect(statements() - before).toBe(4)
    const budget = demo.budgets[0]!
    const item = { ...budget.lineItems[0]!, id: crypto.randomUUID(), description: 'One more', annualisedCost: 0 }
    before = statements()
    expect(await store.addBudgetLineItem(TENANT, budget.id, item)).toBe(true)
    expect(statements() - before).toBe(4)
    // A budget update also reads the budget's items (its event and answer show them): 5.
    before = statements()
    const updated = await store.updateBudget(TENANT, budget.id, { title: 'Renamed' }, new Date().toISOString())
    expect(statements() - before).toBe(5)
    expect(updated).toEqual(await store.getBudget(TENANT, budget.id))
    const page = await store.listEvents(TENANT, { after: null, order: 'desc', types: null, limit: 3 })
    expect(page.state === 'ok' && page.events.map((event) => [event.type, event.resource.id])).toEqual([
      ['budget.updated', budget.id],
      ['budget_line_item.created', item.id],
      ['automation_rule.updated', rule.id],
    ])
  })
})
