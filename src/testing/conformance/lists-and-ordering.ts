/**
 * Every list: default order and every sort option in both directions against the reference
 * ordering, explicit code-point / null / tie cases, page walks that never overlap or skip,
 * pagination math, pages past the end, and every filter including escaped search. The lists and
 * their sorts (list-sorts.ts) and filters (list-filters.ts) derive from the registry's list operations.
 */
import { describe, expect, it } from 'vitest'
import type { ConformanceContext } from './context.js'
import { fixtureSeed } from './fixtures.js'
import { FILTERS } from './list-filters.js'
import { FIXED, SORTABLE } from './list-sorts.js'
import { fetchAll, sortRows, walkPages } from './reference.js'
import type { Reply } from '../harness.js'
import { READ_LISTS } from './store-calls.js'

const orderWord = (descending: boolean) => (descending ? 'descending' : 'ascending')

/**
 * Registers the list tests that reach the store through HTTP: explicit code-point, null and tie
 * cases, pagination math, pages past the end and an empty tenant. Every sort, filter and page walk
 * runs on each store in the store-level group (store-lists.ts) and through HTTP once, in
 * {@link listWalks}.
 *
 * @example
 * listsAndOrdering(ctx)
 */
export function listsAndOrdering(ctx: ConformanceContext): void {
  orderingCases(ctx)
  paginationMath(ctx)
}

/** Registers the explicit ordering cases: code points, nulls last, ties by id. */
function orderingCases(ctx: ConformanceContext): void {
  describe('lists: ordering', () => {
    it('orders strings by code point: Z < a < é < Ａ (U+FF21) < 😀 (U+1F600)', async () => {
      const { body } = await fetchAll<Reply<'listTickets'>>(ctx.a.h, '/tickets', 'sortColumn=title&sortDesc=false')
      const titles = body.data.map((t) => t.title)
      const position = (prefix: string) => titles.findIndex((title) => title.startsWith(prefix))
      const order = ['Zebra', 'alpha', 'éclair', 'Ａ', '😀'].map(position)
      expect(order.every((p) => p >= 0)).toBe(true)
      expect([...order].sort((x, y) => x - y)).toEqual(order)
      // Upper case sorts before lower case: binary, not a locale collation.
      expect(position('Alpha')).toBeLessThan(position('alpha'))
    })

    it('puts nulls last in both directions', async () => {
      for (const descending of [false, true]) {
        const { body } = await fetchAll<Reply<'listTickets'>>(
          ctx.a.h,
          '/tickets',
          `sortColumn=status_name&sortDesc=${descending}`,
        )
        const statuses = body.data.map((t) => t.status)
        const firstNull = statuses.indexOf(null)
        expect(firstNull).toBeGreaterThan(0)
        expect(statuses.slice(firstNull).every((s) => s === null)).toBe(true)
      }
      const { body } = await fetchAll<Reply<'listUsers'>>(ctx.a.h, '/users', 'sortColumn=last_login&sortDesc=false')
      expect(body.data.at(-1)?.lastLogin).toBeNull()
    })

    it('breaks ties by id ascending in both directions', async () => {
      const acme = [ctx.a.ids.companies[0], ctx.a.ids.companies[6]]
      for (const order of ['asc', 'desc']) {
        const { ids } = await fetchAll(ctx.a.h, '/companies', `sortBy=name&sortOrder=${order}`)
        expect(ids.filter((id) => acme.includes(id))).toEqual(acme)
      }
      const mail = ctx.a.ids.tickets.slice(19, 22)
      for (const descending of [false, true]) {
        const { ids } = await fetchAll(ctx.a.h, '/tickets', `sortColumn=created_date&sortDesc=${descending}`)
        expect(ids.filter((id) => mail.includes(id))).toEqual(mail)
      }
    })
  })
}

