/**
 * Cursor pagination (docs/extensions.md, section 1): walks by cursor in every sort and direction of
 * every list (ties and nulls included) against the independent reference order, with the limit
 * changed mid-walk; every filter; the `pagination` fields and the `Link` header of each page (relative,
 * or absolute from `publicOrigin`, never from the request's host); every
 * malformed, foreign or mismatched cursor and `cursor` with `page` answered 400 on `cursor`; and
 * walks during concurrent seeds that add records and change others' non-sort fields, and during
 * removals (the cursor's own record among them).
 */
import { describe, expect, it } from 'vitest'
import type { Reply } from '../harness.js'
import type { ConformanceContext } from './context.js'
import {
  base64url,
  expectCursorRefused,
  firstCursor,
  LIMITS,
  LIST_PATHS,
  unbase64url,
  walkCursor,
} from './cursor-pagination-kit.js'
import { walksDuringChanges } from './cursor-walks-during-changes.js'
import { FILTERS } from './list-filters.js'
import { FIXED, SORTABLE } from './list-sorts.js'
import { fetchAll, sortRows, type Row } from './reference.js'

/**
 * Registers the cursor pagination tests.
 *
 * @example
 * cursorPagination(ctx)
 */
export function cursorPagination(ctx: ConformanceContext): void {
  describe('lists: cursor pagination', () => {
    cursorWalks(ctx)

    cursorRefusals(ctx)

    walksDuringChanges(ctx)
  })
}

/**
 * Registers the walks by cursor: every sort and direction of every list, the fixed orders, by
 * `Link`, every filter, from a page on by cursor, and the last page.
 */
