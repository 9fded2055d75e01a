/**
 * Store level, writes: the generic writes of the records part (patch of a budget, addChild of a line
 * item, delete of an enrollment, findNames of companies), replaceVersioned (insert and compare-and-set)
 * of rules and reports, the TypeError of a write the definition does not allow, and a seed that
 * replaces records. Writes go to fresh tenants; each assertion names the call.
 */
import { describe, expect, it } from 'vitest'
import type { BudgetLineItem } from '../../model/budgets.js'
import {
  automationRules,
  budgetLineItems,
  budgets,
  companies,
  reports,
  tickets,
  trainingCourses,
  trainingEnrollments,
} from '../../model/index.js'
import type { SeedData } from '../../model/seed.js'
import type { ConformanceContext } from './context.js'
import { at, fixtureId, fixtureSeed, writableSeed } from './fixtures.js'
import { callLabel, lister, listQuery } from './store-calls.js'

/** A complete line item, as the core hands it to `addChild(budgetLineItems, ...)`. */
function lineItem(n: number, createdAt: string): BudgetLineItem {
  return {
    id: fixtureId('a', 0x10, 0x100 + n),
    type: 'Software',
    description: `Added ${n}`,
    quantity: 2,
    unitPrice: 10,
    recurrence: 'Monthly',
    termMonths: 12,
    annualisedCost: 240,
    status: 'approved',
    currency: 'USD',
    notes: null,
    category: null,
    linkedItem: null,
    createdAt,
    updatedAt: createdAt,
  }
}

/**
 * Registers the store-level write tests.
 *
 * @example
 * storeWrites(ctx)
 */
export function storeWrites(ctx: ConformanceContext): void {
  describe('store: writes', () => {
    budgetWrites(ctx)

    versionedWrites(ctx)

    enrollmentCompanyAndSeedWrites(ctx)

    refusedWrites(ctx)
  })
}

/** Registers the tests of the writes a definition does not allow: a TypeError, and nothing changed. */
function refusedWrites(ctx: ConformanceContext): void {
  it('refuses with a TypeError a write its collection’s definition does not allow, changing nothing', async () => {
    const { tenantId } = await ctx.fresh(writableSeed('a'))
    const { budget, enrollments } = ctx.a.ids
    const before = await ctx.store.get(budgets, tenantId, budget)
    const refused: [string, () => Promise<unknown>][] = [
      [
        callLabel('patch', 't', 'budgets', budget, { createdAt: at(30) }),
        () => ctx.store.patch(budgets, tenantId, budget, { createdAt: at(30) }, at(30)),
      ],
      [
        callLabel('patch', 't', 'trainingEnrollments', enrollments[0], { status: 'completed' }),
        () => ctx.store.patch(trainingEnrollments, tenantId, enrollments[0]!, { status: 'completed' }, at(30)),
      ],
      [
        // A collection with no parent, passed where the types want a child one (as untyped code might).
        callLabel('addChild', 't', 'budgets', budget),
        // @ts-expect-error budgets has no parent: the port's types refuse it, the store must too.
        () => ctx.store.addChild(budgets, tenantId, budget, lineItem(9, at(30))),
      ],
      [
        callLabel('delete', 't', 'budgetLineItems', budget),
        // @ts-expect-error a child collection is deleted with its parent: the types refuse it, the store must too.
        () => ctx.store.delete(budgetLineItems, tenantId, budget),
      ],
    ]
    for (const [label, call] of refused) await expect(call(), label).rejects.toThrow(TypeError)
    expect(await ctx.store.get(budgets, tenantId, budget), 'get(budgets) after the refused writes').toEqual(before)
  })
}

