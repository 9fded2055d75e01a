/**
 * Walks by cursor while the data changes (docs/extensions.md, sections 1 and 2): concurrent seeds
 * that add records anywhere in the order and change others' non-sort fields, and removals that
 * take the cursor's own record, one ahead and one already seen. Every survivor is seen exactly once.
 */
import { describe, expect, it } from 'vitest'
import type { Reply } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { walkCursor } from './cursor-pagination-kit.js'
import { fixtureSeed } from './fixtures.js'

/** The tickets of fixture tenant A. */
const seedTickets = () => fixtureSeed('a').tickets!
/** A timestamp in January 2024 that moves with `n`. */
const stamp = (n: number) => new Date(Date.UTC(2024, 0, 1 + (n % 28), n % 24)).toISOString()

/**
 * Registers the walks during concurrent seeds and removals.
 *
 * @example
 * walksDuringChanges(ctx)
 */
export function walksDuringChanges(ctx: ConformanceContext): void {
  describe('walks during concurrent seeds', () => {
    ticketWalksDuringSeeds(ctx)

    ticketWalksDuringRemovals(ctx)

    companyWalkDuringSeeds(ctx)
  })
}

/** Registers the ticket walks in three orders while seeds add records and change others. */
function ticketWalksDuringSeeds(ctx: ConformanceContext): void {
  for (const [sort, descending] of [
    ['created_date', true],
    ['title', false],
    ['assigned_to', true],
  ] as const) {
    it(`tickets by ${sort} ${descending ? 'desc' : 'asc'}: every untouched record exactly once`, async () => {
      const original = seedTickets()
      const { tenantId, h } = await ctx.fresh({ companies: fixtureSeed('a').companies, tickets: original })
      const untouched = new Set(original.map((t) => t.id))
      const walked = await walkCursor(h, '/tickets', `sortColumn=${sort}&sortDesc=${descending}`, {
        limits: [2, 3],
        between: async (page) => {
          // New records land anywhere in the order (before and after the cursor)...
          const added = [0, 1].map((k) => ({
            ...original[(page * 3 + k) % original.length]!,
            id: `zz-added-${page}-${k}`,
            ticketNumber: `NEW-${page}-${k}`,
            title: `Added ${(page * 7 + k * 13) % 50}`,
            assignedTo: k === 0 ? null : `Tech ${page % 5}`,
            createdAt: stamp(page * 5 + k),
            notes: [],
          }))
          // ...and other records change fields they are not sorted by.
          const changed = original
            .filter((_, i) => i % 4 === page % 4)
            .map((t) => ({ ...t, description: `changed on page ${page}`, notes: [] }))
          await ctx.store.seed(tenantId, { tickets: [...added, ...changed] })
        },
      })
      expect(walked.problems).toEqual([])
      const seen = walked.ids.filter((id) => untouched.has(id))
      expect(seen.sort()).toEqual([...untouched].sort())
      expect(new Set(walked.ids).size).toBe(walked.ids.length)
    })
  }
}

/**
 * Registers the ticket walks in three orders during a host's removals (store.remove, docs/extensions.md
 * section 2): after each page the page's last record (the cursor's own position), the next record
 * ahead and one already seen go.
 */
function ticketWalksDuringRemovals(ctx: ConformanceContext): void {
  for (const [sort, descending] of [
    ['created_date', true],
    ['title', false],
    ['assigned_to', true],
  ] as const) {
    const order = `${sort} ${descending ? 'desc' : 'asc'}`
    it(`tickets by ${order}: removals neither skip nor repeat a survivor`, async () => {
      const original = seedTickets()
      const { tenantId, h } = await ctx.fresh({ companies: fixtureSeed('a').companies, tickets: original })
      const query = `sortColumn=${sort}&sortDesc=${descending}`
      const removedAfter = new Map<string, number>()
      const pages: string[][] = []
      const walked = await walkCursor(h, '/tickets', query, {
        limits: [2, 3],
        between: async (page, pageIds) => {
          pages.push(pageIds)
          const seen = new Set(pages.flat())
          const { body } = await h.call<Reply<'listTickets'>>('GET', `/tickets?${query}&limit=100`)
          const listed = body.data.map((row) => row.id)
          const targets = [pageIds.at(-1), listed.find((id) => !seen.has(id)), listed.find((id) => seen.has(id))]
          const removed = [...new Set(targets)].filter((id): id is string => id !== undefined && !removedAfter.has(id))
          for (const id of removed) removedAfter.set(id, page)
          if (removed.length > 0) await ctx.store.remove(tenantId, { tickets: removed })
        },
      })
      expect(walked.problems).toEqual([])
      expect(new Set(walked.ids).size).toBe(walked.ids.length)
      const survivors = original.map((t) => t.id!).filter((id) => !removedAfter.has(id))
      expect(survivors.length).toBeGreaterThan(0)
      expect(walked.ids.filter((id) => !removedAfter.has(id)).sort()).toEqual(survivors.sort())
      // A record removed ahead of the walk never shows up on a later page.
      const late = pages.flatMap((ids, i) => ids.filter((id) => (removedAfter.get(id) ?? i + 1) < i + 1))
      expect(late).toEqual([])
      expect([...removedAfter.values()].some((page) => page > 1)).toBe(true)
    })
  }
}

/** Registers the company walk by name while seeds add companies and change the others. */
function companyWalkDuringSeeds(ctx: ConformanceContext): void {
  it('companies by name: every untouched record exactly once while others are added', async () => {
    const original = fixtureSeed('a').companies!
    const { tenantId, h } = await ctx.fresh({ companies: original })
    const walked = await walkCursor(h, '/companies', 'sortBy=name&sortOrder=asc', {
      limits: [1, 2],
      between: async (page) => {
        const added = ['A', 'M', 'z'].map((prefix, k) => ({
          ...original[0]!,
          id: `00000000-0000-4000-8000-${String(page * 10 + k).padStart(12, '0')}`,
          name: `${prefix} added ${page}`,
        }))
        const changed = original.map((c) => ({ ...c, domain: `p${page}.example` }))
        await ctx.store.seed(tenantId, { companies: [...added, ...changed] })
      },
    })
    expect(walked.problems).toEqual([])
    const untouched = new Set(original.map((c) => c.id))
    expect(walked.ids.filter((id) => untouched.has(id)).sort()).toEqual([...untouched].sort())
    expect(new Set(walked.ids).size).toBe(walked.ids.length)
  })
}