function cursorWalks(ctx: ConformanceContext): void {
  for (const list of SORTABLE) {
    it(`${list.name}: walks by cursor in every sort and direction, limit changing mid-walk`, async () => {
      for (const [sort, key] of Object.entries(list.sorts)) {
        for (const descending of [false, true]) {
          const query = `${list.sortParam}=${sort}&${list.direction(descending)}`
          const expected = sortRows(list.rows(), key, descending).map((row) => row.id)
          const walked = await walkCursor(ctx.a.h, list.path, query, { total: expected.length })
          expect(walked.problems, query).toEqual([])
          expect(walked.ids, query).toEqual(expected)
        }
      }
      // The default sort walks too, with no sort parameter at all.
      const { value, descending } = list.defaultSort
      const expected = sortRows(list.rows(), list.sorts[value]!, descending).map((row) => row.id)
      const walked = await walkCursor(ctx.a.h, list.path, '', { limits: [3] })
      expect(walked.problems).toEqual([])
      expect(walked.ids).toEqual(expected)
    })
  }

  for (const list of FIXED) {
    it(`${list.name}: walks by cursor, limit changing mid-walk`, async () => {
      const expected = list.order().map((row) => row.id)
      for (const limits of [LIMITS, [1], [100]]) {
        const walked = await walkCursor(ctx.a.h, list.path, '', { limits, total: expected.length })
        expect(walked.problems, String(limits)).toEqual([])
        expect(walked.ids, String(limits)).toEqual(expected)
      }
    })
  }

  it('follows each Link header as given, to the same walk', async () => {
    for (const list of SORTABLE) {
      const query = `${list.sortParam}=${Object.keys(list.sorts)[0]}&${list.direction(true)}`
      const byCursor = await walkCursor(ctx.a.h, list.path, query, { limits: [2] })
      const byLink = await walkCursor(ctx.a.h, list.path, query, { limits: [2], viaLink: true })
      expect(byLink.problems, list.path).toEqual([])
      expect(byLink.ids, list.path).toEqual(byCursor.ids)
    }
  })

  it('links by a relative reference, or absolute from publicOrigin; never by the request’s host', async () => {
    // The request's origin is what a mount makes of its Host header: a client's to choose.
    const origin = 'http://attacker.example:8080'
    const relative = ctx.clientOver(ctx.store, ctx.a.tenantId, { origin })
    const absolute = ctx.clientOver(ctx.store, ctx.a.tenantId, { origin, publicOrigin: 'https://portal.example/' })
    for (const path of LIST_PATHS) {
      const target = `${path}?limit=1`
      const [plain, configured] = await Promise.all([relative.call('GET', target), absolute.call('GET', target)])
      for (const answer of [plain, configured]) expect(answer.status, path).toBe(200)
      const cursor = (plain.body as { pagination: { nextCursor: string } }).pagination.nextCursor
      expect(plain.headers.get('link'), path).toBe(`</api/public/v1${target}&cursor=${cursor}>; rel="next"`)
      expect(configured.headers.get('link'), path).toBe(
        `<https://portal.example/api/public/v1${target}&cursor=${cursor}>; rel="next"`,
      )
    }
  })

  for (const [name, list] of Object.entries(FILTERS)) {
    it(`${name}: every filter walks by cursor to what one page holds`, async () => {
      for (const filter of list.cases) {
        const all = await fetchAll(ctx.a.h, list.path, filter.query)
        expect(all.status, filter.query).toBe(200)
        const walked = await walkCursor(ctx.a.h, list.path, filter.query, { limits: [2, 1] })
        expect(walked.problems, filter.query).toEqual([])
        expect(walked.ids, filter.query).toEqual(all.ids)
      }
    })
  }

  it('starts by page and goes on by cursor', async () => {
    const expected = sortRows(SORTABLE[0]!.rows(), SORTABLE[0]!.sorts.title!, false).map((row) => row.id)
    const first = await ctx.a.h.call<Reply<'listTickets'>>(
      'GET',
      '/tickets?sortColumn=title&sortDesc=false&limit=3&page=2',
    )
    expect(first.body.data.map((row: Row) => row.id)).toEqual(expected.slice(3, 6))
    const cursor = first.body.pagination.nextCursor as string
    const next = await ctx.a.h.call<Reply<'listTickets'>>(
      'GET',
      `/tickets?sortColumn=title&sortDesc=false&limit=4&cursor=${cursor}`,
    )
    expect(next.status).toBe(200)
    expect(next.body.data.map((row: Row) => row.id)).toEqual(expected.slice(6, 10))
    expect(next.body.pagination).toMatchObject({ page: 3, limit: 4, hasPrevPage: true })
  })

  it('leads from the last-but-one page to the last, which has no next page and no Link', async () => {
    const all = await fetchAll(ctx.a.h, '/companies', 'sortBy=name')
    const lastButOne = all.body.pagination.totalCount - 1
    const page = await ctx.a.h.call<Reply<'listCompanies'>>('GET', `/companies?sortBy=name&limit=1&page=${lastButOne}`)
    const cursor = page.body.pagination.nextCursor as string
    const last = await ctx.a.h.call<Reply<'listCompanies'>>('GET', `/companies?sortBy=name&limit=1&cursor=${cursor}`)
    expect(last.body.data.map((row: Row) => row.id)).toEqual(all.ids.slice(-1))
    expect(last.body.pagination).toMatchObject({ page: lastButOne + 1, hasNextPage: false, nextCursor: null })
    expect(last.headers.get('link')).toBe(null)
  })
}

