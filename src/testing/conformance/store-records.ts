/**
 * Store level, records: `get` of every seeded collection by id (bare and with its parts), by its lookup
 * column where it has one (a ticket's number), and the views and parts particular collections compute;
 * each assertion names the call. The writes are store-writes.ts'.
 */
import { describe, expect, it } from 'vitest'
import {
  budgets,
  companies,
  goals,
  npsSurveys,
  reportTemplates,
  SEEDED_COLLECTIONS,
  tickets,
  trainingCourses,
} from '../../model/index.js'
import type { ConformanceContext } from './context.js'
import { sortedFixtureIds } from './fixture-ids.js'
import { at, FIXTURE_BUDGET_TOTALS, fixtureOf, fixtureSeed, FULL_SURVEY_STATISTICS } from './fixtures.js'
import { getRecord, lookupValue, withEveryPart } from './store-gets.js'
import { callLabel, shapeProblems } from './store-calls.js'
/**
 * Registers the store-level record tests.
 *
 * @example
 * storeRecords(ctx)
 */
export function storeRecords(ctx: ConformanceContext): void {
  describe('store: gets and computed fields', () => {
    computedGets(ctx)

    everyGet(ctx)
  })
}

/**
 * Registers the tests that every get (each seeded collection of `COLLECTIONS`, bare, with every part, and by
 * its lookup column where it has one) answers its model's shape, its own record, and null for an unknown id.
 */
function everyGet(ctx: ConformanceContext): void {
  it('every get returns a record in the shape of its model schema', async () => {
    const t = ctx.a.tenantId
    for (const collection of SEEDED_COLLECTIONS) {
      const { record } = fixtureOf(collection.name)
      const id = sortedFixtureIds('a', collection.name)[0]!
      const full = withEveryPart(collection)
      const whole = await getRecord(ctx.store, collection, t, id, full)
      const gets: [string, unknown][] = [
        [callLabel('get', 'A', collection.name, id), await getRecord(ctx.store, collection, t, id)],
        [callLabel('get', 'A', collection.name, id, full), whole],
      ]
      const second = whole === null ? null : lookupValue(collection, whole)
      if (second !== null) {
        const found = await getRecord(ctx.store, collection, t, second, full)
        expect(found?.id, callLabel('get', 'A', collection.name, second, full)).toBe(id)
        gets.push([callLabel('get', 'A', collection.name, second, full), found])
      }
      for (const [label, got] of gets) {
        expect(got, `${label} found nothing`).not.toBeNull()
        expect(shapeProblems(record, got), `${label} does not match the model`).toEqual([])
      }
    }
  })

  it('every get returns the record of its id, and null for an unknown one', async () => {
    const unknown = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f'
    for (const collection of SEEDED_COLLECTIONS) {
      for (const id of sortedFixtureIds('a', collection.name).slice(0, 2)) {
        const found = await getRecord(ctx.store, collection, ctx.a.tenantId, id)
        expect(found?.id, callLabel('get', 'A', collection.name, id)).toBe(id)
      }
      expect(
        await getRecord(ctx.store, collection, ctx.a.tenantId, unknown),
        callLabel('get', 'A', collection.name, unknown),
      ).toBeNull()
    }
  })
}

