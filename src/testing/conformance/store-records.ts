/**
 * Store level, records: `get` of every collection by id (tickets also by number, with and without
 * notes), and the views and parts the definitions declare; each assertion names the call. The
 * writes are store-writes.ts'.
 */
import type * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { BudgetSchema } from '../../model/budgets.js'
import { ComplianceCheckSchema, ComplianceTemplateSchema } from '../../model/compliance.js'
import { GoalSchema } from '../../model/goals.js'
import {
  automationRules,
  budgets,
  companies,
  complianceChecks,
  complianceTemplates,
  goals,
  meetingTypes,
  npsSurveys,
  plannerItemTypes,
  reportTemplates,
  reportTypes,
  reports,
  tickets,
  trainingCourses,
  trainingEnrollments,
  users,
} from '../../model/index.js'
import { NpsSurveySchema } from '../../model/nps-surveys.js'
import { PlannerItemTypeSchema } from '../../model/planner.js'
import { ReportTemplateDetailSchema } from '../../model/report-templates.js'
import { ReportTypeSchema } from '../../model/reports.js'
import { TicketWithNotesSchema } from '../../model/tickets.js'
import { TrainingCourseSchema } from '../../model/training.js'
import type { SeededCollection } from '../../model/index.js'
import type { ConformanceContext } from './context.js'
import { at, FIXTURE_BUDGET_TOTALS, fixtureSeed, FULL_SURVEY_STATISTICS } from './fixtures.js'
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

/** Registers the tests that every get answers its model’s shape, its own record, and null for an unknown id. */
function everyGet(ctx: ConformanceContext): void {
  it('every get returns a record in the shape of its model schema', async () => {
    const t = ctx.a.tenantId
    const ids = ctx.a.ids
    const gets: Array<[string, string, v.GenericSchema, () => Promise<unknown>]> = [
      [
        'tickets',
        ids.ticketNumber,
        TicketWithNotesSchema,
        () => ctx.store.get(tickets, t, ids.ticketNumber, { include: { notes: 25 } }),
      ],
      ['tickets', ids.tickets[1]!, TicketWithNotesSchema, () => ctx.store.get(tickets, t, ids.tickets[1]!)],
      ['budgets', ids.budget, BudgetSchema, () => ctx.store.get(budgets, t, ids.budget)],
      ['reportTypes', ids.reportTypes[0]!, ReportTypeSchema, () => ctx.store.get(reportTypes, t, ids.reportTypes[0]!)],
      [
        'reportTemplates',
        ids.reportTemplates[0]!,
        ReportTemplateDetailSchema,
        () => ctx.store.get(reportTemplates, t, ids.reportTemplates[0]!, { include: { templateStructure: true } }),
      ],
      [
        'complianceTemplates',
        ids.complianceTemplates[0]!,
        ComplianceTemplateSchema,
        () => ctx.store.get(complianceTemplates, t, ids.complianceTemplates[0]!),
      ],
      [
        'complianceChecks',
        ids.complianceCheck,
        ComplianceCheckSchema,
        () => ctx.store.get(complianceChecks, t, ids.complianceCheck),
      ],
      [
        'trainingCourses',
        ids.courses[0]!,
        TrainingCourseSchema,
        () => ctx.store.get(trainingCourses, t, ids.courses[0]!),
      ],
      ['goals', ids.goals[0]!, GoalSchema, () => ctx.store.get(goals, t, ids.goals[0]!)],
      ['npsSurveys', ids.npsSurveys.full, NpsSurveySchema, () => ctx.store.get(npsSurveys, t, ids.npsSurveys.full)],
      [
        'plannerItemTypes',
        ids.plannerTypes[0]!,
        PlannerItemTypeSchema,
        () => ctx.store.get(plannerItemTypes, t, ids.plannerTypes[0]!),
      ],
    ]
    for (const [collection, id, schema, get] of gets)
      expect(
        shapeProblems(schema, await get()),
        `${callLabel('get', 'A', collection, id)} does not match the model`,
      ).toEqual([])
  })

  it('every other get returns the record of its id, and null for an unknown one', async () => {
    const ids = ctx.a.ids
    const unknown = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f'
    const gets: Array<[SeededCollection, string]> = [
      [automationRules, ids.rule],
      [reports, ids.report],
      [reportTypes, ids.reportTypes[0]!],
      [complianceTemplates, ids.complianceTemplates[0]!],
      [complianceChecks, ids.complianceCheck],
      [plannerItemTypes, ids.plannerTypes[0]!],
      [trainingCourses, ids.courses[0]!],
      [goals, ids.goals[0]!],
      [budgets, ids.budget],
      [users, ids.users[0]!],
      [companies, ids.companies[0]!],
      [meetingTypes, ids.meetingTypes[0]!],
      [trainingEnrollments, ids.enrollments[0]!],
    ]
    for (const [collection, id] of gets) {
      const found = (await ctx.store.get(collection, ctx.a.tenantId, id)) as { id: string } | null
      expect(found?.id, callLabel('get', 'A', collection.name, id)).toBe(id)
      expect(
        await ctx.store.get(collection, ctx.a.tenantId, unknown),
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
