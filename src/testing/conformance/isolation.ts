/**
 * Tenant isolation: nothing of tenant B in any list or get of tenant A's key; writes to B's ids
 * from A are 404 and change nothing; the same ids in two tenants are two records; and seeding an
 * id again replaces its record.
 */
import { describe, expect, it } from 'vitest'
import { operations } from '../../operations/index.js'
import type { ConformanceContext } from './context.js'
import { at, fixtureIds, MINIMAL_LINE_ITEM, writableSeed } from './fixtures.js'
import { hasIdParam } from './samples.js'
import type { Reply } from '../harness.js'
import { automationRules, budgets, reports } from '../../model/index.js'

/** A page of any list: counted lists have `totalCount`, the events feed `nextCursor`. */
type AnyPage = { data: unknown[]; pagination: { totalCount?: number; nextCursor?: string | null } }

const LIST_PATHS = operations
  .filter((operation) => operation.method === 'GET' && !hasIdParam(operation))
  .map((operation) => operation.path)

/**
 * Registers the isolation and seeding tests.
 *
 * @example
 * isolation(ctx)
 */
export function isolation(ctx: ConformanceContext): void {
  describe('tenant isolation', () => {
    isolatedLists(ctx)

    crossTenantWrites(ctx)
  })

  describe('seeding', () => {
    it('replaces a record seeded again under the same id', async () => {
      const company = { id: ctx.a.ids.companies[0]!, status: 'active', createdAt: at(1), updatedAt: at(1) }
      const { tenantId, h } = await ctx.fresh({ companies: [{ ...company, name: 'Old name', domain: 'old.example' }] })
      await ctx.store.seed(tenantId, { companies: [{ ...company, name: 'New name' }] })
      const { body } = await h.call<Reply<'listCompanies'>>('GET', '/companies')
      expect(body.data).toEqual([
        { ...company, name: 'New name', domain: null, employeeCount: null, industry: null, website: null },
      ])
    })

    it('replaces a ticket seeded again: its old ticket number no longer resolves', async () => {
      const ticket = { id: 't-1', title: 'Old', isClosed: false, provider: 'psa_a' as const, createdAt: at(1) }
      const { tenantId, h } = await ctx.fresh({
        tickets: [
          {
            ...ticket,
            ticketNumber: 'OLD-1',
            notes: [{ id: 'n1', text: 'x', isInternal: false, createdAt: at(1), createdBy: null }],
          },
        ],
      })
      await ctx.store.seed(tenantId, { tickets: [{ ...ticket, title: 'New', ticketNumber: 'NEW-1' }] })
      expect((await h.call('GET', '/tickets/OLD-1')).status).toBe(404)
      const byNumber = await h.call<Reply<'getTicket'>>('GET', '/tickets/NEW-1?includeNotes=true')
      expect([byNumber.body.data.id, byNumber.body.data.title, byNumber.body.data.notes]).toEqual(['t-1', 'New', []])
      expect((await h.call<Reply<'listTickets'>>('GET', '/tickets')).body.pagination.totalCount).toBe(1)
    })

    it('replaces a budget’s line items when the budget is seeded again', async () => {
      const seed = writableSeed('a')
      const { tenantId } = await ctx.fresh(seed)
      const budget = seed.budgets!.find((b) => b.id === ctx.a.ids.budget)!
      await ctx.store.seed(tenantId, { budgets: [{ ...budget, lineItems: budget.lineItems!.slice(0, 2) }] })
      const stored = await ctx.store.get(budgets, tenantId, ctx.a.ids.budget)
      expect(stored?.lineItemCount).toBe(2)
    })

    it('adds to a tenant without touching records it does not name', async () => {
      const { tenantId, h } = await ctx.fresh(writableSeed('a'))
      await ctx.store.seed(tenantId, {
        companies: [
          {
            id: '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f',
            name: 'Added',
            status: 'active',
            createdAt: at(9),
            updatedAt: at(9),
          },
        ],
      })
      expect((await h.call<Reply<'listCompanies'>>('GET', '/companies')).body.pagination.totalCount).toBe(8)
      expect(await ctx.store.get(budgets, tenantId, ctx.a.ids.budget)).not.toBeNull()
    })
  })
}

