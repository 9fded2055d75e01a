/**
 * The events feed (docs/extensions.md, sections 2 and 3): every API write and every sync change
 * recorded once with its actor and data, change detection on re-seeding, the feed's order,
 * cursors, `types` filter, scopes, tenant isolation, validation and retention (410).
 */
import { describe, expect, it } from 'vitest'
import type { Scope } from '../../http/auth.js'
import type { Event } from '../../model/events.js'
import type { Store } from '../../ports/store.js'
import type { Harness, Reply, ValidationErrorReply } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { at, fixtureSeed, MINIMAL_LINE_ITEM, MINIMAL_RULE, writableSeed } from './fixtures.js'
import * as model from '../../model/index.js'

/** Every event of the feed after `after`, walked by cursor. */
async function feed(h: Harness, after?: string, extra = ''): Promise<Event[]> {
  const out: Event[] = []
  let cursor = after
  for (;;) {
    const query = `limit=100${cursor === undefined ? '' : `&after=${cursor}`}${extra}`
    const { status, body } = await h.call<Reply<'listEvents'>>('GET', `/events?${query}`)
    expect(status, JSON.stringify(body)).toBe(200)
    out.push(...body.data)
    if (!body.pagination.hasNextPage) return out
    cursor = body.pagination.nextCursor ?? undefined
  }
}

/** The id of the newest event, or undefined before any. */
async function last(h: Harness): Promise<string | undefined> {
  const { body } = await h.call<Reply<'listEvents'>>('GET', '/events?order=desc&limit=1')
  return body.data[0]?.id
}

const SYNC = { type: 'sync' }

/** The default byte budget of an events page (docs/extensions.md, section 3). */
const PAGE_BYTES = 1024 * 1024
const utf8 = new TextEncoder()
/** The UTF-8 bytes of `value`'s JSON, as the API sends it. */
const bytesOf = (value: unknown) => utf8.encode(JSON.stringify(value)).length

/**
 * A ticket whose event is about `size` bytes of JSON: its description `chars` characters, each of
 * `unit` (`€` is three bytes in UTF-8: a store that counted characters would take one char for one byte).
 */
function bigTicket(n: number, unit: 'x' | '€', chars: number) {
  return {
    id: `00000000-0000-4000-8000-b16${String(n).padStart(9, '0')}`,
    ticketNumber: `BIG-${n}`,
    title: `Big ticket ${n}`,
    status: 'Open',
    priority: 'Low',
    isClosed: false,
    provider: 'psa_a' as const,
    createdAt: at(40, 0, n),
    description: unit.repeat(chars),
  }
}

/**
 * Walks the feed from its start to an empty page with `query`, checking every page against the byte
 * budget: at least one event, events within the budget unless one alone passes it, and no page cut
 * short while its next event would still have fit. Every non-empty page but the last says
 * `hasNextPage`; the empty page ends the walk.
 */
async function walkWithinBudget(h: Harness, query: string, limit: number): Promise<Event[]> {
  const pages: Event[][] = []
  let cursor: string | undefined
  for (;;) {
    const { status, body } = await h.call<Reply<'listEvents'>>(
      'GET',
      `/events?limit=${limit}&${query}${cursor === undefined ? '' : `&after=${cursor}`}`,
    )
    expect(status).toBe(200)
    const sizes = body.data.map(bytesOf)
    const total = sizes.reduce((sum, size) => sum + size, 0)
    const label = `${query} page ${pages.length}: ${sizes.join(' + ')} bytes`
    expect(body.data.length, label).toBeLessThanOrEqual(limit)
    expect(bytesOf(body), label).toBeLessThanOrEqual(PAGE_BYTES + Math.max(0, ...sizes) + 200)
    if (body.data.length > 1) expect(total, label).toBeLessThanOrEqual(PAGE_BYTES)
    const previous = pages.at(-1)
    if (previous !== undefined && previous.length < limit && body.data.length > 0) {
      // The previous page stopped for the budget: this page's first event would have passed it.
      expect(previous.map(bytesOf).reduce((sum, size) => sum + size, 0) + sizes[0]!, label).toBeGreaterThan(PAGE_BYTES)
    }
    if (body.data.length === 0) {
      expect(body.pagination).toEqual({ limit, hasNextPage: false, nextCursor: null })
      return pages.flat()
    }
    pages.push(body.data)
    expect(body.pagination.nextCursor).toBe(body.data.at(-1)!.id)
    cursor = body.pagination.nextCursor!
    if (!body.pagination.hasNextPage) {
      const after = await h.call<Reply<'listEvents'>>('GET', `/events?limit=${limit}&${query}&after=${cursor}`)
      expect(after.body.data, `${label}: hasNextPage false, yet more events`).toEqual([])
    }
  }
}