/** Registers the tests of the gets whose records carry computed fields or parts (tickets, budgets, courses, ...). */
function computedGets(ctx: ConformanceContext): void {
  it('get(tickets) finds by id, then by number (lookup); notes only when asked, n keeps the newest n', async () => {
    const { tickets: ids, ticketNumber } = ctx.a.ids
    const t = ctx.a.tenantId
    const byId = await ctx.store.get(tickets, t, ids[0]!)
    expect(byId?.id, callLabel('get', 'A', 'tickets', ids[0])).toBe(ids[0])
    expect(byId && 'notes' in byId, `${callLabel('get', 'A', 'tickets', ids[0])} has no notes`).toBe(false)
    const byNumber = await ctx.store.get(tickets, t, ticketNumber)
    expect(byNumber?.id, callLabel('get', 'A', 'tickets', ticketNumber)).toBe(ids[0])
    for (const limit of [1, 2, 3, 100]) {
      const request = { include: { notes: limit } }
      const withNotes = await ctx.store.get(tickets, t, ticketNumber, request)
      expect(
        withNotes?.notes?.map((note) => note.id),
        callLabel('get', 'A', 'tickets', ticketNumber, request),
      ).toEqual(['note-a-3', 'note-a-2', 'note-a-1'].slice(0, limit))
    }
    const whole = await ctx.store.get(tickets, t, ids[0]!, { include: { notes: true } })
    expect(
      whole?.notes?.map((note) => note.id),
      callLabel('get', 'A', 'tickets', ids[0], { include: { notes: true } }),
    ).toEqual(['note-a-3', 'note-a-2', 'note-a-1'])
    const bare = await ctx.store.get(tickets, t, ids[1]!, { include: { notes: 25 } })
    expect(bare?.notes, callLabel('get', 'A', 'tickets', ids[1], { include: { notes: 25 } })).toEqual([])
    expect(await ctx.store.get(tickets, t, 'no-such-ticket'), 'get(tickets) of an unknown id').toBeNull()
    expect(
      await ctx.store.get(companies, t, 'Acme'),
      'get(companies) by a name: only a collection with a lookup column falls back',
    ).toBeNull()
  })

  it('get(budgets) computes totals without rejected items, lineItemCount and items oldest first', async () => {
    const { budget, emptyBudget } = ctx.a.ids
    const full = await ctx.store.get(budgets, ctx.a.tenantId, budget)
    expect(full?.totals, callLabel('get', 'A', 'budgets', budget)).toEqual(FIXTURE_BUDGET_TOTALS)
    expect(full?.lineItemCount, callLabel('get', 'A', 'budgets', budget)).toBe(6)
    const created = full?.lineItems.map((item) => item.createdAt) ?? []
    expect(created, `${callLabel('get', 'A', 'budgets', budget)} lineItems oldest first`).toEqual([...created].sort())
    const empty = await ctx.store.get(budgets, ctx.a.tenantId, emptyBudget)
    expect(empty?.lineItems, callLabel('get', 'A', 'budgets', emptyBudget)).toEqual([])
    expect(empty?.totals.grandTotal, callLabel('get', 'A', 'budgets', emptyBudget)).toBe(0)
  })

  it('get(trainingCourses) counts enrollments; get(goals) orders tasks oldest and updates newest first', async () => {
    const counts = []
    for (const id of ctx.a.ids.courses)
      counts.push((await ctx.store.get(trainingCourses, ctx.a.tenantId, id))?.enrollmentCount)
    expect(counts, `get(trainingCourses, A, each course).enrollmentCount`).toEqual([3, 2, 1])
    const goal = await ctx.store.get(goals, ctx.a.tenantId, ctx.a.ids.goals[0]!)
    const label = callLabel('get', 'A', 'goals', ctx.a.ids.goals[0])
    expect(
      goal?.tasks.map((task) => task.title),
      label,
    ).toEqual(['First task', 'Second task', 'Third task'])
    expect(
      goal?.updates.map((update) => update.updateText),
      label,
    ).toEqual(['Newest', 'Middle', 'Oldest'])
    expect(goal?.tasks[0]?.dueDate, label).toBe(at(31))
  })

  it('get(npsSurveys) computes responseCount and statistics', async () => {
    const { full, empty } = ctx.a.ids.npsSurveys
    const survey = await ctx.store.get(npsSurveys, ctx.a.tenantId, full)
    expect([survey?.responseCount, survey?.inviteCount], callLabel('get', 'A', 'npsSurveys', full)).toEqual([7, 9])
    expect(survey?.statistics, callLabel('get', 'A', 'npsSurveys', full)).toEqual(FULL_SURVEY_STATISTICS)
    const none = await ctx.store.get(npsSurveys, ctx.a.tenantId, empty)
    expect(none?.responseCount, callLabel('get', 'A', 'npsSurveys', empty)).toBe(0)
  })

  it('get(reportTemplates) returns templateStructure only when included', async () => {
    const id = ctx.a.ids.reportTemplates[0]!
    const include = { include: { templateStructure: true } } as const
    const bare = await ctx.store.get(reportTemplates, ctx.a.tenantId, id)
    expect(bare && 'templateStructure' in bare, callLabel('get', 'A', 'reportTemplates', id)).toBe(false)
    const full = await ctx.store.get(reportTemplates, ctx.a.tenantId, id, include)
    const seeded = fixtureSeed('a').reportTemplates!.find((template) => template.id === id)!.templateStructure
    expect(full?.templateStructure, callLabel('get', 'A', 'reportTemplates', id, include)).toEqual(seeded)
  })
}
