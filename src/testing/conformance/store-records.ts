/**
 * Store level, records: every get by id (tickets also by number, with and without notes) and the
 * computed fields the store owns, then every write: updateBudget, addBudgetLineItem, insert and
 * compare-and-set replace of rules and reports, deleteTrainingEnrollment, findCompanies, and a
 * seed that replaces records. Writes go to fresh tenants; each assertion names the call.
 */
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { type BudgetLineItem, BudgetSchema } from '../../model/budgets.js'
import { ComplianceCheckSchema, ComplianceTemplateSchema } from '../../model/compliance.js'
import { GoalSchema } from '../../model/goals.js'
import { NpsSurveySchema } from '../../model/nps-surveys.js'
import { PlannerItemTypeSchema } from '../../model/planner.js'
import { ReportTemplateDetailSchema } from '../../model/report-templates.js'
import { ReportTypeSchema } from '../../model/reports.js'
import { TicketWithNotesSchema } from '../../model/tickets.js'
import { CompanyListQuerySchema } from '../../model/companies.js'
import { TrainingCourseSchema, TrainingEnrollmentListQuerySchema } from '../../model/training.js'
import type { SeedData } from '../../model/seed.js'
import type { ConformanceContext } from './context.js'
import { at, fixtureId, fixtureSeed, writableSeed } from './fixtures.js'
import { callLabel, shapeProblems } from './store-calls.js'

/** A complete line item, as the core hands it to `addBudgetLineItem`. */
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
 * Registers the store-level record tests.
 *
 * @example
 * storeRecords(ctx)
 */
