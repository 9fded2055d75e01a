/**
 * How the SQL stores write events (docs/stores.md#events): on Postgres a rule update or a line item
 * is its locked read and one statement (the change, the tenant's counter, the event) inside the
 * transaction, a budget update the same and a read of its items; a rule or report update after its
 * read needs no read of the row (its update is guarded by the text read: one autocommit statement on
 * Postgres, the first statement of the transaction on SQLite), falling back to the locked read when
 * the row changed since; a tenant's expired events are pruned at most once a minute, not on every
 * write; stored events carry the ids `eventId` gives, also past twelve digits; and a page of the feed is
 * one statement with its bounds on Postgres, its bounds then its rows on SQLite.
 */
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import type { Store } from 'tenant-public-api'
import { createSqliteStore, type SqlStore } from 'tenant-public-api/sqlite'
import { createDemoData } from 'tenant-public-api/testing'
import { type AutomationRuleRecord, automationRules } from '../../src/model/automation-rules.js'
import { budgetLineItems, budgets } from '../../src/model/budgets.js'
import { type ReportRecord, reports } from '../../src/model/reports.js'
import { eventId } from '../../src/model/events.js'
import { createCountingPostgresStore, createTestPostgresStore } from '../support/postgres.js'
import { createCountingSqliteStore } from '../support/sqlite.js'

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
  const store = await createSqliteStore({ database }, eventRetentionMs === undefined ? {} : { eventRetentionMs })
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

  it('pages the feed by position ranges, and still whole across a hole an out-of-order prune left', async () => {
    const { store, execute } = await open()
    stores.push(store)
    await store.seed(TENANT, { companies: Array.from({ length: 30 }, (_, i) => company(`c${i}`, `Company ${i}`)) })
    /** Every event id, walking pages of 4 in `order`. */
    const walk = async (order: 'asc' | 'desc') => {
      const seen: string[] = []
      let after: number | null = null
      for (;;) {
        const page = await store.listEvents(TENANT, { after, order, types: null, limit: 4 })
        if (page.state !== 'ok') throw new Error('the feed expired')
        seen.push(...page.events.map((event) => event.id))
        if (!page.hasNextPage) return seen
        after = Number(seen.at(-1)!.slice('evt_'.length))
      }
    }
    const all = Array.from({ length: 30 }, (_, i) => eventId(i + 1))
    expect(await walk('asc')).toEqual(all)
    expect(await walk('desc')).toEqual([...all].reverse())
    // Positions 10 and 11 gone (a prune by time whose clocks disagreed): every other event, once, in order.
    await execute(`DELETE FROM events WHERE tenant_id = '${TENANT}' AND position IN (10, 11)`)
    const kept = all.filter((id) => id !== eventId(10) && id !== eventId(11))
    expect(await walk('asc')).toEqual(kept)
    expect(await walk('desc')).toEqual([...kept].reverse())
    // A cursor past the newest event, descending, starts at the newest.
    const beyond = await store.listEvents(TENANT, { after: 40, order: 'desc', types: null, limit: 2 })
    expect(beyond.state === 'ok' && beyond.events.map((event) => event.id)).toEqual([eventId(30), eventId(29)])
  })

  it('prunes a prefix of positions: no expired event after a kept one, and every event when all expired', async () => {
    const { store, execute } = await open(100 * 60_000)
    stores.push(store)
    const OLD = '2000-01-01T00:00:00.000Z'
    const NEW = new Date().toISOString()
    /** Events of `tenantId` written behind the store's back, at positions 1.. with these times. */
    const written = async (tenantId: string, times: string[]) => {
      for (const [i, createdAt] of times.entries()) {
        const id = eventId(i + 1)
        const doc = JSON.stringify({
          id,
          type: 'company.created',
          createdAt,
          resource: { type: 'company', id: `old-${i}` },
          data: { object: null, previous: null },
          actor: { type: 'sync' },
          requestId: null,
        })
        await execute(
          `INSERT INTO events (tenant_id, position, type, created_at, doc) ` +
            `VALUES ('${tenantId}', ${i + 1}, 'company.created', '${createdAt}', '${doc}')`,
        )
      }
      await execute(`INSERT INTO event_positions (tenant_id, position) VALUES ('${tenantId}', ${times.length})`)
    }
    // The store's first write for each tenant prunes it.
    await written(TENANT, [OLD, NEW, OLD, NEW])
    await store.seed(TENANT, { companies: [company('c1', 'First')] })
    expect(await feed(store, TENANT)).toEqual([2, 3, 4, 5].map(eventId))
    await written('all-expired', [OLD, OLD, OLD])
    await store.seed('all-expired', { companies: [company('c1', 'First')] })
    expect(await feed(store, 'all-expired')).toEqual([eventId(4)])
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
    expect(await store.replaceVersioned(automationRules, TENANT, next, rule.version)).toBe(true)
    expect(statements() - before).toBe(4)
    const budget = demo.budgets[0]!
    const item = { ...budget.lineItems[0]!, id: crypto.randomUUID(), description: 'One more', annualisedCost: 0 }
    before = statements()
    expect(await store.addChild(budgetLineItems, TENANT, budget.id, item)).toBe(true)
    expect(statements() - before).toBe(4)
    // A budget update also reads the budget's items (its event and answer show them): 5.
    before = statements()
    const updated = await store.patch(budgets, TENANT, budget.id, { title: 'Renamed' }, new Date().toISOString())
    expect(statements() - before).toBe(5)
    expect(updated).toEqual(await store.get(budgets, TENANT, budget.id))
    const page = await store.listEvents(TENANT, { after: null, order: 'desc', types: null, limit: 3 })
    expect(page.state === 'ok' && page.events.map((event) => [event.type, event.resource.id])).toEqual([
      ['budget.updated', budget.id],
      ['budget_line_item.created', item.id],
      ['automation_rule.updated', rule.id],
    ])
  })
})