/** Registers the tests of a store’s enrollment deletes, company lookups and re-seeding. */
function enrollmentCompanyAndSeedWrites(ctx: ConformanceContext): void {
  it('delete(trainingEnrollments) removes once (true, then false) and the course count follows', async () => {
    const { tenantId } = await ctx.fresh(writableSeed('a'))
    const id = ctx.a.ids.enrollments[0]!
    const seeded = fixtureSeed('a').trainingEnrollments!.find((enrollment) => enrollment.id === id)!
    const courseId = (seeded as { course: { id: string } }).course.id
    const before = (await ctx.store.get(trainingCourses, tenantId, courseId))!.enrollmentCount
    expect(
      await ctx.store.delete(trainingEnrollments, tenantId, id),
      callLabel('delete', 't', 'trainingEnrollments', id),
    ).toBe(true)
    expect(
      await ctx.store.delete(trainingEnrollments, tenantId, id),
      `${callLabel('delete', 't', 'trainingEnrollments', id)} again`,
    ).toBe(false)
    const after = (await ctx.store.get(trainingCourses, tenantId, courseId))!.enrollmentCount
    expect(after, `get(trainingCourses, t, ${courseId}).enrollmentCount after the delete`).toBe(before - 1)
    const list = await lister(ctx.store, 'listTrainingEnrollments')(
      tenantId,
      listQuery('listTrainingEnrollments', 'limit=100'),
    )
    expect(
      list.items.map((item) => item.id),
      'list(trainingEnrollments) after the delete',
    ).not.toContain(id)
  })

  it('delete(tickets) removes a ticket from get, its list and the list’s count (a cached count too)', async () => {
    const { tenantId } = await ctx.fresh({ tickets: fixtureSeed('a').tickets })
    const id = ctx.a.ids.tickets[1]!
    const list = () => lister(ctx.store, 'listTickets')(tenantId, listQuery('listTickets', 'limit=100'))
    const before = await list()
    expect(await ctx.store.delete(tickets, tenantId, id), callLabel('delete', 't', 'tickets', id)).toBe(true)
    const after = await list()
    const label = `list(tickets) after ${callLabel('delete', 't', 'tickets', id)}`
    expect([after.totalCount, after.items.map((item) => item.id)], label).toEqual([
      before.totalCount - 1,
      before.items.map((item) => item.id).filter((other) => other !== id),
    ])
    expect(await ctx.store.get(tickets, tenantId, id), `get(tickets) after the delete`).toBeNull()
  })

  it('findNames(companies) returns the tenant’s companies among the ids, ignoring unknown, foreign ones', async () => {
    const ids = [
      ctx.a.ids.companies[2]!,
      '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f',
      ctx.b.ids.companies[0]!,
      ctx.a.ids.companies[0]!,
    ]
    const found = await ctx.store.findNames(companies, ctx.a.tenantId, ids)
    const sorted = [...found].sort((x, y) => (x.id < y.id ? -1 : 1))
    expect(sorted, callLabel('findNames', 'A', 'companies', ids)).toEqual([
      { id: ctx.a.ids.companies[0], name: 'Acme' },
      { id: ctx.a.ids.companies[2], name: 'Zeta' },
    ])
    expect(
      await ctx.store.findNames(companies, ctx.a.tenantId, []),
      callLabel('findNames', 'A', 'companies', []),
    ).toEqual([])
  })

  it('seed replaces a record seeded again under the same id, and recomputes derived fields', async () => {
    const { tenantId } = await ctx.fresh(writableSeed('a'))
    const seededCompanies = fixtureSeed('a').companies!
    const first = seededCompanies[0]!
    await ctx.store.seed(tenantId, { companies: [{ ...first, name: 'Acme renamed' }] })
    const found = await ctx.store.findNames(companies, tenantId, [first.id as string])
    expect(
      found,
      `findNames(companies) after seed(t, { companies: [{ id: ${first.id}, name: 'Acme renamed' }] })`,
    ).toEqual([{ id: first.id, name: 'Acme renamed' }])
    const list = await lister(ctx.store, 'listCompanies')(tenantId, listQuery('listCompanies', 'limit=100'))
    expect(list.totalCount, 'list(companies, t).totalCount after seeding an id again').toBe(seededCompanies.length)
    const course = fixtureSeed('a').trainingCourses!.find((candidate) => candidate.id === ctx.a.ids.courses[0])!
    const courses = [{ ...course, enrollmentCount: 99 }]
    await ctx.store.seed(tenantId, { trainingCourses: courses } as SeedData)
    const reseeded = await ctx.store.get(trainingCourses, tenantId, course.id as string)
    expect(reseeded?.enrollmentCount, 'get(trainingCourses) after seeding enrollmentCount: 99').toBe(3)
  })
}

