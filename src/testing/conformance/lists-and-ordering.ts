/**
 * Every list: default order and every sort option in both directions against the reference
 * ordering, explicit code-point / null / tie cases, page walks that never overlap or skip,
 * pagination math, pages past the end, and every filter including escaped search.
 */
import { describe, expect, it } from 'vitest'
import type { ConformanceContext } from './context.js'
import { fixtureSeed } from './fixtures.js'
import { fetchAll, fold, sortRows, walkPages, type Row } from './reference.js'
import type { Reply } from '../harness.js'

type Value = string | number | boolean | null | undefined

/** The list operations of the collections (each lists one collection: `LIST_COLLECTIONS` in store-calls.ts). */
export type ListMethod =
  | 'listTickets'
  | 'listUsers'
  | 'listComplianceTemplates'
  | 'listReportTemplates'
  | 'listCompanies'
  | 'listMeetingTypes'
  | 'listTrainingEnrollments'

/** A list with sort options, as both the HTTP and the store-level groups check it. */
export interface SortableList {
  name: string
  path: string
  method: ListMethod
  rows: () => Row[]
  sortParam: string
  /** The query of a direction, e.g. `sortDesc=true` or `sortOrder=desc`. */
  direction: (descending: boolean) => string
  sorts: Record<string, (row: Row) => Value>
  defaultSort: { value: string; descending: boolean }
}

const fixtureRows = (key: keyof ReturnType<typeof fixtureSeed>) => () =>
  (fixtureSeed('a')[key] ?? []) as unknown as Row[]
const field = (name: string) => (row: Row) => row[name] as Value
const nested = (name: string, inner: string) => (row: Row) =>
  ((row[name] as Record<string, unknown> | null)?.[inner] ?? null) as Value

export const SORTABLE: SortableList[] = [
  {
    name: 'tickets',
    path: '/tickets',
    method: 'listTickets',
    rows: fixtureRows('tickets'),
    sortParam: 'sortColumn',
    direction: (d) => `sortDesc=${d}`,
    sorts: {
      created_date: field('createdAt'),
      updated_date: field('updatedAt'),
      title: field('title'),
      status_name: field('status'),
      priority_name: field('priority'),
      company_name: field('companyName'),
      assigned_to: field('assignedTo'),
      days_open: field('daysOpen'),
    },
    defaultSort: { value: 'created_date', descending: true },
  },
  {
    name: 'users',
    path: '/users',
    method: 'listUsers',
    rows: fixtureRows('users'),
    sortParam: 'sortColumn',
    direction: (d) => `sortDesc=${d}`,
    sorts: {
      full_name: field('fullName'),
      email: field('email'),
      status: field('status'),
      created_at: field('createdAt'),
      last_login: field('lastLogin'),
    },
    defaultSort: { value: 'created_at', descending: true },
  },
  {
    name: 'compliance templates',
    path: '/compliance/templates',
    method: 'listComplianceTemplates',
    rows: fixtureRows('complianceTemplates'),
    sortParam: 'sortBy',
    direction: (d) => `sortOrder=${d ? 'desc' : 'asc'}`,
    sorts: {
      title: field('title'),
      created_at: field('createdAt'),
      updated_at: field('updatedAt'),
      priority: field('priority'),
      criticality: field('criticality'),
    },
    defaultSort: { value: 'created_at', descending: true },
  },
  {
    name: 'report templates',
    path: '/report-templates',
    method: 'listReportTemplates',
    rows: fixtureRows('reportTemplates'),
    sortParam: 'sortBy',
    direction: (d) => `sortOrder=${d ? 'desc' : 'asc'}`,
    sorts: { name: field('name'), created_at: field('createdAt'), updated_at: field('updatedAt') },
    defaultSort: { value: 'created_at', descending: true },
  },
  {
    name: 'companies',
    path: '/companies',
    method: 'listCompanies',
    rows: fixtureRows('companies'),
    sortParam: 'sortBy',
    direction: (d) => `sortOrder=${d ? 'desc' : 'asc'}`,
    sorts: { name: field('name'), created_at: field('createdAt'), updated_at: field('updatedAt') },
    defaultSort: { value: 'name', descending: false },
  },
]

