/**
 * Budgets and line items: defaults on create, 201 + Location, `annualisedCost`, totals by type
 * without rejected items, `lineItemCount`, line items oldest first, the budget's `updatedAt`
 * following a new item, PATCH changing only what it is given, and seeded computed fields ignored.
 */
import { describe, expect, it } from 'vitest'
import type { SeedData } from '../../model/seed.js'
import type { ConformanceContext } from './context.js'
import { at, FIXTURE_BUDGET_TOTALS, fixtureId, MINIMAL_LINE_ITEM, writableSeed } from './fixtures.js'
import type { Reply } from '../harness.js'
import * as model from '../../model/index.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The fixture budget's items in creation order: [fixture n, annualisedCost]. */
const SEEDED_ITEMS_OLDEST_FIRST: Array<[number, number]> = [
  [2, 201],
  [3, 999],
  [4, 250.25],
  [1, 360.18],
  [5, 599.99],
  [6, 0],
]

/**
 * Registers the budget tests.
 *
 * @example
 * budgets(ctx)
 */
export function budgets(ctx: ConformanceContext): void {
  describe('budgets and line items', () => {
    computedFieldsAndNewItems(ctx)

    totalsFollowingNewItems(ctx)

    budgetPatches(ctx)

    seedsAndFailures(ctx)
  })
}

/** Registers the tests of the seeded budget's computed fields and of a new line item's defaults. */
function computedFieldsAndNewItems(ctx: ConformanceContext): void {
  it('computes annualisedCost, totals without rejected items, grandTotal, lineItemCount; oldest first', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const { status, body } = await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ctx.a.ids.budget}`, {
      body: { status: 'PendingApproval' },
    })
    expect(status).toBe(200)
    expect(body.data.totals).toEqual(FIXTURE_BUDGET_TOTALS)
    expect(body.data.lineItemCount).toBe(6)
    expect(
      body.data.lineItems.map((item: { id: string; annualisedCost: number }) => [item.id, item.annualisedCost]),
    ).toEqual(SEEDED_ITEMS_OLDEST_FIRST.map(([n, cost]) => [fixtureId('a', 0x10, n), cost]))
  })

  it('creates a line item with the defaults, 201 and a Location header', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const result = await h.call<Reply<'createBudgetLineItem'>>('POST', `/budgets/${ctx.a.ids.emptyBudget}/items`, {
      body: MINIMAL_LINE_ITEM,
    })
    expect(result.status).toBe(201)
    const item = result.body.data
    expect(item).toEqual({
      id: expect.stringMatching(UUID),
      type: 'Software',
      description: 'Licence',
      quantity: 1,
      unitPrice: 12.5,
      recurrence: 'One-Time',
      termMonths: 1,
      annualisedCost: 12.5,
      status: 'draft',
      currency: 'USD',
      notes: null,
      category: null,
      linkedItem: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: item.createdAt,
    })
    expect(result.headers.get('location')).toMatch(new RegExp(`/budgets/${ctx.a.ids.emptyBudget}/items/${item.id}$`))
    const budget = await ctx.store.get(model.budgets, tenantId, ctx.a.ids.emptyBudget)
    expect(budget?.lineItems).toEqual([item])
    // Adding an item moves the budget's updatedAt to the item's creation time.
    expect(budget?.updatedAt).toBe(item.createdAt)
  })
}

/** Registers the tests of new items: annualised and rounded, totals following them, appended oldest first. */
function totalsFollowingNewItems(ctx: ConformanceContext): void {
  it('annualises Monthly x12 and Annual / One-Time x1, rounded to 2 decimals; totals follow new items', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const add = (body: Record<string, unknown>) =>
      h.call<Reply<'createBudgetLineItem'>>('POST', `/budgets/${ctx.a.ids.emptyBudget}/items`, {
        body: { description: 'x', ...body },
      })
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ type: 'Software', recurrence: 'Monthly', quantity: 2, unitPrice: 4.99 }, 119.76],
      [{ type: 'Software', recurrence: 'Annual', quantity: 1, unitPrice: 1000, status: 'rejected' }, 1000],
      [{ type: 'Hardware', recurrence: 'One-Time', quantity: 3, unitPrice: 0.335 }, 1.01],
      [{ type: 'Labour', recurrence: 'Annual', quantity: 2, unitPrice: 10.125 }, 20.25],
      [{ type: 'Subscription', recurrence: 'Monthly', quantity: 1, unitPrice: 0.001 }, 0.01],
      [{ type: 'Other', recurrence: 'Monthly', quantity: 0.5, unitPrice: 0.0004 }, 0],
    ]
    const ids: string[] = []
    for (const [body, cost] of cases) {
      const result = await add(body)
      expect(result.status).toBe(201)
      expect(result.body.data.annualisedCost, JSON.stringify(body)).toBe(cost)
      ids.push(result.body.data.id)
    }
    const { body } = await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ctx.a.ids.emptyBudget}`, {
      body: { notes: 'totals' },
    })
    expect(body.data.totals).toEqual({
      softwareTotal: 119.76,
      hardwareTotal: 1.01,
      labourTotal: 20.25,
      subscriptionTotal: 0.01,
      otherTotal: 0,
      grandTotal: 141.03,
    })
    expect(body.data.lineItemCount).toBe(6)
    expect(body.data.lineItems.map((item: { id: string }) => item.id)).toEqual(ids)
  })

  it('appends new items after the seeded ones (oldest first)', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const created = await h.call<Reply<'createBudgetLineItem'>>('POST', `/budgets/${ctx.a.ids.budget}/items`, {
      body: { ...MINIMAL_LINE_ITEM, type: 'Hardware', unitPrice: 100 },
    })
    const { body } = await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ctx.a.ids.budget}`, {
      body: { title: 'Next' },
    })
    expect(body.data.lineItems.at(-1)?.id).toBe(created.body.data.id)
    expect(body.data.lineItemCount).toBe(7)
    expect(body.data.totals.hardwareTotal).toBe(350.25)
    expect(body.data.totals.grandTotal).toBe(1511.42)
  })
}

/** Registers the tests of PATCH on a budget (only what it is given, every field at once) and of an empty budget. */
function budgetPatches(ctx: ConformanceContext): void {
  it('PATCH changes only the supplied fields and sets updatedAt', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const before = await ctx.store.get(model.budgets, tenantId, ctx.a.ids.budget)
    const { status, body } = await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ctx.a.ids.budget}`, {
      body: { title: 'Renamed', currency: 'eur' },
    })
    expect(status).toBe(200)
    expect(body.data).toEqual({ ...before, title: 'Renamed', currency: 'EUR', updatedAt: expect.stringMatching(ISO) })
    expect(body.data.updatedAt > before!.updatedAt).toBe(true)
    expect(await ctx.store.get(model.budgets, tenantId, ctx.a.ids.budget)).toEqual(body.data)
  })

  it('PATCH sets every writable field at once, and notes: null clears', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const patch = {
      title: 'All',
      fiscalYear: 2030,
      periodType: 'Monthly',
      status: 'Obsolete',
      currency: 'JPY',
      notes: null,
    }
    const { body } = await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ctx.a.ids.budget}`, { body: patch })
    expect(body.data).toMatchObject(patch)
    expect(body.data.company).toEqual({ id: ctx.a.ids.companies[0], name: 'Acme' })
    expect(body.data.createdBy).toEqual({ id: ctx.a.ids.users[0], name: 'Ada Lovelace' })
  })

  it('answers an empty budget with zero totals and no items', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const { body } = await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ctx.a.ids.emptyBudget}`, {
      body: { status: 'Draft' },
    })
    expect(body.data).toMatchObject({ lineItems: [], lineItemCount: 0, notes: null, company: null, createdBy: null })
    expect(body.data.totals).toEqual({
      softwareTotal: 0,
      hardwareTotal: 0,
      labourTotal: 0,
      subscriptionTotal: 0,
      otherTotal: 0,
      grandTotal: 0,
    })
  })
}