/**
 * The statements of a rule or report update after its read, per engine: guarded by the text read,
 * with its event (and one more when the rule names companies: their names); when the guard misses
 * and the version moved; when the guard misses and the version did not (a seed changed the text).
 */
const UPDATE_STATEMENTS = {
  // One autocommit statement; a miss: BEGIN, the locked read, (the update with its event,) COMMIT.
  Postgres: { guarded: 1, naming: 2, lost: 4, reread: 5 },
  // BEGIN, the guarded update, the counter, the event, COMMIT; a miss reads the row locked instead.
  SQLite: { guarded: 5, naming: 6, lost: 4, reread: 7 },
}

describe.each([
  ['Postgres', createCountingPostgresStore],
  ['SQLite', createCountingSqliteStore],
] as const)('a rule or report update after its read on %s', (engine, open) => {
  const expected = UPDATE_STATEMENTS[engine]

  /** A counting store with demo data: a tenant-wide rule, a rule naming a company, a report naming nothing. */
  async function seeded() {
    const counting = await open()
    stores.push(counting.store)
    const demo = createDemoData({ tickets: 1 })
    const [first, second] = demo.automationRules
    const tenantRule: AutomationRuleRecord = { ...first!, scopeType: 'tenant', companyIds: [] }
    const companyRule: AutomationRuleRecord = { ...second!, scopeType: 'company', companyIds: [demo.companies[0]!.id] }
    const report: ReportRecord = { ...demo.reports[0]!, companyId: null, reportTypeId: null }
    await counting.store.seed(TENANT, {
      ...demo,
      automationRules: [tenantRule, companyRule],
      reports: [report],
    } as never)
    return { ...counting, tenantRule, companyRule, report }
  }

  /** The position an event id names (`eventId`'s inverse). */
  const positionOf = (id: string) => Number(id.replace(/\D/g, ''))

  /** The newest event of the tenant. */
  async function newest(store: Store) {
    const page = await store.listEvents(TENANT, { after: null, order: 'desc', types: null, limit: 1 })
    if (page.state !== 'ok') throw new Error('the feed expired')
    return page.events[0]!
  }

  /** Every event id of the tenant is its position: 1, 2, ... with no gap. */
  async function expectGapFree(store: Store) {
    const page = await store.listEvents(TENANT, { after: null, order: 'asc', types: null, limit: 100 })
    if (page.state !== 'ok') throw new Error('the feed expired')
    expect(page.events.length).toBeGreaterThan(0)
    expect(page.events.map((event) => event.id)).toEqual(page.events.map((_, i) => eventId(i + 1)))
  }

  it('needs no read of the row, and one more statement when the rule names companies (their names)', async () => {
    const { store, statements, tenantRule, companyRule, report } = await seeded()
    for (const [rule, count] of [
      [tenantRule, expected.guarded],
      [companyRule, expected.naming],
    ] as const) {
      const read = (await store.get(automationRules, TENANT, rule.id))!
      const next = { ...read, priority: read.priority + 7, version: read.version + 1 }
      const before = statements()
      expect(await store.replaceVersioned(automationRules, TENANT, next, read.version)).toBe(true)
      expect(statements() - before).toBe(count)
      expect(await store.get(automationRules, TENANT, rule.id)).toEqual(next)
      const event = await newest(store)
      expect([event.type, event.resource.id, event.data.previous]).toEqual([
        'automation_rule.updated',
        rule.id,
        { priority: read.priority, version: read.version },
      ])
    }
    const read = (await store.get(reports, TENANT, report.id))!
    const next = { ...read, title: 'Retitled', version: read.version + 1 }
    const before = statements()
    expect(await store.replaceVersioned(reports, TENANT, next, read.version)).toBe(true)
    expect(statements() - before).toBe(expected.guarded)
    expect(await store.get(reports, TENANT, report.id)).toEqual(next)
    expect((await newest(store)).data.previous).toEqual({ title: read.title, version: read.version })
    // A second update after a second read: guarded again.
    const again = (await store.get(automationRules, TENANT, tenantRule.id))!
    const last = statements()
    expect(
      await store.replaceVersioned(automationRules, TENANT, { ...again, version: again.version + 1 }, again.version),
    ).toBe(true)
    expect(statements() - last).toBe(expected.guarded)
    await expectGapFree(store)
  })

  it('falls back to the locked transaction when another writer changed the row since the read', async () => {
    const { store, statements, another, tenantRule } = await seeded()
    const other = await another()
    stores.push(other)
    const read = (await store.get(automationRules, TENANT, tenantRule.id))!
    const theirs = { ...read, name: 'Theirs', version: read.version + 1 }
    expect(await other.replaceVersioned(automationRules, TENANT, theirs, read.version)).toBe(true)
    const theirEvent = await newest(store)
    const mine = { ...read, priority: read.priority + 7, version: read.version + 1 }
    const before = statements()
    expect(await store.replaceVersioned(automationRules, TENANT, mine, read.version)).toBe(false)
    // The guarded update changed nothing; the locked read decided.
    expect(statements() - before).toBe(expected.lost)
    expect(await store.get(automationRules, TENANT, tenantRule.id)).toEqual(theirs)
    expect((await newest(store)).id).toBe(theirEvent.id)
    // Read again, then the update goes through guarded, its previous state theirs.
    const reread = (await store.get(automationRules, TENANT, tenantRule.id))!
    const retry = { ...reread, priority: reread.priority + 7, version: reread.version + 1 }
    const again = statements()
    expect(await store.replaceVersioned(automationRules, TENANT, retry, reread.version)).toBe(true)
    expect(statements() - again).toBe(expected.guarded)
    const event = await newest(store)
    expect(event.id).toBe(eventId(positionOf(theirEvent.id) + 1))
    expect(event.data.previous).toEqual({ priority: read.priority, version: theirs.version })
    await expectGapFree(store)
  })

  it('falls back when a seed changed the document but not its version, and records what it replaced', async () => {
    const { store, statements, tenantRule } = await seeded()
    const read = (await store.get(automationRules, TENANT, tenantRule.id))!
    // Behind the read's back: same version, another name (the store's remembered text is now stale).
    await store.seed(TENANT, { automationRules: [{ ...read, name: 'Seeded' }] })
    const seedEvent = await newest(store)
    expect(seedEvent.data.previous).toEqual({ name: read.name })
    const next = { ...read, priority: read.priority + 7, version: read.version + 1 }
    const before = statements()
    expect(await store.replaceVersioned(automationRules, TENANT, next, read.version)).toBe(true)
    // The guarded update missed; the locked read, the update with its event.
    expect(statements() - before).toBe(expected.reread)
    expect(await store.get(automationRules, TENANT, tenantRule.id)).toEqual(next)
    const page = await store.listEvents(TENANT, {
      after: positionOf(seedEvent.id),
      order: 'asc',
      types: null,
      limit: 10,
    })
    expect(page.state === 'ok' && page.events.map((event) => [event.type, event.data.previous])).toEqual([
      ['automation_rule.updated', { name: 'Seeded', priority: read.priority, version: read.version }],
    ])
    await expectGapFree(store)
  })

  it('prunes the tenant when due', async () => {
    const { store, another, tenantRule } = await seeded()
    // A store whose retention is 1 ms: its first write for the tenant prunes every earlier event.
    const pruning = await another({ eventRetentionMs: 1 })
    stores.push(pruning)
    await new Promise((resolve) => setTimeout(resolve, 5))
    const read = (await pruning.get(automationRules, TENANT, tenantRule.id))!
    const next = { ...read, priority: read.priority + 7, version: read.version + 1 }
    expect(await pruning.replaceVersioned(automationRules, TENANT, next, read.version)).toBe(true)
    const page = await store.listEvents(TENANT, { after: null, order: 'asc', types: null, limit: 100 })
    expect(page.state === 'ok' && page.events.map((event) => [event.type, event.resource.id])).toEqual([
      ['automation_rule.updated', tenantRule.id],
    ])
  })
})