/** Registers the refusals: cursor with page, malformed, forged and mismatched cursors, another tenant's. */
function cursorRefusals(ctx: ConformanceContext): void {
  it('refuses cursor with page, and empty or too long cursors, with a 400 on cursor', async () => {
    for (const path of LIST_PATHS) {
      const cursor = await firstCursor(ctx.a.h, path, '')
      await expectCursorRefused(ctx.a.h, `${path}?cursor=${cursor}&page=2`)
      await expectCursorRefused(ctx.a.h, `${path}?page=1&cursor=${cursor}`)
      await expectCursorRefused(ctx.a.h, `${path}?cursor=`)
      await expectCursorRefused(ctx.a.h, `${path}?cursor=${'a'.repeat(1025)}`)
    }
  })

  it('refuses undecodable and forged cursors with a 400 on cursor, never a 500', async () => {
    for (const path of LIST_PATHS) {
      const real = await firstCursor(ctx.a.h, path, '')
      const parts = JSON.parse(unbase64url(real)) as unknown[]
      const forged = [
        'x',
        '!!!!',
        'a%20b',
        base64url('not json'),
        base64url('{}'),
        base64url('[]'),
        base64url('null'),
        base64url(JSON.stringify([2, ...parts.slice(1)])),
        base64url(JSON.stringify(parts.slice(0, -1))),
        base64url(JSON.stringify([...parts, 'extra'])),
        base64url(JSON.stringify([...parts.slice(0, 3), 1, ...parts.slice(4)])),
        base64url(JSON.stringify([...parts.slice(0, 3), 2.5, ...parts.slice(4)])),
        base64url(JSON.stringify([...parts.slice(0, 3), '2', ...parts.slice(4)])),
        base64url(JSON.stringify([...parts.slice(0, 4), 42, ...parts.slice(5)])),
        base64url(JSON.stringify([...parts.slice(0, 5), { value: 1 }, ...parts.slice(6)])),
        base64url(JSON.stringify([...parts.slice(0, 5), [1], ...parts.slice(6)])),
        `${real.slice(0, -2)}\u00e9`,
        `${real}=`,
      ]
      for (const cursor of forged) await expectCursorRefused(ctx.a.h, `${path}?cursor=${encodeURIComponent(cursor)}`)
    }
  })

  it('refuses a cursor of another list, other filters or another sort with a 400 on cursor', async () => {
    const cursors = await Promise.all(LIST_PATHS.map((path) => firstCursor(ctx.a.h, path, '')))
    for (const [i, path] of LIST_PATHS.entries())
      for (const [j, cursor] of cursors.entries())
        if (i !== j) await expectCursorRefused(ctx.a.h, `${path}?cursor=${cursor}`)
    for (const list of SORTABLE) {
      const [sort, other] = Object.keys(list.sorts)
      const query = `${list.sortParam}=${sort}&${list.direction(false)}`
      const cursor = await firstCursor(ctx.a.h, list.path, query)
      // The same query walks on; another sort, direction or default sort does not.
      expect((await ctx.a.h.call('GET', `${list.path}?${query}&cursor=${cursor}`)).status).toBe(200)
      await expectCursorRefused(
        ctx.a.h,
        `${list.path}?${list.sortParam}=${other}&${list.direction(false)}&cursor=${cursor}`,
      )
      await expectCursorRefused(
        ctx.a.h,
        `${list.path}?${list.sortParam}=${sort}&${list.direction(true)}&cursor=${cursor}`,
      )
      // Without sort parameters the list takes its default sort: refused unless that is the cursor's.
      const isDefault = list.defaultSort.value === sort && !list.defaultSort.descending
      if (!isDefault) await expectCursorRefused(ctx.a.h, `${list.path}?cursor=${cursor}`)
    }
    const filtered = await firstCursor(ctx.a.h, '/tickets', 'isClosed=false')
    await expectCursorRefused(ctx.a.h, `/tickets?cursor=${filtered}`)
    await expectCursorRefused(ctx.a.h, `/tickets?isClosed=true&cursor=${filtered}`)
    await expectCursorRefused(ctx.a.h, `/tickets?isClosed=false&search=a&cursor=${filtered}`)
    expect((await ctx.a.h.call('GET', `/tickets?isClosed=false&limit=50&cursor=${filtered}`)).status).toBe(200)
  })

  it('never leaks another tenant’s records through a cursor', async () => {
    // Tenant b's cursor is a well-formed cursor of the same list: used by a, it seeks a's records only.
    const cursor = await firstCursor(ctx.b.h, '/companies', 'sortBy=name')
    const { status, body } = await ctx.a.h.call<Reply<'listCompanies'>>(
      'GET',
      `/companies?sortBy=name&limit=100&cursor=${cursor}`,
    )
    expect(status).toBe(200)
    const own = new Set(ctx.a.ids.companies)
    expect(body.data.every((row: Row) => own.has(row.id))).toBe(true)
  })
}
