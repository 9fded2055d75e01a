/**
 * Cursor pagination (docs/extensions.md, section 1): walks by cursor in every sort and direction of
 * every list (ties and nulls included) against the independent reference order, with the limit
 * changed mid-walk; every filter; the `pagination` fields and the `Link` header of each page; every
 * malformed, foreign or mismatched cursor and `cursor` with `page` answered 400 on `cursor`; and
 * walks during concurrent seeds that add records and change others' non-sort fields, and during
 * removals (the cursor's own record among them).
 */
import { describe, expect, it } from 'vitest'
import type { Harness, ValidationErrorReply, Reply } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { fixtureSeed } from './fixtures.js'
import { FILTERS } from './list-filters.js'
import { FIXED, SORTABLE } from './list-sorts.js'
import { fetchAll, sortRows, type Row } from './reference.js'

/** The limits a walk cycles through, so that `limit` changes between pages. */
const LIMITS = [2, 3, 1, 4]
const BASE_PATH = '/api/public/v1'

/** A page's `pagination` as the API answers it. */
interface PaginationBody {
  page: number
  limit: number
  totalCount: number
  totalPages: number
  hasNextPage: boolean
  hasPrevPage: boolean
  nextCursor: string | null
}

/** Every list path. */
const LIST_PATHS = [...SORTABLE.map((l) => l.path), ...FIXED.map((l) => l.path)]

/**
 * Walks a list by cursor from its first page, cycling `limits`, checking each page's pagination
 * and `Link`; `between` runs after each page with its ids (to change the data mid-walk). With `viaLink` each
 * page after the first is fetched from the previous page's `Link` URL as given.
 */
async function walkCursor(
  h: Harness,
  path: string,
  query: string,
  options: {
    limits?: number[]
    between?: (page: number, ids: string[]) => Promise<void>
    viaLink?: boolean
    total?: number
  } = {},
): Promise<{ ids: string[]; problems: string[] }> {
  const limits = options.limits ?? LIMITS
  const ids: string[] = []
  const problems: string[] = []
  let cursor: string | null = null
  let link: string | null = null
  for (let n = 1; n <= 1000; n++) {
    const limit = limits[(n - 1) % limits.length]!
    const extra = query === '' ? '' : `&${query}`
    const target: string =
      options.viaLink === true && link !== null
        ? link.slice(link.indexOf(BASE_PATH) + BASE_PATH.length)
        : `${path}?limit=${limit}${extra}${cursor === null ? '' : `&cursor=${cursor}`}`
    const result = await h.call('GET', target)
    if (result.status !== 200) {
      problems.push(`page ${n}: status ${result.status} ${JSON.stringify(result.body)}`)
      break
    }
    const { data, pagination: p } = result.body as { data: Row[]; pagination: PaginationBody }
    const pageLimit = options.viaLink === true && link !== null ? limits[0]! : limit
    const total = options.total ?? p.totalCount
    const expected: PaginationBody = {
      page: n,
      limit: pageLimit,
      totalCount: total,
      totalPages: Math.ceil(total / pageLimit),
      hasNextPage: p.nextCursor !== null,
      hasPrevPage: n > 1,
      nextCursor: p.nextCursor,
    }
    if (JSON.stringify(p) !== JSON.stringify(expected)) problems.push(`page ${n}: pagination ${JSON.stringify(p)}`)
    if (p.nextCursor !== null && !/^[A-Za-z0-9_-]{1,1024}$/.test(p.nextCursor))
      problems.push(`page ${n}: cursor ${p.nextCursor}`)
    link = result.headers.get('link')
    if (p.nextCursor === null) {
      if (link !== null) problems.push(`page ${n}: Link without a next page: ${link}`)
    } else {
      const match = link === null ? null : /^<(https?:\/\/[^>]+)>; rel="next"$/.exec(link)
      const next = match === null ? null : new URL(match[1]!)
      const same =
        next !== null &&
        next.pathname === `${BASE_PATH}${path}` &&
        next.searchParams.get('cursor') === p.nextCursor &&
        !next.searchParams.has('page') &&
        next.searchParams.get('limit') === String(pageLimit) &&
        [...new URLSearchParams(query)].every(([k, v]) => next.searchParams.get(k) === v)
      if (!same) problems.push(`page ${n}: Link ${link}`)
      link = match?.[1] ?? null
    }
    const pageIds = data.map((item) => item.id)
    ids.push(...pageIds)
    await options.between?.(n, pageIds)
    if (p.nextCursor === null) break
    cursor = p.nextCursor
  }
  return { ids, problems }
}

/** The first page's `nextCursor` of `path?query`. */
async function firstCursor(h: Harness, path: string, query: string): Promise<string> {
  const { status, body } = await h.call<{ pagination: { nextCursor?: string | null } }>(
    'GET',
    `${path}?limit=1${query === '' ? '' : `&${query}`}`,
  )
  expect(status, `${path}?${query}`).toBe(200)
  expect(typeof body.pagination.nextCursor, `${path}?${query}`).toBe('string')
  return body.pagination.nextCursor as string
}

/** Asserts a 400 `VALIDATION_ERROR` whose only problem is on `cursor`. */
async function expectCursorRefused(h: Harness, target: string): Promise<void> {
  const { status, body } = await h.call<ValidationErrorReply>('GET', target)
  expect([status, body.code], target).toEqual([400, 'VALIDATION_ERROR'])
  expect(
    body.details.map((d) => `${d.in}:${d.path}`),
    target,
  ).toEqual(['query:cursor'])
}

const base64url = (text: string) => btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
const unbase64url = (text: string) => atob(text.replaceAll('-', '+').replaceAll('_', '/'))

/**
 * Registers the cursor pagination tests.
 *
 * @example
 * cursorPagination(ctx)
 */
export function cursorPagination(ctx: ConformanceContext): void {
  describe('lists: cursor pagination', () => {
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
      const page = await ctx.a.h.call<Reply<'listCompanies'>>(
        'GET',
        `/companies?sortBy=name&limit=1&page=${lastButOne}`,
      )
      const cursor = page.body.pagination.nextCursor as string
      const last = await ctx.a.h.call<Reply<'listCompanies'>>('GET', `/companies?sortBy=name&limit=1&cursor=${cursor}`)
      expect(last.body.data.map((row: Row) => row.id)).toEqual(all.ids.slice(-1))
      expect(last.body.pagination).toMatchObject({ page: lastButOne + 1, hasNextPage: false, nextCursor: null })
      expect(last.headers.get('link')).toBe(null)
    })

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

    describe('walks during concurrent seeds', () => {
      const seedTickets = () => fixtureSeed('a').tickets!
      const stamp = (n: number) => new Date(Date.UTC(2024, 0, 1 + (n % 28), n % 24)).toISOString()

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

      // A host's removals (store.remove, docs/extensions.md section 2) during a walk: after each page the
      // page's last record (the cursor's own position), the next record ahead and one already seen go.
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
              const removed = [...new Set(targets)].filter(
                (id): id is string => id !== undefined && !removedAfter.has(id),
              )
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
    })
  })
}