/** Registers the tests that writes from one tenant never reach another’s records. */
function crossTenantWrites(ctx: ConformanceContext): void {
  it('writes to another tenant’s ids are 404 and change nothing there', async () => {
    const a = await ctx.fresh(writableSeed('a'))
    const b = await ctx.fresh(writableSeed('b'))
    const ids = fixtureIds('b')
    const before = {
      budget: await ctx.store.get(budgets, b.tenantId, ids.budget),
      rule: await ctx.store.get(automationRules, b.tenantId, ids.rule),
      report: await ctx.store.get(reports, b.tenantId, ids.report),
    }
    const attempts = [
      a.h.call<Reply<'createBudgetLineItem'>>('POST', `/budgets/${ids.budget}/items`, { body: MINIMAL_LINE_ITEM }),
      a.h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ids.budget}`, { body: { title: 'Hijacked' } }),
      a.h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ids.rule}`, { body: { name: 'Hijacked' } }),
      a.h.call<Reply<'updateReport'>>('PATCH', `/reports/${ids.report}`, { body: { title: 'Hijacked' } }),
      a.h.call<Reply<'deleteTrainingEnrollment'>>('DELETE', `/training/enrollments/${ids.enrollments[0]}`),
    ]
    for (const result of await Promise.all(attempts)) {
      expect(result.status).toBe(404)
      expect(result.body.code).toBe('NOT_FOUND')
    }
    expect(await ctx.store.get(budgets, b.tenantId, ids.budget)).toEqual(before.budget)
    expect(await ctx.store.get(automationRules, b.tenantId, ids.rule)).toEqual(before.rule)
    expect(await ctx.store.get(reports, b.tenantId, ids.report)).toEqual(before.report)
    expect(
      (await b.h.call<Reply<'getTrainingCourse'>>('GET', `/training/courses/${ids.courses[0]}`)).body.data
        .enrollmentCount,
    ).toBe(3)
  })

  it('does not let a rule or report of one tenant reference another tenant’s companies', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const rule = await h.call<Reply<'createAutomationRule'>>('POST', '/automation', {
      body: {
        name: 'x',
        triggerType: 'scheduled',
        triggerConfig: {},
        entityType: 'device',
        conditions: [],
        actions: [],
        scopeType: 'company',
        companyIds: [ctx.b.ids.companies[0]],
      },
    })
    expect(rule.status).toBe(400)
    const report = await h.call<Reply<'updateReport'>>('PATCH', `/reports/${ctx.a.ids.report}`, {
      body: { companyId: ctx.b.ids.companies[0] },
    })
    expect(report.status).toBe(400)
  })

  it('keeps records with the same ids in two tenants apart', async () => {
    const x = await ctx.fresh(writableSeed('a'))
    const y = await ctx.fresh(writableSeed('a'))
    await x.h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ctx.a.ids.budget}`, { body: { title: 'Only in X' } })
    await x.h.call<Reply<'createBudgetLineItem'>>('POST', `/budgets/${ctx.a.ids.budget}/items`, {
      body: MINIMAL_LINE_ITEM,
    })
    await x.h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ctx.a.ids.rule}`, {
      body: { priority: 99 },
    })
    await x.h.call<Reply<'deleteTrainingEnrollment'>>('DELETE', `/training/enrollments/${ctx.a.ids.enrollments[0]}`)
    const budget = await ctx.store.get(budgets, y.tenantId, ctx.a.ids.budget)
    expect([budget?.title, budget?.lineItemCount]).toEqual(['FY24 budget', 6])
    expect(await ctx.store.get(automationRules, y.tenantId, ctx.a.ids.rule)).toMatchObject({
      priority: 10,
      version: 3,
    })
    expect(
      (await y.h.call<Reply<'listTrainingEnrollments'>>('GET', '/training/enrollments')).body.pagination.totalCount,
    ).toBe(6)
    expect(
      (await x.h.call<Reply<'listTrainingEnrollments'>>('GET', '/training/enrollments')).body.pagination.totalCount,
    ).toBe(5)
  })
}

/** Registers the tests that every list shows a key only its own tenant’s records. */
function isolatedLists(ctx: ConformanceContext): void {
  for (const path of LIST_PATHS) {
    it(`${path} shows each key only its own tenant’s records`, async () => {
      for (const [own, other] of [
        [ctx.a, ctx.b],
        [ctx.b, ctx.a],
      ] as const) {
        const { status, body } = await own.h.call<AnyPage>('GET', `${path}?limit=100`)
        expect(status).toBe(200)
        const text = JSON.stringify(body)
        expect(text).not.toContain(other === ctx.b ? 'bbbbbbbb-' : 'aaaaaaaa-')
        expect(text.includes('(B)')).toBe(own === ctx.b)
        expect(body.data.length).toBeGreaterThan(0)
      }
    })
  }

  it('a key of an unseeded tenant sees empty lists', async () => {
    const h = ctx.client(`nobody-${crypto.randomUUID()}`)
    for (const path of LIST_PATHS) {
      const { body } = await h.call<AnyPage>('GET', path)
      expect(body.data, path).toEqual([])
      // The events feed's pagination has no count: `nextCursor` null says it is empty.
      expect(body.pagination.totalCount ?? body.pagination.nextCursor).toBe(path === '/events' ? null : 0)
    }
  })
}