/** Lists with one fixed order. */
export const FIXED: Array<{ name: string; path: string; method: ListMethod; order: () => Row[] }> = [
  {
    name: 'calendar types (orderIndex, then name, then id)',
    path: '/calendar/types',
    method: 'listMeetingTypes',
    order: () => sortRows(fixtureRows('meetingTypes')(), field('orderIndex'), false, [field('name')]),
  },
  {
    name: 'training enrollments (newest enrolledAt first, ties by id)',
    path: '/training/enrollments',
    method: 'listTrainingEnrollments',
    order: () => sortRows(fixtureRows('trainingEnrollments')(), field('enrolledAt'), true),
  },
]

/** One filter query and the reference's statement of what it keeps. */
export interface FilterCase {
  query: string
  matches: (row: Row) => boolean
  /** When given, the titles/names the filter must return, whatever the order. */
  exactly?: string[]
}

const ticketTitle = (row: Row) => row.title as string
const orderWord = (descending: boolean) => (descending ? 'descending' : 'ascending')
/** Every filter of every list, checked against the reference. */
export const FILTERS: Record<
  string,
  {
    path: string
    method: ListMethod
    rows: () => Row[]
    defaultOrder: (rows: Row[]) => Row[]
    label: (row: Row) => string
    cases: FilterCase[]
  }