/**
 * Registers the events tests. `createStoreWithRetention`, when given, makes a second store of the
 * kind under test whose events expire after the given milliseconds (for the 410 test).
 *
 * @example
 * events(ctx)
 */
export function events(
  ctx: ConformanceContext,
  createStoreWithRetention?: (eventRetentionMs: number) => Store | Promise<Store>,
): void {
  describe('events feed', () => {
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
      for (const field of Object.keys(seen[3]!.data.previous!))
        expect(['name', 'updatedAt', 'version']).toContain(field)
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

    it('records a seed’s new records as created, by the sync actor, with the object as the API shows it', async () => {
      const { tenantId, h } = await ctx.fresh(fixtureSeed('a'))
      const seen = await feed(h)
      for (const event of seen) {
        expect(event.actor).toEqual(SYNC)
        expect(event.requestId).toBeNull()
        expect(event.type).toMatch(/\.created$/)
        expect(event.data.previous).toBeNull()
      }
      const types = new Set(seen.map((e) => e.type.split('.')[0]))
      expect([...types].sort()).toEqual(
        [
          'automation_rule',
          'budget',
          'company',
          'compliance_check',
          'compliance_template',
          'goal',
          'meeting_type',
          'nps_survey',
          'planner_item_type',
          'report',
          'report_template',
          'ticket',
          'training_course',
          'training_enrollment',
          'user',
        ].sort(),
      )
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

    it('orders oldest first by default and newest first with order=desc, pages by cursor both ways', async () => {
      const { h } = await ctx.fresh(writableSeed('a'))
      const all = await feed(h)
      expect(all.length).toBeGreaterThan(5)
      const ids = all.map((e) => e.id)
      expect([...ids].sort()).toEqual(ids)
      const first = await h.call<Reply<'listEvents'>>('GET', '/events?limit=2')
      expect(first.body.data.map((e: Event) => e.id)).toEqual(ids.slice(0, 2))
      expect(first.body.pagination).toEqual({ limit: 2, hasNextPage: true, nextCursor: ids[1] })
      const next = await h.call<Reply<'listEvents'>>('GET', `/events?limit=2&after=${ids[1]}`)
      expect(next.body.data.map((e: Event) => e.id)).toEqual(ids.slice(2, 4))
      const newest = await h.call<Reply<'listEvents'>>('GET', '/events?order=desc&limit=3')
      expect(newest.body.data.map((e: Event) => e.id)).toEqual(ids.slice(-3).reverse())
      const older = await h.call<Reply<'listEvents'>>('GET', `/events?order=desc&limit=100&after=${ids.at(-3)}`)
      expect(older.body.data.map((e: Event) => e.id)).toEqual(ids.slice(0, -3).reverse())
      expect(older.body.pagination.hasNextPage).toBe(false)
      const end = await h.call<Reply<'listEvents'>>('GET', `/events?after=${ids.at(-1)}`)
      expect(end.body).toEqual({ data: [], pagination: { limit: 25, hasNextPage: false, nextCursor: null } })
    })

    it('filters by types', async () => {
      const { h } = await ctx.fresh(writableSeed('a'))
      const all = await feed(h)
      const some = await feed(h, undefined, '&types=company.created,goal.created')
      expect(some).toEqual(all.filter((e) => e.type === 'company.created' || e.type === 'goal.created'))
      expect(some.length).toBeGreaterThan(0)
    })

    it('stops each page at the byte budget, holding one event at least; a walk by cursor sees every event once', {
      timeout: 120_000,
    }, async () => {
      // Events of about 2 MB, 600 KB, 300 KB and less, some of three-byte characters, between companies.
      const { tenantId, h } = await ctx.fresh({})
      const company = writableSeed('a').companies![0]!
      const companies = [0, 1].map((n) => ({
        ...company,
        id: `00000000-0000-4000-8000-c0${String(n).padStart(10, '0')}`,
      }))
      const seeds = [
        { tickets: [bigTicket(1, '€', 700_000), bigTicket(2, 'x', 300_000), bigTicket(3, 'x', 300_000)] },
        { companies: [companies[0]!] },
        { tickets: [bigTicket(4, '€', 700_000), bigTicket(5, 'x', 2_000_000), bigTicket(6, '€', 210_000)] },
        { tickets: [bigTicket(7, 'x', 300_000)] },
        { companies: [companies[1]!] },
        { tickets: [bigTicket(8, '€', 50_000), bigTicket(9, 'x', 1_000)] },
      ]
      for (const seed of seeds) await ctx.store.seed(tenantId, seed)
      const expected = seeds.flatMap((seed) => [...(seed.tickets ?? []), ...(seed.companies ?? [])].map((r) => r.id))
      const ids = (events: Event[]) => events.map((e) => e.resource.id)
      expect(ids(await walkWithinBudget(h, 'order=asc', 100))).toEqual(expected)
      expect(ids(await walkWithinBudget(h, 'order=desc', 100))).toEqual([...expected].reverse())
      const tickets = expected.filter((id) => !companies.some((c) => c.id === id))
      expect(ids(await walkWithinBudget(h, 'types=ticket.created', 100))).toEqual(tickets)
      expect(ids(await walkWithinBudget(h, 'order=desc&types=ticket.created,company.created', 2))).toEqual(
        [...expected].reverse(),
      )
      // One page of the whole feed is what a store gives within the budget, not 100 events.
      const first = await h.call<Reply<'listEvents'>>('GET', '/events?limit=100')
      expect(ids(first.body.data)).toEqual(expected.slice(0, 1))
      expect(first.body.pagination.hasNextPage).toBe(true)
    })

    it('shows a key only the events of resources it may read; types it may not read are a 403', async () => {
      const { tenantId } = await ctx.fresh(writableSeed('a'))
      const only = (scopes: Scope[]) => ctx.client(tenantId, scopes)
      const budgetsOnly = await feed(only(['events.read', 'budgets.write']))
      expect(budgetsOnly.length).toBeGreaterThan(0)
      expect(new Set(budgetsOnly.map((e) => e.resource.type))).toEqual(new Set(['budget']))
      const companiesOnly = await feed(only(['events.read', 'companies.read']))
      expect(new Set(companiesOnly.map((e) => e.resource.type))).toEqual(new Set(['company']))
      expect(await feed(only(['events.read']))).toEqual([])
      const denied = await only(['events.read', 'companies.read']).call<Reply<'listEvents'>>(
        'GET',
        '/events?types=company.created,budget.updated',
      )
      expect([denied.status, denied.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE'])
      const noScope = await only(['companies.read']).call<Reply<'listEvents'>>('GET', '/events')
      expect([noScope.status, noScope.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE'])
    })

    it('keeps each tenant’s feed to itself', async () => {
      const x = await ctx.fresh(writableSeed('a'))
      const y = await ctx.fresh(writableSeed('a'))
      const before = await feed(y.h)
      await x.h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ctx.a.ids.budget}`, { body: { title: 'Only in X' } })
      await ctx.store.remove(x.tenantId, { companies: [ctx.a.ids.companies[0]!] })
      expect(await feed(y.h)).toEqual(before)
      expect(JSON.stringify(await feed(y.h))).not.toContain('Only in X')
      const xs = await feed(x.h)
      expect(xs.slice(-2).map((e) => e.type)).toEqual(['budget.updated', 'company.deleted'])
    })

    it('refuses bad parameters with a 400 on the parameter', async () => {
      const { h } = await ctx.fresh(writableSeed('a'))
      const newest = await last(h)
      const beyond = `evt_${String(Number(newest!.slice(4)) + 1).padStart(12, '0')}`
      const cases: [string, string][] = [
        ['after=nope', 'after'],
        ['after=evt_000000000000', 'after'],
        [`after=${beyond}`, 'after'],
        ['order=up', 'order'],
        ['types=ticket.exploded', 'types'],
        ['types=', 'types'],
        [`types=${Array.from({ length: 21 }, () => 'ticket.created').join(',')}`, 'types'],
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['page=2', 'page'],
      ]
      for (const [query, path] of cases) {
        const { status, body } = await h.call<ValidationErrorReply>('GET', `/events?${query}`)
        expect([status, body.code], query).toEqual([400, 'VALIDATION_ERROR'])
        expect(
          body.details.map((d) => d.path),
          query,
        ).toContain(path)
      }
      expect((await h.call('GET', '/events?limit=100&types=company.created')).status).toBe(200)
    })

    if (createStoreWithRetention !== undefined)
      it('prunes events past the retention; a cursor whose following events are gone is a 410', async () => {
        const store = await createStoreWithRetention(300)
        try {
          const tenantId = `retention-${crypto.randomUUID()}`
          const h = ctx.clientOver(store, tenantId)
          await store.seed(tenantId, writableSeed('a'))
          const old = await feed(h)
          await new Promise((resolve) => setTimeout(resolve, 400))
          await store.seed(tenantId, { companies: [{ ...writableSeed('a').companies![0]!, name: 'Fresh' }] })
          const kept = await feed(h)
          expect(kept.map((e) => e.type)).toEqual(['company.updated'])
          const expired = await h.call<Reply<'listEvents'>>('GET', `/events?after=${old[0]!.id}`)
          expect([expired.status, expired.body.code]).toEqual([410, 'CURSOR_EXPIRED'])
          const older = await h.call<Reply<'listEvents'>>('GET', `/events?order=desc&after=${old.at(-1)!.id}`)
          expect([older.status, older.body.code]).toEqual([410, 'CURSOR_EXPIRED'])
          expect((await h.call<Reply<'listEvents'>>('GET', `/events?after=${old.at(-1)!.id}`)).body.data).toEqual(kept)
        } finally {
          await store.close()
        }
      })
  })
}
