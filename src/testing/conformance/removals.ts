/**
 * Host removals (docs/extensions.md, section 2): `store.remove(tenantId, ids)` removes exactly the
 * named records of one tenant, whatever the collection; unknown ids are ignored; a budget's line
 * items go with it; the same ids in another tenant stay.
 */
import { describe, expect, it } from 'vitest'
import type { RemoveIds, SeedKey } from '../../model/removal.js'
import type { SeedData } from '../../model/seed.js'
import type { Store } from '../../ports/store.js'
import type { Harness, Reply } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { type FixtureIds, fixtureSeed } from './fixtures.js'
import { automationRules, budgets, reportTypes, reports } from '../../model/index.js'

/** Whether the record `id` of a collection is still there, read through the API where it has a read. */
type Probe = (ctx: ConformanceContext, tenantId: string, h: Harness, id: string) => Promise<boolean>

const listed =
  (path: string): Probe =>
  async (_ctx, _tenantId, h, id) => {
    const { status, body } = await h.call<{ data: { id: string }[] }>('GET', `${path}?limit=100`)
    expect(status).toBe(200)
    return body.data.some((record) => record.id === id)
  }
const found =
  (path: string): Probe =>
  async (_ctx, _tenantId, h, id) => {
    const { status } = await h.call('GET', `${path}/${id}`)
    expect([200, 404]).toContain(status)
    return status === 200
  }

const stored =
  (read: (store: Store, tenantId: string, id: string) => Promise<unknown>): Probe =>
  async (ctx, tenantId, _h, id) =>
    (await read(ctx.store, tenantId, id)) !== null

/** For each collection: how to see a record, and the fixture id to remove. */
const REMOVAL_PROBES: Record<SeedKey, { probe: Probe; id: (ids: FixtureIds) => string }> = {
  tickets: { probe: found('/tickets'), id: (ids) => ids.tickets[0]! },
  // Budgets, rules and reports have no GET: the store's own reads see them.
  budgets: { probe: stored((s, t, id) => s.get(budgets, t, id)), id: (ids) => ids.budget },
  automationRules: { probe: stored((s, t, id) => s.get(automationRules, t, id)), id: (ids) => ids.rule },
  reports: { probe: stored((s, t, id) => s.get(reports, t, id)), id: (ids) => ids.report },
  reportTypes: { probe: stored((s, t, id) => s.get(reportTypes, t, id)), id: (ids) => ids.reportTypes[0]! },
  reportTemplates: { probe: found('/report-templates'), id: (ids) => ids.reportTemplates[0]! },
  complianceTemplates: { probe: found('/compliance/templates'), id: (ids) => ids.complianceTemplates[0]! },
  complianceChecks: { probe: found('/compliance/checks'), id: (ids) => ids.complianceCheck },
  trainingCourses: { probe: found('/training/courses'), id: (ids) => ids.courses[0]! },
  trainingEnrollments: { probe: listed('/training/enrollments'), id: (ids) => ids.enrollments[0]! },
  users: { probe: listed('/users'), id: (ids) => ids.users[0]! },
  companies: { probe: listed('/companies'), id: (ids) => ids.companies[0]! },
  meetingTypes: { probe: listed('/calendar/types'), id: (ids) => ids.meetingTypes[0]! },
  goals: { probe: found('/goals'), id: (ids) => ids.goals[0]! },
  npsSurveys: { probe: found('/surveys/nps'), id: (ids) => ids.npsSurveys.full },
  plannerItemTypes: { probe: found('/planner/types'), id: (ids) => ids.plannerTypes[0]! },
}

/**
 * Registers the removal tests.
 *
 * @example
 * removals(ctx)
 */