/**
 * Registers the tests of seeded budgets and failed requests: computed fields in a seed ignored,
 * timestamps kept as seeded, a failed request changing nothing.
 */
function seedsAndFailures(ctx: ConformanceContext): void {
  it('ignores computed fields in a seed and recomputes them', async () => {
    const seed = writableSeed('a')
    const bogus = {
      totals: {
        softwareTotal: 1,
        hardwareTotal: 1,
        labourTotal: 1,
        subscriptionTotal: 1,
        otherTotal: 1,
        grandTotal: 5,
      },
      lineItemCount: 99,
    }
    const budgets = seed.budgets!.map((budget) => ({
      ...budget,
      ...bogus,
      lineItems: budget.lineItems?.map((item) => ({ ...item, annualisedCost: 12345 })),
    }))
    const { tenantId } = await ctx.fresh({ ...seed, budgets } as SeedData)
    const budget = await ctx.store.get(model.budgets, tenantId, ctx.a.ids.budget)
    expect(budget?.totals.grandTotal).toBe(1411.42)
    expect(budget?.lineItemCount).toBe(6)
    expect(budget?.lineItems.map((item) => item.annualisedCost)).toEqual(
      SEEDED_ITEMS_OLDEST_FIRST.map(([, cost]) => cost),
    )
  })

  it('a failed line item request changes nothing', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const before = await ctx.store.get(model.budgets, tenantId, ctx.a.ids.budget)
    const bad = await h.call<Reply<'createBudgetLineItem'>>('POST', `/budgets/${ctx.a.ids.budget}/items`, {
      body: { ...MINIMAL_LINE_ITEM, categoryId: '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f' },
    })
    expect(bad.status).toBe(400)
    const badGoal = await h.call<Reply<'createBudgetLineItem'>>('POST', `/budgets/${ctx.a.ids.budget}/items`, {
      body: { ...MINIMAL_LINE_ITEM, linkedItemType: 'goal', linkedItemId: ctx.b.ids.goals[0] },
    })
    expect(badGoal.status).toBe(400)
    const badPatch = await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ctx.a.ids.budget}`, {
      body: { title: 'ok', fiscalYear: 3000 },
    })
    expect(badPatch.status).toBe(400)
    expect(await ctx.store.get(model.budgets, tenantId, ctx.a.ids.budget)).toEqual(before)
  })

  it('keeps a seeded budget’s timestamps as seeded', async () => {
    const { tenantId } = await ctx.fresh(writableSeed('a'))
    const budget = await ctx.store.get(model.budgets, tenantId, ctx.a.ids.budget)
    expect([budget?.createdAt, budget?.updatedAt]).toEqual([at(1), at(5)])
  })
}
