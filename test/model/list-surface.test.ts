/**
 * A collection's list surface: the definition's sorts, filters, search and order, and the list's query
 * schema, derive from it; a surface that contradicts its columns does not complete.
 */
import * as v from 'valibot'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { column, defineCollection } from '../../src/model/collection.js'
import { companies, tickets, trainingEnrollments } from '../../src/model/index.js'
import { listRequest } from '../../src/model/list-request.js'
import { filter, listQuerySchema, otherParam, search } from '../../src/model/list-surface.js'
import { booleanParam, dateTimeParam, enumParam, textParam, uuidParam } from '../../src/model/shared.js'
import { UserListQuerySchema } from '../../src/model/users.js'

interface Asset {
  id: string
  name: string
  companyId: string | null
  boughtAt: string
}

const definition = (list: Parameters<ReturnType<typeof defineCollection<Asset>>>[0]['list']) =>
  defineCollection<Asset>()({
    name: 'assets',
    table: 'assets',
    event: null,
    seed: v.object({}),
    columns: [
      column('name', 'text', { field: 'name', folded: true }),
      column('company_id', 'text', { field: 'companyId', nullable: true }),
      column('bought_at', 'text', { field: 'boughtAt' }),
    ],
    list,
  })

const assets = defineCollection<Asset>()({
  name: 'assets',
  table: 'assets',
  event: null,
  seed: v.object({}),
  columns: [
    column('name', 'text', { field: 'name', folded: true }),
    column('company_id', 'text', { field: 'companyId', nullable: true }),
    column('bought_at', 'text', { field: 'boughtAt' }),
  ],
  list: {
    sorts: { name: 'name', bought: 'boughtAt' },
    defaultSort: { by: 'bought', descending: false },
    direction: 'sortOrder',
    params: {
      q: search(textParam(50, 'Substring of the name.'), ['name']),
      companyId: filter(uuidParam('Only assets of this company.'), 'company_id', 'equals'),
      from: filter(dateTimeParam('start', 'Bought at or after.'), 'bought_at', 'atLeast'),
      to: filter(dateTimeParam('end', 'Bought at or before.'), 'bought_at', 'atMost'),
      withTotals: otherParam(v.optional(booleanParam('Include totals.'), 'false')),
    },
  },
})

describe('the list surface', () => {
  it('completes the definition: sorts name columns, filters by parameter, the search, no fixed order', () => {
    expect(assets.sorts).toEqual({ name: 'name', bought: 'bought_at' })
    expect(assets.filters).toEqual({
      companyId: { column: 'company_id', op: 'equals' },
      from: { column: 'bought_at', op: 'atLeast' },
      to: { column: 'bought_at', op: 'atMost' },
    })
    expect(assets.search).toEqual({ columns: ['name'], trigram: false })
    expect(assets.order).toEqual([])
    expect(assets.list.searchParam).toBe('q')
    expect(trainingEnrollments.list.sort).toBeNull()
    expect(trainingEnrollments.order).toEqual([{ column: 'enrolled_at', descending: true }])
  })

  it('derives the query schema: paging, the sort in its spelling with its default, then the parameters', () => {
    const schema = listQuerySchema(assets)
    expect(Object.keys(schema.entries)).toEqual([
      'page',
      'limit',
      'cursor',
      'sortBy',
      'sortOrder',
      'q',
      'companyId',
      'from',
      'to',
      'withTotals',
    ])
    expect(v.parse(schema, {})).toEqual({ page: 1, limit: 25, sortBy: 'bought', sortOrder: 'asc', withTotals: false })
    expect(v.safeParse(schema, { sortBy: 'price' }).success).toBe(false)
    expect(listQuerySchema(assets)).toBe(schema)
    const parsed = v.parse(UserListQuerySchema, { sortColumn: 'email', isPrimaryAdmin: 'true' })
    expect(parsed).toMatchObject({ sortColumn: 'email', sortDesc: true, isPrimaryAdmin: true })
    expectTypeOf(parsed.sortColumn).toEqualTypeOf<'full_name' | 'email' | 'status' | 'created_at' | 'last_login'>()
    expectTypeOf(parsed.isPrimaryAdmin).toEqualTypeOf<boolean | undefined>()
    expectTypeOf(v.parse(schema, {}).withTotals).toEqualTypeOf<boolean>()
  })

  it('refuses crossed bounds of one column on the lower bound (a 400, not an empty page)', () => {
    const result = v.safeParse(listQuerySchema(assets), { from: '2024-02-01', to: '2024-01-01' })
    expect(result.success).toBe(false)
    expect(result.issues?.map((issue) => [v.getDotPath(issue), issue.message])).toEqual([
      ['from', 'from must not be after to'],
    ])
    expect(v.safeParse(listQuerySchema(assets), { from: '2024-01-01', to: '2024-01-01' }).success).toBe(true)
  })

  it('builds the store request by the surface: its sort spelling, its search parameter, its filters', () => {
    const query = v.parse(listQuerySchema(assets), { q: 'Desk', companyId: 'AAAAAAAA-0001-4000-8000-000000000001' })
    expect(listRequest(assets, query)).toEqual({
      filters: { companyId: 'aaaaaaaa-0001-4000-8000-000000000001' },
      search: 'Desk',
      order: [{ column: 'bought_at', descending: false }],
      page: 1,
      limit: 25,
      after: undefined,
    })
    const descending = v.parse(listQuerySchema(companies), { sortBy: 'created_at', sortOrder: 'desc' })
    expect(listRequest(companies, descending).order).toEqual([{ column: 'created_at', descending: true }])
    // A query without sort parameters (a direct store call) takes the default sort.
    expect(listRequest(tickets, { page: 1, limit: 5 }).order).toEqual([{ column: 'created_at', descending: true }])
  })

  it('refuses a surface that contradicts its columns', () => {
    const sorted = { defaultSort: { by: 'name', descending: false }, direction: 'sortDesc' } as const
    expect(() => definition({ ...sorted, sorts: { name: 'label' } })).toThrow('sort name orders by label')
    expect(() =>
      definition({ ...sorted, sorts: { name: 'name' }, defaultSort: { by: 'x', descending: true } }),
    ).toThrow('default sort x')
    expect(() =>
      definition({
        order: [],
        params: { kind: filter(enumParam(['a', 'b']), 'kind', 'equals') },
      }),
    ).toThrow('no column kind')
    expect(() =>
      definition({ order: [], params: { company: filter(textParam(9), 'company_id', 'equalsFolded') } }),
    ).toThrow('keeps no folded copy')
    expect(() =>
      definition({
        order: [],
        params: { a: search(textParam(9), ['name']), b: search(textParam(9), ['name']) },
      }),
    ).toThrow('two search parameters')
  })
})