> = {
  tickets: {
    path: '/tickets',
    method: 'listTickets',
    rows: fixtureRows('tickets'),
    defaultOrder: (rows) => sortRows(rows, field('createdAt'), true),
    label: ticketTitle,
    cases: [
      {
        query: 'search=PRINTER',
        matches: (r) => fold(ticketTitle(r)).includes('printer'),
        exactly: ['Printer jam', 'printer jam', 'Zebra label printer'],
      },
      { query: 'search=%25', matches: (r) => ticketTitle(r).includes('%'), exactly: ['100% CPU usage'] },
      { query: 'search=100%25', matches: (r) => ticketTitle(r).includes('100%'), exactly: ['100% CPU usage'] },
      { query: 'search=_', matches: (r) => ticketTitle(r).includes('_'), exactly: ['snake_case field'] },
      {
        query: 'search=snake_case',
        matches: (r) => ticketTitle(r).includes('snake_case'),
        exactly: ['snake_case field'],
      },
      { query: 'search=%5C', matches: (r) => ticketTitle(r).includes('\\'), exactly: ['path C:\\temp broken'] },
      {
        query: 'search=C%3A%5Ctemp',
        matches: (r) => ticketTitle(r).includes('C:\\temp'),
        exactly: ['path C:\\temp broken'],
      },
      { query: 'search=nothing-matches-this', matches: () => false, exactly: [] },
      {
        query: `companyId=${'aaaaaaaa-0001-4000-8000-000000000001'}`,
        matches: (r) => r.companyId === 'aaaaaaaa-0001-4000-8000-000000000001',
      },
      {
        query: `companyId=${'AAAAAAAA-0001-4000-8000-000000000004'}`,
        matches: (r) => r.companyId === 'aaaaaaaa-0001-4000-8000-000000000004',
      },
      { query: 'status=open', matches: (r) => fold(String(r.status)) === 'open' },
      { query: 'status=OPEN', matches: (r) => fold(String(r.status)) === 'open' },
      { query: 'status=in%20progress', matches: (r) => r.status === 'In Progress', exactly: ['alpha server down'] },
      { query: 'priority=HIGH', matches: (r) => fold(String(r.priority)) === 'high' },
      { query: 'assignedTo=ada%20LOVELACE', matches: (r) => fold(String(r.assignedTo)) === 'ada lovelace' },
      {
        query: 'assignedTo=ada',
        matches: (r) => fold(String(r.assignedTo)) === 'ada',
        exactly: ['Zebra label printer'],
      },
      { query: 'isClosed=true', matches: (r) => r.isClosed === true },
      { query: 'isClosed=false', matches: (r) => r.isClosed === false },
      { query: 'provider=psa_c', matches: (r) => r.provider === 'psa_c' },
      {
        query: 'dateFrom=2024-01-10T09:00:00.000Z',
        matches: (r) => (r.createdAt as string) >= '2024-01-10T09:00:00.000Z',
      },
      {
        query: 'dateTo=2024-01-10T09:00:00.000Z',
        matches: (r) => (r.createdAt as string) <= '2024-01-10T09:00:00.000Z',
      },
      {
        query: 'dateFrom=2024-01-10T09:00:00Z&dateTo=2024-01-10T09:00:00Z',
        matches: (r) => r.createdAt === '2024-01-10T09:00:00.000Z',
      },
      {
        query: 'dateFrom=2024-01-10T10:00:00%2B01:00',
        matches: (r) => (r.createdAt as string) >= '2024-01-10T09:00:00.000Z',
      },
      {
        query: 'dateFrom=2024-01-12&dateTo=2024-01-12',
        matches: (r) => (r.createdAt as string).startsWith('2024-01-12'),
        exactly: ['Edge: start of day', 'Edge: end of day'],
      },
      {
        query: 'dateTo=2024-01-08',
        matches: (r) => (r.createdAt as string) < '2024-01-09',
        exactly: ['Mail delay', 'Mail delay', 'Mail delay', 'path C:\\temp broken', 'path C:/temp broken'],
      },
      {
        query: 'status=open&provider=psa_a&isClosed=false',
        matches: (r) => fold(String(r.status)) === 'open' && r.provider === 'psa_a' && r.isClosed === false,
      },
    ],
  },
  users: {
    path: '/users',
    method: 'listUsers',
    rows: fixtureRows('users'),
    defaultOrder: (rows) => sortRows(rows, field('createdAt'), true),
    label: (r) => r.email as string,
    cases: [
      {
        query: 'search=ADA',
        matches: (r) => fold(`${r.fullName ?? ''}`).includes('ada') || fold(r.email as string).includes('ada'),
      },
      {
        query: 'search=grace%40example',
        matches: (r) => fold(r.email as string).includes('grace@example'),
        exactly: ['GRACE@EXAMPLE.COM'],
      },
      {
        query: 'search=zola',
        matches: (r) => fold(`${r.fullName ?? ''}`).includes('zola'),
        exactly: ['emile@example.com'],
      },
      {
        query: 'search=%25',
        matches: (r) => `${r.fullName ?? ''}${r.email as string}`.includes('%'),
        exactly: ['percent@example.com'],
      },
      {
        query: 'search=_',
        matches: (r) => `${r.fullName ?? ''}${r.email as string}`.includes('_'),
        exactly: ['under@example.com'],
      },
      { query: 'search=%5C', matches: (r) => `${r.fullName ?? ''}`.includes('\\'), exactly: ['back@example.com'] },
      { query: 'status=pending', matches: (r) => r.status === 'pending' },
      {
        query: 'roleId=aaaaaaaa-0004-4000-8000-000000000001',
        matches: (r) => nested('role', 'id')(r) === 'aaaaaaaa-0004-4000-8000-000000000001',
      },
      {
        query: 'companyId=aaaaaaaa-0001-4000-8000-000000000002',
        matches: (r) => nested('company', 'id')(r) === 'aaaaaaaa-0001-4000-8000-000000000002',
      },
      { query: 'isPrimaryAdmin=true', matches: (r) => r.isPrimaryAdmin === true, exactly: ['ada@example.com'] },
      { query: 'isPrimaryAdmin=false', matches: (r) => r.isPrimaryAdmin === false },
      {
        query: 'status=active&search=under',
        matches: (r) =>
          r.status === 'active' && `${fold(`${r.fullName ?? ''}`)}|${fold(r.email as string)}`.includes('under'),
      },
    ],
  },
  'compliance templates': {
    path: '/compliance/templates',
    method: 'listComplianceTemplates',
    rows: fixtureRows('complianceTemplates'),
    defaultOrder: (rows) => sortRows(rows, field('createdAt'), true),
    label: (r) => r.title as string,
    cases: [
      {
        query: 'search=BACKUPS',
        matches: (r) => fold(r.title as string).includes('backups'),
        exactly: ['Backups verified', 'backups verified'],
      },
      { query: 'search=%25', matches: (r) => (r.title as string).includes('%'), exactly: ['100% patched'] },
      { query: 'search=_', matches: (r) => (r.title as string).includes('_'), exactly: ['key_rotation'] },
      { query: 'search=%5C', matches: (r) => (r.title as string).includes('\\'), exactly: ['C:\\Windows hardened'] },
      {
        query: 'groupId=aaaaaaaa-0006-4000-8000-000000000001',
        matches: (r) => r.groupId === 'aaaaaaaa-0006-4000-8000-000000000001',
      },
      { query: 'approvalStatus=draft', matches: (r) => r.approvalStatus === 'draft' },
      { query: 'checkScope=device', matches: (r) => r.checkScope === 'device' },
      {
        query: 'checkScope=device&approvalStatus=approved&search=patched',
        matches: (r) =>
          r.checkScope === 'device' && r.approvalStatus === 'approved' && fold(r.title as string).includes('patched'),
      },
    ],
  },
  'report templates': {
    path: '/report-templates',
    method: 'listReportTemplates',
    rows: fixtureRows('reportTemplates'),
    defaultOrder: (rows) => sortRows(rows, field('createdAt'), true),
    label: (r) => r.name as string,
    cases: [
      {
        query: 'reportTypeId=aaaaaaaa-0009-4000-8000-000000000001',
        matches: (r) => r.reportTypeId === 'aaaaaaaa-0009-4000-8000-000000000001',
      },
      { query: 'isShared=true', matches: (r) => r.isShared === true },
      { query: 'isShared=false', matches: (r) => r.isShared === false },
      {
        query: 'isShared=true&reportTypeId=aaaaaaaa-0009-4000-8000-000000000002',
        matches: (r) => r.isShared === true && r.reportTypeId === 'aaaaaaaa-0009-4000-8000-000000000002',
      },
    ],
  },
  'training enrollments': {
    path: '/training/enrollments',
    method: 'listTrainingEnrollments',
    rows: fixtureRows('trainingEnrollments'),
    defaultOrder: (rows) => sortRows(rows, field('enrolledAt'), true),
    label: (r) => r.id,
    cases: [
      {
        query: 'courseId=aaaaaaaa-000b-4000-8000-000000000001',
        matches: (r) => nested('course', 'id')(r) === 'aaaaaaaa-000b-4000-8000-000000000001',
      },
      {
        query: 'userId=aaaaaaaa-0003-4000-8000-000000000001',
        matches: (r) => nested('user', 'id')(r) === 'aaaaaaaa-0003-4000-8000-000000000001',
      },
      {
        query: 'companyId=aaaaaaaa-0001-4000-8000-000000000001',
        matches: (r) => r.companyId === 'aaaaaaaa-0001-4000-8000-000000000001',
      },
      { query: 'status=not_started', matches: (r) => r.status === 'not_started' },
      {
        query: 'status=completed&courseId=aaaaaaaa-000b-4000-8000-000000000002',
        matches: (r) =>
          r.status === 'completed' && nested('course', 'id')(r) === 'aaaaaaaa-000b-4000-8000-000000000002',
      },
    ],
  },
}

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
      for (const path of [
        '/tickets',
        '/users',
        '/companies',
        '/compliance/templates',
        '/report-templates',
        '/calendar/types',
        '/training/enrollments',
      ]) {
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