/** Registers the tests of a store’s compare-and-set replaces of rules and reports. */
function versionedWrites(ctx: ConformanceContext): void {
  it('replaceVersioned(automationRules) inserts at null, then replaces only at the expected version', async () => {
    const { tenantId } = await ctx.fresh(writableSeed('a'))
    const seeded = (await ctx.store.get(automationRules, tenantId, ctx.a.ids.rule))!
    const rule = { ...seeded, id: fixtureId('a', 0x11, 0x200), name: 'Inserted', version: 1 }
    expect(
      await ctx.store.replaceVersioned(automationRules, tenantId, rule, null),
      callLabel('replaceVersioned', 't', 'automationRules', '{…new}', null),
    ).toBe(true)
    expect(await ctx.store.get(automationRules, tenantId, rule.id), `get after an insert`).toEqual(rule)
    const next = { ...rule, name: 'Replaced', version: 2 }
    expect(
      await ctx.store.replaceVersioned(automationRules, tenantId, next, 1),
      callLabel('replaceVersioned', 't', 'automationRules', '{…version: 2}', 1),
    ).toBe(true)
    const stale = { ...rule, name: 'Stale', version: 2 }
    expect(
      await ctx.store.replaceVersioned(automationRules, tenantId, stale, 1),
      callLabel('replaceVersioned', 't', 'automationRules', '{…stale}', 1),
    ).toBe(false)
    expect(await ctx.store.get(automationRules, tenantId, rule.id), 'get after a refused replace').toEqual(next)
    const gone = { ...rule, id: fixtureId('a', 0x11, 0x201) }
    expect(
      await ctx.store.replaceVersioned(automationRules, tenantId, gone, 1),
      'replaceVersioned of an unknown rule',
    ).toBe(false)
  })

  it('replaceVersioned(reports) only at the expected version (compare-and-set); false when unknown', async () => {
    const { tenantId } = await ctx.fresh(writableSeed('a'))
    const seeded = (await ctx.store.get(reports, tenantId, ctx.a.ids.report))!
    const next = { ...seeded, title: 'Replaced', version: seeded.version + 1 }
    const label = callLabel('replaceVersioned', 't', 'reports', `{…version: ${next.version}}`, seeded.version)
    expect(await ctx.store.replaceVersioned(reports, tenantId, next, seeded.version), label).toBe(true)
    expect(
      await ctx.store.replaceVersioned(reports, tenantId, { ...next, title: 'Stale' }, seeded.version),
      `${label} again`,
    ).toBe(false)
    expect(await ctx.store.get(reports, tenantId, seeded.id), `get(reports) after ${label}`).toEqual(next)
    const gone = { ...next, id: fixtureId('a', 0x0a, 0x200) }
    expect(
      await ctx.store.replaceVersioned(reports, tenantId, gone, next.version),
      'replaceVersioned of an unknown report',
    ).toBe(false)
  })
}

/** Registers the tests of a store’s budget updates and line-item appends. */
function budgetWrites(ctx: ConformanceContext): void {
  it('patch(budgets) applies the supplied fields, notes: null clears, sets updatedAt; null when unknown', async () => {
    const { tenantId } = await ctx.fresh(writableSeed('a'))
    const { budget } = ctx.a.ids
    const before = await ctx.store.get(budgets, tenantId, budget)
    const patch = { title: 'Renamed', notes: 'Kept' }
    const updated = await ctx.store.patch(budgets, tenantId, budget, patch, at(20))
    const label = callLabel('patch', 't', 'budgets', budget, patch, at(20))
    expect(updated, label).toEqual({ ...before, title: 'Renamed', notes: 'Kept', updatedAt: at(20) })
    expect(await ctx.store.get(budgets, tenantId, budget), `get(budgets) after ${label}`).toEqual(updated)
    const cleared = await ctx.store.patch(budgets, tenantId, budget, { notes: null }, at(21))
    expect(cleared?.notes, callLabel('patch', 't', 'budgets', budget, { notes: null }, at(21))).toBeNull()
    expect(cleared?.title, 'patch keeps the fields it was not given').toBe('Renamed')
    const unknown = ctx.a.ids.emptyBudget.replace(/.$/, 'f')
    expect(
      await ctx.store.patch(budgets, tenantId, unknown, patch, at(22)),
      callLabel('patch', 't', 'budgets', unknown),
    ).toBeNull()
  })

  it('addChild(budgetLineItems) appends, recomputes totals, sets updatedAt; false if unknown', async () => {
    const { tenantId } = await ctx.fresh(writableSeed('a'))
    const { emptyBudget } = ctx.a.ids
    for (const n of [1, 2]) {
      const item = lineItem(n, at(25, n))
      expect(
        await ctx.store.addChild(budgetLineItems, tenantId, emptyBudget, item),
        callLabel('addChild', 't', 'budgetLineItems', emptyBudget, item),
      ).toBe(true)
    }
    const budget = await ctx.store.get(budgets, tenantId, emptyBudget)
    const label = `get(budgets) after two addChild(budgetLineItems) calls`
    expect(
      budget?.lineItems.map((item) => item.description),
      label,
    ).toEqual(['Added 1', 'Added 2'])
    expect([budget?.lineItemCount, budget?.totals.softwareTotal, budget?.updatedAt], label).toEqual([2, 480, at(25, 2)])
    const unknown = emptyBudget.replace(/.$/, 'f')
    expect(
      await ctx.store.addChild(budgetLineItems, tenantId, unknown, lineItem(3, at(26))),
      callLabel('addChild', 't', 'budgetLineItems', unknown),
    ).toBe(false)
  })
}
