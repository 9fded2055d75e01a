/**
 * What the events feed records (docs/extensions.md, section 2): every API write once, with its actor,
 * request id and object, and nothing for a refused one; a seed's new records, changes on re-seeding
 * and removals by the sync actor, and nothing for a seed with `events: false`.
 */
import { expect, it } from 'vitest'
import * as model from '../../model/index.js'
import type { Reply } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { feed, last, SYNC } from './events-kit.js'
import { sortedFixtureIds } from './fixture-ids.js'
import { at, fixtureSeed, MINIMAL_LINE_ITEM, MINIMAL_RULE, writableSeed } from './fixtures.js'

/**
 * Registers the tests of what API writes record: each write once, with the key as actor, the
 * request id and the object as answered; nothing for a write that is refused.
 *
 * @example
 * apiWriteEvents(ctx)
 */
export function apiWriteEvents(ctx: ConformanceContext): void {
  it('records each API write once, with the key as actor, the request id and the object as answered', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const ids = ctx.a.ids
    const start = await last(h)
    const actor = {
      type: 'api_key',
      keyId: `test:${tenantId}:*`,
      id: '00000000-0000-4000-8000-00000000a11c',
      name: 'Test Key',
    }
    const budgetBefore = await ctx.store.get(model.budgets, tenantId, ids.budget)
    const item = await h.call<Reply<'createBudgetLineItem'>>('POST', `/budgets/${ids.budget}/items`, {
      body: MINIMAL_LINE_ITEM,
    })
    const budget = await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ids.budget}`, {
      body: { title: 'Renamed' },
    })
    const created = await h.call<Reply<'createAutomationRule'>>('POST', '/automation', { body: MINIMAL_RULE })
    const rule = await h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${created.body.data.id}`, {
      body: { name: 'Renamed rule' },
    })
    const report = await h.call<Reply<'updateReport'>>('PATCH', `/reports/${ids.report}`, {
      body: { title: 'Renamed report' },
    })
    const removed = await h.call<Reply<'deleteTrainingEnrollment'>>(
      'DELETE',
      `/training/enrollments/${ids.enrollments[0]}`,
    )
    const calls = [item, budget, created, rule, report, removed]
    for (const call of calls) expect(call.status).toBeLessThan(300)
    const seen = await feed(h, start)
    expect(seen.map((e) => e.type)).toEqual([
      'budget_line_item.created',
      'budget.updated',
      'automation_rule.created',
      'automation_rule.updated',
      'report.updated',
      'training_enrollment.deleted',
    ])
    seen.forEach((event, i) => {
      expect(event.actor).toEqual(actor)
      expect(event.requestId).toBe(calls[i]!.headers.get('x-request-id'))
      expect(event.id).toMatch(/^evt_\d{12}$/)
      expect(Number.isNaN(Date.parse(event.createdAt))).toBe(false)
    })
    expect(seen.map((e) => e.data.object)).toEqual([
      item.body.data,
      budget.body.data,
      created.body.data,
      rule.body.data,
      report.body.data,
      null,
    ])
    expect(seen.map((e) => e.resource.id)).toEqual([
      item.body.data.id,
      ids.budget,
      created.body.data.id,
      created.body.data.id,
      ids.report,
      ids.enrollments[0],
    ])
    expect(seen[0]!.data.previous).toBeNull()
    expect(seen[1]!.data.previous).toMatchObject({ title: budgetBefore!.title })
    // updatedAt too, unless the PATCH fell in the creating millisecond.
    for (const field of Object.keys(seen[3]!.data.previous!)) expect(['name', 'updatedAt', 'version']).toContain(field)
    expect(seen[3]!.data.previous).toMatchObject({ name: 'Minimal rule', version: 1 })
    expect(seen[5]!.data.previous).toBeNull()
  })

  it('records nothing for a write that is refused', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const start = await last(h)
    expect(
      (
        await h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ctx.a.ids.rule}`, {
          body: { name: 'x' },
          headers: { 'if-match': '"1"' },
        })
      ).status,
    ).toBe(412)
    expect(
      (await h.call<Reply<'deleteTrainingEnrollment'>>('DELETE', `/training/enrollments/${crypto.randomUUID()}`))
        .status,
    ).toBe(404)
    expect(await feed(h, start)).toEqual([])
  })
}

/**
 * Registers the tests of what the host's sync records: a seed's new records as created, changes on
 * re-seeding with their old values, removals as deleted, and nothing with `events: false`.
 *
 * @example
 * syncEvents(ctx)
 */
export function syncEvents(ctx: ConformanceContext): void {
  it('records a seed’s new records as created, by the sync actor, with the object as the API shows it', async () => {
    const { tenantId, h } = await ctx.fresh(fixtureSeed('a'))
    const seen = await feed(h)
    for (const event of seen) {
      expect(event.actor).toEqual(SYNC)
      expect(event.requestId).toBeNull()
      expect(event.type).toMatch(/\.created$/)
      expect(event.data.previous).toBeNull()
    }
    // Every seeded collection with events records its records' creation; children (line items) ride in theirs.
    const types = new Set(seen.map((e) => e.type.split('.')[0]))
    const evented = model.SEEDED_COLLECTIONS.flatMap((c) => (c.event === null ? [] : [c.event.resource]))
    expect([...types].sort()).toEqual([...evented].sort())
    for (const collection of model.SEEDED_COLLECTIONS) {
      if (collection.event === null) continue
      const created = seen.filter((e) => e.resource.type === collection.event?.resource).map((e) => e.resource.id)
      expect(created.sort(), `${collection.name}: one created event per fixture record`).toEqual(
        sortedFixtureIds('a', collection.name),
      )
    }
    const ticket = seen.find((e) => e.resource.type === 'ticket' && e.resource.id === ctx.a.ids.tickets[0])
    expect(ticket?.data.object).toEqual(
      (await h.call<Reply<'getTicket'>>('GET', `/tickets/${ctx.a.ids.tickets[0]}`)).body.data,
    )
    const course = seen.find((e) => e.resource.type === 'training_course' && e.resource.id === ctx.a.ids.courses[0])
    expect(course?.data.object).toEqual(
      (await h.call<Reply<'getTrainingCourse'>>('GET', `/training/courses/${ctx.a.ids.courses[0]}`)).body.data,
    )
    const survey = seen.find((e) => e.resource.id === ctx.a.ids.npsSurveys.full)
    expect(survey?.data.object).toEqual(
      (await h.call<Reply<'getNpsSurvey'>>('GET', `/surveys/nps/${ctx.a.ids.npsSurveys.full}`)).body.data,
    )
    const budget = seen.find((e) => e.resource.type === 'budget' && e.resource.id === ctx.a.ids.budget)
    expect(budget?.data.object).toEqual(await ctx.store.get(model.budgets, tenantId, ctx.a.ids.budget))
  })

  it('detects changes on re-seeding: unchanged records record nothing, changed ones their old values', async () => {
    const seed = writableSeed('a')
    const { tenantId, h } = await ctx.fresh(seed)
    const start = await last(h)
    await ctx.store.seed(tenantId, seed)
    expect(await feed(h, start)).toEqual([])
    const company = seed.companies![0]!
    await ctx.store.seed(tenantId, { companies: [{ ...company, name: 'Renamed Co', updatedAt: at(30) }] })
    const [changed, ...rest] = await feed(h, start)
    expect(rest).toEqual([])
    expect(changed?.type).toBe('company.updated')
    expect(changed?.actor).toEqual(SYNC)
    expect(changed?.data.previous).toEqual({ name: company.name, updatedAt: company.updatedAt })
    expect(changed?.data.object).toMatchObject({ id: company.id, name: 'Renamed Co' })
  })

  it('records removals as deleted events, and nothing for unknown ids', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const start = await last(h)
    await ctx.store.remove(tenantId, {
      companies: [ctx.a.ids.companies[1]!, 'no-such-company'],
      budgets: [ctx.a.ids.budget],
    })
    const seen = await feed(h, start)
    expect(seen.map((e) => [e.type, e.resource.id, e.data.object, e.actor])).toEqual([
      ['budget.deleted', ctx.a.ids.budget, null, SYNC],
      ['company.deleted', ctx.a.ids.companies[1], null, SYNC],
    ])
  })

  it('records nothing for a seed with events: false', async () => {
    const { tenantId, h } = await ctx.fresh({})
    await ctx.store.seed(tenantId, writableSeed('a'), { events: false })
    expect(await feed(h)).toEqual([])
    expect((await h.call<Reply<'listCompanies'>>('GET', '/companies')).body.data.length).toBeGreaterThan(0)
  })
}