export function storeRecords(ctx: ConformanceContext): void {
  describe('store: gets and computed fields', () => {
    it('getTicket finds by id, then by number; notesLimit null leaves notes out, n keeps the newest n', async () => {
      const { tickets, ticketNumber } = ctx.a.ids
      const byId = await ctx.store.getTicket(ctx.a.tenantId, tickets[0]!, null)
      expect(byId?.id, callLabel('getTicket', 'A', tickets[0], null)).toBe(tickets[0])
      expect(byId && 'notes' in byId, `${callLabel('getTicket', 'A', tickets[0], null)} has no notes`).toBe(false)
      const byNumber = await ctx.store.getTicket(ctx.a.tenantId, ticketNumber, null)
      expect(byNumber?.id, callLabel('getTicket', 'A', ticketNumber, null)).toBe(tickets[0])
      for (const limit of [1, 2, 3, 100]) {
        const withNotes = await ctx.store.getTicket(ctx.a.tenantId, ticketNumber, limit)
        expect(
          withNotes?.notes?.map((note) => note.id),
          callLabel('getTicket', 'A', ticketNumber, limit),
        ).toEqual(['note-a-3', 'note-a-2', 'note-a-1'].slice(0, limit))
      }
      const bare = await ctx.store.getTicket(ctx.a.tenantId, tickets[1]!, 25)
      expect(bare?.notes, callLabel('getTicket', 'A', tickets[1], 25)).toEqual([])
      expect(await ctx.store.getTicket(ctx.a.tenantId, 'no-such-ticket', null), 'getTicket of an unknown id').toBeNull()
    })

    it('getBudget computes totals without rejected items, lineItemCount and items oldest first', async () => {
      const { budget, emptyBudget } = ctx.a.ids
      const full = await ctx.store.getBudget(ctx.a.tenantId, budget)
      expect(full?.totals, callLabel('getBudget', 'A', budget)).toEqual({
        softwareTotal: 201,
        hardwareTotal: 250.25,
        labourTotal: 599.99,
        subscriptionTotal: 360.18,
        otherTotal: 0,
        grandTotal: 1411.42,
      })
      expect(full?.lineItemCount, callLabel('getBudget', 'A', budget)).toBe(6)
      const created = full?.lineItems.map((item) => item.createdAt) ?? []
      expect(created, `${callLabel('getBudget', 'A', budget)} lineItems oldest first`).toEqual([...created].sort())
      const empty = await ctx.store.getBudget(ctx.a.tenantId, emptyBudget)
      expect(empty?.lineItems, callLabel('getBudget', 'A', emptyBudget)).toEqual([])
      expect(empty?.totals.grandTotal, callLabel('getBudget', 'A', emptyBudget)).toBe(0)
    })

    it('getTrainingCourse counts enrollments; getGoal orders tasks oldest and updates newest first', async () => {
      const counts = []
      for (const id of ctx.a.ids.courses)
        counts.push((await ctx.store.getTrainingCourse(ctx.a.tenantId, id))?.enrollmentCount)
      expect(counts, `getTrainingCourse(A, each course).enrollmentCount`).toEqual([3, 2, 1])
      const goal = await ctx.store.getGoal(ctx.a.tenantId, ctx.a.ids.goals[0]!)
      const label = callLabel('getGoal', 'A', ctx.a.ids.goals[0])
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

    it('getNpsSurvey computes responseCount and statistics', async () => {
      const { full, empty } = ctx.a.ids.npsSurveys
      const survey = await ctx.store.getNpsSurvey(ctx.a.tenantId, full)
      expect([survey?.responseCount, survey?.inviteCount], callLabel('getNpsSurvey', 'A', full)).toEqual([7, 9])
      expect(survey?.statistics, callLabel('getNpsSurvey', 'A', full)).toEqual({
        npsScore: 14,
        averageScore: 7.14,
        responseRate: 77.78,
        promotersCount: 3,
        passivesCount: 2,
        detractorsCount: 2,
      })
      const none = await ctx.store.getNpsSurvey(ctx.a.tenantId, empty)
      expect(none?.responseCount, callLabel('getNpsSurvey', 'A', empty)).toBe(0)
    })

    it('getReportTemplate returns templateStructure only when includeStructure', async () => {
      const id = ctx.a.ids.reportTemplates[0]!
      const bare = await ctx.store.getReportTemplate(ctx.a.tenantId, id, false)
      expect(bare && 'templateStructure' in bare, callLabel('getReportTemplate', 'A', id, false)).toBe(false)
      const full = await ctx.store.getReportTemplate(ctx.a.tenantId, id, true)
      const seeded = fixtureSeed('a').reportTemplates!.find((template) => template.id === id)!.templateStructure
      expect(full?.templateStructure, callLabel('getReportTemplate', 'A', id, true)).toEqual(seeded)
    })

    it('every get returns a record in the shape of its model schema', async () => {
      const t = ctx.a.tenantId
      const ids = ctx.a.ids
      const gets: Array<[string, string, v.GenericSchema, () => Promise<unknown>]> = [
        ['getTicket', ids.ticketNumber, TicketWithNotesSchema, () => ctx.store.getTicket(t, ids.ticketNumber, 25)],
        ['getTicket', ids.tickets[1]!, TicketWithNotesSchema, () => ctx.store.getTicket(t, ids.tickets[1]!, null)],
        ['getBudget', ids.budget, BudgetSchema, () => ctx.store.getBudget(t, ids.budget)],
        ['getReportType', ids.reportTypes[0]!, ReportTypeSchema, () => ctx.store.getReportType(t, ids.reportTypes[0]!)],
        [
          'getReportTemplate',
          ids.reportTemplates[0]!,
          ReportTemplateDetailSchema,
          () => ctx.store.getReportTemplate(t, ids.reportTemplates[0]!, true),
        ],
        [
          'getComplianceTemplate',
          ids.complianceTemplates[0]!,
          ComplianceTemplateSchema,
          () => ctx.store.getComplianceTemplate(t, ids.complianceTemplates[0]!),
        ],
        [
          'getComplianceCheck',
          ids.complianceCheck,
          ComplianceCheckSchema,
          () => ctx.store.getComplianceCheck(t, ids.complianceCheck),
        ],
        [
          'getTrainingCourse',
          ids.courses[0]!,
          TrainingCourseSchema,
          () => ctx.store.getTrainingCourse(t, ids.courses[0]!),
        ],
        ['getGoal', ids.goals[0]!, GoalSchema, () => ctx.store.getGoal(t, ids.goals[0]!)],
        ['getNpsSurvey', ids.npsSurveys.full, NpsSurveySchema, () => ctx.store.getNpsSurvey(t, ids.npsSurveys.full)],
        [
          'getPlannerItemType',
          ids.plannerTypes[0]!,
          PlannerItemTypeSchema,
          () => ctx.store.getPlannerItemType(t, ids.plannerTypes[0]!),
        ],
      ]
      for (const [method, id, schema, get] of gets)
        expect(shapeProblems(schema, await get()), `${callLabel(method, 'A', id)} does not match the model`).toEqual([])
    })

    it('every other get returns the record of its id, and null for an unknown one', async () => {
      const ids = ctx.a.ids
      const unknown = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f'
      const gets: Array<[string, (id: string) => Promise<{ id: string } | null>, string]> = [
        ['getAutomationRule', (id) => ctx.store.getAutomationRule(ctx.a.tenantId, id), ids.rule],
        ['getReport', (id) => ctx.store.getReport(ctx.a.tenantId, id), ids.report],
        ['getReportType', (id) => ctx.store.getReportType(ctx.a.tenantId, id), ids.reportTypes[0]!],
        [
          'getComplianceTemplate',
          (id) => ctx.store.getComplianceTemplate(ctx.a.tenantId, id),
          ids.complianceTemplates[0]!,
        ],
        ['getComplianceCheck', (id) => ctx.store.getComplianceCheck(ctx.a.tenantId, id), ids.complianceCheck],
        ['getPlannerItemType', (id) => ctx.store.getPlannerItemType(ctx.a.tenantId, id), ids.plannerTypes[0]!],
        ['getTrainingCourse', (id) => ctx.store.getTrainingCourse(ctx.a.tenantId, id), ids.courses[0]!],
        ['getGoal', (id) => ctx.store.getGoal(ctx.a.tenantId, id), ids.goals[0]!],
        ['getBudget', (id) => ctx.store.getBudget(ctx.a.tenantId, id), ids.budget],
      ]
      for (const [method, get, id] of gets) {
        expect((await get(id))?.id, callLabel(method, 'A', id)).toBe(id)
        expect(await get(unknown), callLabel(method, 'A', unknown)).toBeNull()
      }
    })
  })

  describe('store: writes', () => {
    it('updateBudget applies the supplied fields, notes: null clears, sets updatedAt; null when unknown', async () => {
      const { tenantId } = await ctx.fresh(writableSeed('a'))
      const { budget } = ctx.a.ids
      const before = await ctx.store.getBudget(tenantId, budget)
      const patch = { title: 'Renamed', notes: 'Kept' }
      const updated = await ctx.store.updateBudget(tenantId, budget, patch, at(20))
      const label = callLabel('updateBudget', 't', budget, patch, at(20))
      expect(updated, label).toEqual({ ...before, title: 'Renamed', notes: 'Kept', updatedAt: at(20) })
      expect(await ctx.store.getBudget(tenantId, budget), `getBudget after ${label}`).toEqual(updated)
      const cleared = await ctx.store.updateBudget(tenantId, budget, { notes: null }, at(21))
      expect(cleared?.notes, callLabel('updateBudget', 't', budget, { notes: null }, at(21))).toBeNull()
      expect(cleared?.title, 'updateBudget keeps the fields it was not given').toBe('Renamed')
      const unknown = ctx.a.ids.emptyBudget.replace(/.$/, 'f')
      expect(
        await ctx.store.updateBudget(tenantId, unknown, patch, at(22)),
        callLabel('updateBudget', 't', unknown),
      ).toBeNull()
    })

    it('addBudgetLineItem appends, recomputes totals and sets the budget’s updatedAt; false when unknown', async () => {
      const { tenantId } = await ctx.fresh(writableSeed('a'))
      const { emptyBudget } = ctx.a.ids
      for (const n of [1, 2]) {
        const item = lineItem(n, at(25, n))
        expect(
          await ctx.store.addBudgetLineItem(tenantId, emptyBudget, item),
          callLabel('addBudgetLineItem', 't', emptyBudget, item),
        ).toBe(true)
      }
      const budget = await ctx.store.getBudget(tenantId, emptyBudget)
      const label = `getBudget after two addBudgetLineItem calls`
      expect(
        budget?.lineItems.map((item) => item.description),
        label,
      ).toEqual(['Added 1', 'Added 2'])
      expect([budget?.lineItemCount, budget?.totals.softwareTotal, budget?.updatedAt], label).toEqual([
        2,
        480,
        at(25, 2),
      ])
      const unknown = emptyBudget.replace(/.$/, 'f')
      expect(
        await ctx.store.addBudgetLineItem(tenantId, unknown, lineItem(3, at(26))),
        callLabel('addBudgetLineItem', 't', unknown),
      ).toBe(false)
    })

    it('insertAutomationRule, then replaceAutomationRule only at the expected version (compare-and-set)', async () => {
      const { tenantId } = await ctx.fresh(writableSeed('a'))
      const seeded = (await ctx.store.getAutomationRule(tenantId, ctx.a.ids.rule))!
      const rule = { ...seeded, id: fixtureId('a', 0x11, 0x200), name: 'Inserted', version: 1 }
      await ctx.store.insertAutomationRule(tenantId, rule)
      expect(
        await ctx.store.getAutomationRule(tenantId, rule.id),
        `getAutomationRule after insertAutomationRule`,
      ).toEqual(rule)
      const next = { ...rule, name: 'Replaced', version: 2 }
      expect(
        await ctx.store.replaceAutomationRule(tenantId, next, 1),
        callLabel('replaceAutomationRule', 't', '{…version: 2}', 1),
      ).toBe(true)
      const stale = { ...rule, name: 'Stale', version: 2 }
      expect(
        await ctx.store.replaceAutomationRule(tenantId, stale, 1),
        callLabel('replaceAutomationRule', 't', '{…stale}', 1),
      ).toBe(false)
      expect(await ctx.store.getAutomationRule(tenantId, rule.id), 'getAutomationRule after a refused replace').toEqual(
        next,
      )
      const gone = { ...rule, id: fixtureId('a', 0x11, 0x201) }
      expect(await ctx.store.replaceAutomationRule(tenantId, gone, 1), 'replaceAutomationRule of an unknown rule').toBe(
        false,
      )
    })

    it('replaceReport only at the expected version (compare-and-set); false when unknown', async () => {
      const { tenantId } = await ctx.fresh(writableSeed('a'))
      const seeded = (await ctx.store.getReport(tenantId, ctx.a.ids.report))!
      const next = { ...seeded, title: 'Replaced', version: seeded.version + 1 }
      const label = callLabel('replaceReport', 't', `{…version: ${next.version}}`, seeded.version)
      expect(await ctx.store.replaceReport(tenantId, next, seeded.version), label).toBe(true)
      expect(
        await ctx.store.replaceReport(tenantId, { ...next, title: 'Stale' }, seeded.version),
        `${label} again`,
      ).toBe(false)
      expect(await ctx.store.getReport(tenantId, seeded.id), `getReport after ${label}`).toEqual(next)
      const gone = { ...next, id: fixtureId('a', 0x0a, 0x200) }
      expect(await ctx.store.replaceReport(tenantId, gone, next.version), 'replaceReport of an unknown report').toBe(
        false,
      )
    })

    it('deleteTrainingEnrollment removes once (true, then false) and the course count follows', async () => {
      const { tenantId } = await ctx.fresh(writableSeed('a'))
      const id = ctx.a.ids.enrollments[0]!
      const seeded = fixtureSeed('a').trainingEnrollments!.find((enrollment) => enrollment.id === id)!
      const courseId = (seeded as { course: { id: string } }).course.id
      const before = (await ctx.store.getTrainingCourse(tenantId, courseId))!.enrollmentCount
      expect(
        await ctx.store.deleteTrainingEnrollment(tenantId, id),
        callLabel('deleteTrainingEnrollment', 't', id),
      ).toBe(true)
      expect(
        await ctx.store.deleteTrainingEnrollment(tenantId, id),
        `${callLabel('deleteTrainingEnrollment', 't', id)} again`,
      ).toBe(false)
      const after = (await ctx.store.getTrainingCourse(tenantId, courseId))!.enrollmentCount
      expect(after, `getTrainingCourse(t, ${courseId}).enrollmentCount after the delete`).toBe(before - 1)
      const list = await ctx.store.listTrainingEnrollments(
        tenantId,
        v.parse(TrainingEnrollmentListQuerySchema, { limit: '100' }),
      )
      expect(
        list.items.map((item) => item.id),
        'listTrainingEnrollments after the delete',
      ).not.toContain(id)
    })

    it('findCompanies returns the tenant’s companies among the ids, ignoring unknown and foreign ones', async () => {
      const ids = [
        ctx.a.ids.companies[2]!,
        '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f',
        ctx.b.ids.companies[0]!,
        ctx.a.ids.companies[0]!,
      ]
      const found = await ctx.store.findCompanies(ctx.a.tenantId, ids)
      const sorted = [...found].sort((x, y) => (x.id < y.id ? -1 : 1))
      expect(sorted, callLabel('findCompanies', 'A', ids)).toEqual([
        { id: ctx.a.ids.companies[0], name: 'Acme' },
        { id: ctx.a.ids.companies[2], name: 'Zeta' },
      ])
      expect(await ctx.store.findCompanies(ctx.a.tenantId, []), callLabel('findCompanies', 'A', [])).toEqual([])
    })

    it('seed replaces a record seeded again under the same id, and recomputes derived fields', async () => {
      const { tenantId } = await ctx.fresh(writableSeed('a'))
      const companies = fixtureSeed('a').companies!
      const first = companies[0]!
      await ctx.store.seed(tenantId, { companies: [{ ...first, name: 'Acme renamed' }] })
      const found = await ctx.store.findCompanies(tenantId, [first.id as string])
      expect(found, `findCompanies after seed(t, { companies: [{ id: ${first.id}, name: 'Acme renamed' }] })`).toEqual([
        { id: first.id, name: 'Acme renamed' },
      ])
      const list = await ctx.store.listCompanies(tenantId, v.parse(CompanyListQuerySchema, { limit: '100' }))
      expect(list.totalCount, 'listCompanies(t).totalCount after seeding an id again').toBe(companies.length)
      const course = fixtureSeed('a').trainingCourses!.find((candidate) => candidate.id === ctx.a.ids.courses[0])!
      const trainingCourses = [{ ...course, enrollmentCount: 99 }]
      await ctx.store.seed(tenantId, { trainingCourses } as SeedData)
      const reseeded = await ctx.store.getTrainingCourse(tenantId, course.id as string)
      expect(reseeded?.enrollmentCount, 'getTrainingCourse after seeding enrollmentCount: 99').toBe(3)
    })
  })
}