/** Registers the pagination math: the `pagination` object, pages past the end, an empty tenant. */
function paginationMath(ctx: ConformanceContext): void {
  describe('lists: pagination', () => {
    it('computes totalCount, totalPages, hasNextPage and hasPrevPage', async () => {
      const total = fixtureSeed('a').tickets!.length
      const pages = Math.ceil(total / 5)
      for (const page of [1, 2, pages]) {
        const { status, body } = await ctx.a.h.call<Reply<'listTickets'>>('GET', `/tickets?limit=5&page=${page}`)
        expect(status).toBe(200)
        expect(body.pagination).toEqual({
          page,
          limit: 5,
          totalCount: total,
          totalPages: pages,
          hasNextPage: page < pages,
          hasPrevPage: page > 1,
          nextCursor: page < pages ? expect.any(String) : null,
        })
        expect(body.data).toHaveLength(page < pages ? 5 : total - 5 * (pages - 1))
      }
      const { body } = await ctx.a.h.call<Reply<'listTickets'>>('GET', '/tickets')
      expect(body.pagination).toMatchObject({ page: 1, limit: 25 })
    })

    it('answers a page past the end with 200 and no data', async () => {
      for (const path of READ_LISTS.map((list) => list.operation.path)) {
        const { status, body } = await ctx.a.h.call<Reply<'listTickets'>>('GET', `${path}?page=999&limit=10`)
        expect(status, path).toBe(200)
        expect(body.data).toEqual([])
        expect(body.pagination.page).toBe(999)
        expect(body.pagination.totalCount).toBeGreaterThan(0)
        expect(body.pagination.hasNextPage).toBe(false)
        expect(body.pagination.hasPrevPage).toBe(true)
        expect(body.pagination.nextCursor).toBe(null)
      }
    })

    it('answers an empty tenant with totalCount 0 and totalPages 0', async () => {
      const h = ctx.client(`empty-${crypto.randomUUID()}`)
      const { status, body } = await h.call<Reply<'listTickets'>>('GET', '/tickets')
      expect(status).toBe(200)
      expect(body).toEqual({
        data: [],
        pagination: {
          page: 1,
          limit: 25,
          totalCount: 0,
          totalPages: 0,
          hasNextPage: false,
          hasPrevPage: false,
          nextCursor: null,
        },
      })
    })
  })
}

/**
 * Registers the list walks through HTTP: the default order and every sort option in both
 * directions, the fixed orders and every filter, fetched whole and walked page by page against the
 * reference. What they add to the store-level walks (query parsing, the pagination object) does
 * not depend on the store, so they run once per test run (`runHttpConformance`).
 *
 * @example
 * listWalks(ctx)
 */
export function listWalks(ctx: ConformanceContext): void {
  describe('lists: ordering', () => {
    for (const list of SORTABLE) {
      describe(list.name, () => {
        it(`orders by ${list.defaultSort.value} ${orderWord(list.defaultSort.descending)} by default`, async () => {
          const expected = sortRows(list.rows(), list.sorts[list.defaultSort.value]!, list.defaultSort.descending)
          const { status, ids } = await fetchAll(ctx.a.h, list.path)
          expect(status).toBe(200)
          expect(ids).toEqual(expected.map((row) => row.id))
        })

        for (const [value, key] of Object.entries(list.sorts)) {
          for (const descending of [false, true]) {
            const title = `orders by ${value} ${orderWord(descending)} (nulls last, ties by id)`
            it(`${title}, and pages of 3 neither overlap nor skip`, async () => {
              const query = `${list.sortParam}=${value}&${list.direction(descending)}`
              const expected = sortRows(list.rows(), key, descending).map((row) => row.id)
              const all = await fetchAll(ctx.a.h, list.path, query)
              expect(all.status).toBe(200)
              expect(all.ids).toEqual(expected)
              const walked = await walkPages(ctx.a.h, list.path, query, 3)
              expect(walked.problems).toEqual([])
              expect(walked.ids).toEqual(expected)
            })
          }
        }
      })
    }

    for (const list of FIXED) {
      it(`${list.name}: one fixed order, and pages of 3 neither overlap nor skip`, async () => {
        const expected = list.order().map((row) => row.id)
        const all = await fetchAll(ctx.a.h, list.path)
        expect(all.ids).toEqual(expected)
        const walked = await walkPages(ctx.a.h, list.path, '', 3)
        expect(walked.problems).toEqual([])
        expect(walked.ids).toEqual(expected)
      })
    }
  })

  describe('lists: filters and search', () => {
    for (const [name, list] of Object.entries(FILTERS)) {
      for (const filter of list.cases) {
        it(`${name}: ${decodeURIComponent(filter.query)}`, async () => {
          const all = list.defaultOrder(list.rows())
          const expected = all.filter(filter.matches)
          if (filter.exactly) expect(expected.map(list.label).sort()).toEqual([...filter.exactly].sort())
          else {
            // The fixtures make every filter meaningful: it keeps some records and drops others.
            expect(expected.length).toBeGreaterThan(0)
            expect(expected.length).toBeLessThan(all.length)
          }
          const result = await fetchAll(ctx.a.h, list.path, filter.query)
          expect(result.status, JSON.stringify(result.body)).toBe(200)
          expect(result.ids).toEqual(expected.map((row) => row.id))
          expect(result.body.pagination.totalCount).toBe(expected.length)
          // A filtered list pages like any other.
          const walked = await walkPages(ctx.a.h, list.path, filter.query, 2)
          expect(walked.problems).toEqual([])
          expect(walked.ids).toEqual(expected.map((row) => row.id))
        })
      }
    }
  })
}
