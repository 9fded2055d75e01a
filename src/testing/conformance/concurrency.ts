/**
 * Atomicity under concurrency: concurrent PATCHes of one rule or report never lose an update and
 * produce strictly consecutive versions; concurrent line item POSTs all land; concurrent PATCHes
 * with the same `If-Match` let exactly one through.
 */
import { describe, expect, it } from 'vitest'
import type { ConformanceContext } from './context.js'
import { MINIMAL_LINE_ITEM, MINIMAL_RULE, writableSeed } from './fixtures.js'
import type { Reply } from '../harness.js'
import { automationRules, budgets, reports } from '../../model/index.js'

const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i)

/**
 * Registers the concurrency tests.
 *
 * @example
 * concurrency(ctx)
 */
export function concurrency(ctx: ConformanceContext): void {
  describe('concurrency', () => {
    for (const n of [50, 40]) {
      it(`${n} concurrent PATCHes of one rule give versions 2..${n + 1} and lose no update`, async () => {
        const { tenantId, h } = await ctx.fresh(writableSeed('a'))
        const created = await h.call<Reply<'createAutomationRule'>>('POST', '/automation', { body: MINIMAL_RULE })
        const id: string = created.body.data.id
        // Half the requests set the name, half the description: the final rule must hold the last of each.
        const patches = range(n).map((i) => (i % 2 === 0 ? { name: `name-${i}` } : { description: `description-${i}` }))
        const results = await Promise.all(
          patches.map((body) => h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${id}`, { body })),
        )
        expect(results.map((r) => r.status)).toEqual(patches.map(() => 200))
        const versions = results.map((r) => r.body.data.version as number)
        expect([...versions].sort((x, y) => x - y)).toEqual(range(n, 2))
        results.forEach((result, i) => {
          expect(result.headers.get('etag')).toBe(`"${versions[i]}"`)
          // Each response shows its own change applied.
          expect(result.body.data).toMatchObject(patches[i]!)
        })
        const lastOf = (key: 'name' | 'description') =>
          results
            .filter((_, i) => key in patches[i]!)
            .reduce((a, b) => (a.body.data.version > b.body.data.version ? a : b)).body.data[key]
        const stored = await ctx.store.get(automationRules, tenantId, id)
        expect(stored).toMatchObject({ version: n + 1, name: lastOf('name'), description: lastOf('description') })
      })
    }

    it('30 concurrent PATCHes of one report give versions 2..31', async () => {
      const { tenantId, h } = await ctx.fresh(writableSeed('a'))
      const results = await Promise.all(
        range(30).map((i) =>
          h.call<Reply<'updateReport'>>('PATCH', `/reports/${ctx.a.ids.report}`, { body: { title: `title-${i}` } }),
        ),
      )
      expect(results.every((r) => r.status === 200)).toBe(true)
      expect(results.map((r) => r.body.data.version as number).sort((x, y) => x - y)).toEqual(range(30, 2))
      const last = results.reduce((a, b) => (a.body.data.version > b.body.data.version ? a : b))
      expect(await ctx.store.get(reports, tenantId, ctx.a.ids.report)).toMatchObject({
        version: 31,
        title: last.body.data.title,
      })
    })

    it('concurrent PATCHes with the same If-Match: exactly one succeeds, the rest are 412', async () => {
      const { tenantId, h } = await ctx.fresh(writableSeed('a'))
      const results = await Promise.all(
        range(10).map((i) =>
          h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ctx.a.ids.rule}`, {
            body: { priority: i },
            headers: { 'if-match': '"3"' },
          }),
        ),
      )
      expect(results.filter((r) => r.status === 200)).toHaveLength(1)
      expect(results.filter((r) => r.status === 412)).toHaveLength(9)
      expect((await ctx.store.get(automationRules, tenantId, ctx.a.ids.rule))?.version).toBe(4)
    })

    it('30 concurrent line item POSTs all land', async () => {
      const { tenantId, h } = await ctx.fresh(writableSeed('a'))
      const results = await Promise.all(
        range(30).map((i) =>
          h.call<Reply<'createBudgetLineItem'>>('POST', `/budgets/${ctx.a.ids.emptyBudget}/items`, {
            body: { ...MINIMAL_LINE_ITEM, unitPrice: i },
          }),
        ),
      )
      expect(results.every((r) => r.status === 201)).toBe(true)
      const budget = await ctx.store.get(budgets, tenantId, ctx.a.ids.emptyBudget)
      expect(budget?.lineItemCount).toBe(30)
      expect(new Set(budget?.lineItems.map((item) => item.id))).toEqual(new Set(results.map((r) => r.body.data.id)))
      // 0 + 1 + ... + 29
      expect(budget?.totals.softwareTotal).toBe(435)
    })

    it('concurrent PATCHes of a budget and line item POSTs leave both applied', async () => {
      const { tenantId, h } = await ctx.fresh(writableSeed('a'))
      await Promise.all([
        ...range(5).map(() =>
          h.call<Reply<'createBudgetLineItem'>>('POST', `/budgets/${ctx.a.ids.emptyBudget}/items`, {
            body: MINIMAL_LINE_ITEM,
          }),
        ),
        h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ctx.a.ids.emptyBudget}`, { body: { title: 'Concurrent' } }),
      ])
      const budget = await ctx.store.get(budgets, tenantId, ctx.a.ids.emptyBudget)
      expect([budget?.title, budget?.lineItemCount]).toEqual(['Concurrent', 5])
    })
  })
}