export function removals(ctx: ConformanceContext): void {
  describe('host removals (store.remove)', () => {
    for (const [key, { probe, id }] of Object.entries(REMOVAL_PROBES) as [
      SeedKey,
      (typeof REMOVAL_PROBES)[SeedKey],
    ][]) {
      it(`removes ${key} by id and leaves the others and the other tenant’s`, async () => {
        const x = await ctx.fresh(fixtureSeed('a'))
        const y = await ctx.fresh(fixtureSeed('a'))
        const target = id(ctx.a.ids)
        const kept = key === 'tickets' ? ctx.a.ids.tickets[1]! : null
        expect(await probe(ctx, x.tenantId, x.h, target)).toBe(true)
        await ctx.store.remove(x.tenantId, { [key]: [target, 'no-such-id'] } as RemoveIds)
        expect(await probe(ctx, x.tenantId, x.h, target)).toBe(false)
        expect(await probe(ctx, y.tenantId, y.h, target)).toBe(true)
        if (kept !== null) expect(await probe(ctx, x.tenantId, x.h, kept)).toBe(true)
      })
    }

    it('removes a ticket from lists, counts and lookups by number', async () => {
      const { tenantId, h } = await ctx.fresh(fixtureSeed('a'))
      const before = (await h.call<Reply<'listTickets'>>('GET', '/tickets')).body.pagination.totalCount as number
      await ctx.store.remove(tenantId, { tickets: [ctx.a.ids.tickets[0]!] })
      const after = await h.call<Reply<'listTickets'>>('GET', '/tickets?limit=100')
      expect(after.body.pagination.totalCount).toBe(before - 1)
      expect(after.body.data.map((t: { id: string }) => t.id)).not.toContain(ctx.a.ids.tickets[0])
      expect((await h.call('GET', `/tickets/${ctx.a.ids.ticketNumber}`)).status).toBe(404)
    })

    it('removes a budget’s line items with it: seeded again without items, it has none', async () => {
      const seed = fixtureSeed('a')
      const { tenantId, h } = await ctx.fresh(seed)
      const budget = seed.budgets!.find((b) => b.id === ctx.a.ids.budget)!
      await ctx.store.remove(tenantId, { budgets: [budget.id!] })
      expect(await ctx.store.get(budgets, tenantId, budget.id!)).toBeNull()
      expect((await h.call('PATCH', `/budgets/${budget.id}`, { body: { title: 'x' } })).status).toBe(404)
      const { lineItems: _items, ...bare } = budget
      await ctx.store.seed(tenantId, { budgets: [bare] })
      const stored = await ctx.store.get(budgets, tenantId, budget.id!)
      expect([stored?.lineItemCount, stored?.lineItems]).toEqual([0, []])
    })

    it('ignores unknown ids and empty lists, and refuses a key that is not a seed key', async () => {
      const { tenantId, h } = await ctx.fresh(fixtureSeed('a'))
      await ctx.store.remove(tenantId, { users: ['no-such-user'], companies: [] })
      await ctx.store.remove(`nobody-${crypto.randomUUID()}`, { users: [ctx.a.ids.users[0]!] })
      expect((await h.call<Reply<'listUsers'>>('GET', '/users?limit=100')).body.data).toHaveLength(
        ctx.a.ids.users.length,
      )
      await expect(ctx.store.remove(tenantId, { widgets: ['x'] } as RemoveIds)).rejects.toThrow(TypeError)
    })

    it('seed and remove refuse a misspelt key or a value that is not a list with a TypeError naming it', async () => {
      const { tenantId, h } = await ctx.fresh(fixtureSeed('a'))
      const before = (await h.call<Reply<'listTickets'>>('GET', '/tickets?limit=1')).body.pagination.totalCount
      const ticket = fixtureSeed('a').tickets![0]!
      const mistakes: [unknown, RegExp][] = [
        [{ tikets: [ticket] }, /unknown collection "tikets".*tickets/],
        [{ tickets: {} }, /seed tickets: must be an array of records, not an object/],
        [{ tickets: 'x' }, /seed tickets: must be an array of records, not a string/],
        [
          { budgets: [{ ...fixtureSeed('a').budgets![0]!, lineItems: {} }] },
          /seed budgets\[0\]\.lineItems: must be an array/,
        ],
        [[ticket], /must be an object of lists/],
      ]
      for (const [data, message] of mistakes) {
        const label = `seed(t, ${JSON.stringify(data).slice(0, 60)})`
        await expect(ctx.store.seed(tenantId, data as SeedData), label).rejects.toThrow(TypeError)
        await expect(ctx.store.seed(tenantId, data as SeedData), label).rejects.toThrow(message)
      }
      await expect(ctx.store.remove(tenantId, { tikets: ['x'] } as RemoveIds)).rejects.toThrow(/tikets/)
      await expect(ctx.store.remove(tenantId, { tickets: {} } as unknown as RemoveIds)).rejects.toThrow(/tickets/)
      // A refused batch writes nothing, not even its valid keys.
      await expect(ctx.store.seed(tenantId, { companies: [], tikets: [] } as SeedData)).rejects.toThrow(TypeError)
      expect((await h.call<Reply<'listTickets'>>('GET', '/tickets?limit=1')).body.pagination.totalCount).toBe(before)
    })
  })
}