describe.each([
  ['Postgres', createCountingPostgresStore, { page: 1, empty: 2 }],
  ['SQLite', createCountingSqliteStore, { page: 2, empty: 2 }],
] as const)('a page of the feed on %s', (_engine, open, expected) => {
  it('is one statement with its bounds on Postgres (two when empty), its bounds then its rows on SQLite', async () => {
    const { store, statements } = await open()
    stores.push(store)
    await store.seed(TENANT, { companies: Array.from({ length: 5 }, (_, i) => company(`c${i}`, `Company ${i}`)) })
    for (const [after, order, ids] of [
      [null, 'asc', [1, 2, 3]],
      [2, 'asc', [3, 4, 5]],
      [null, 'desc', [5, 4, 3]],
      [4, 'desc', [3, 2, 1]],
    ] as const) {
      const before = statements()
      const page = await store.listEvents(TENANT, { after, order, types: null, limit: 3 })
      expect(statements() - before).toBe(expected.page)
      expect(page.state === 'ok' && page.events.map((event) => event.id)).toEqual(ids.map(eventId))
      expect(page.state === 'ok' && page.lastPosition).toBe(5)
    }
    const before = statements()
    const end = await store.listEvents(TENANT, { after: 5, order: 'asc', types: null, limit: 3 })
    expect(statements() - before).toBe(expected.empty)
    expect(end).toEqual({ state: 'ok', events: [], hasNextPage: false, lastPosition: 5 })
  })
})
