/**
 * Store level, lists: every list method with each sort in both directions, its fixed or default
 * order, every filter and search case, pages that neither overlap nor skip, a page past the end
 * and an empty tenant, each against the independent reference (reference.ts), called directly on
 * the store with the query the pipeline would hand it.
 */
import { describe, expect, it } from 'vitest'
import type { ListResult, Store } from '../../stores/store.js'
import type { ConformanceContext } from './context.js'
import { FILTERS, FIXED, SORTABLE, type ListMethod } from './lists-and-ordering.js'
import type { Row } from './reference.js'
import { sortRows } from './reference.js'
import { callLabel, listQuery } from './store-calls.js'

type ListCall = (tenantId: string, query: Record<string, unknown>) => Promise<ListResult<Row>>

/** Calls a list method by name; the query comes from the method's own schema, so the cast is sound. */
function lister(store: Store, method: ListMethod): ListCall {
  const fn = store[method] as unknown as ListCall
  return (tenantId, query) => fn.call(store, tenantId, query)
}

/**
 * Calls `method` on fixture tenant A with `query` (a URL query string) and checks the ids and the
 * count, then walks pages of `pageSize` and checks each page's slice of `expected`.
 */
async function expectList(
  ctx: ConformanceContext,
  method: ListMethod,
  query: string,
  expected: readonly string[],
  pageSize: number,
): Promise<void> {
  const list = lister(ctx.store, method)
  const all = listQuery(method, `limit=100${query ? `&${query}` : ''}`)
  const result = await list(ctx.a.tenantId, all)
  const label = callLabel(method, 'A', all)
  expect(
    result.items.map((item) => item.id),
    `${label} returned these ids`,
  ).toEqual(expected)
  expect(result.totalCount, `${label} totalCount`).toBe(expected.length)
  const pages = Math.max(1, Math.ceil(expected.length / pageSize))
  for (let page = 1; page <= pages + 1; page++) {
    const paged = listQuery(method, `page=${page}&limit=${pageSize}${query ? `&${query}` : ''}`)
    const slice = await list(ctx.a.tenantId, paged)
    const pageLabel = callLabel(method, 'A', paged)
    expect(
      slice.items.map((item) => item.id),
      `${pageLabel} returned these ids`,
    ).toEqual(expected.slice((page - 1) * pageSize, page * pageSize))
    expect(slice.totalCount, `${pageLabel} totalCount`).toBe(expected.length)
  }
}

const orderWord = (descending: boolean) => (descending ? 'descending' : 'ascending')

/**
 * Registers the store-level list tests.
 *
 * @example
 * storeLists(ctx)
 */
export function storeLists(ctx: ConformanceContext): void {
  describe('store: lists', () => {
    for (const list of SORTABLE) {
      describe(`${list.method}`, () => {
        it(`orders by ${list.defaultSort.value} ${orderWord(list.defaultSort.descending)} by default`, async () => {
          const key = list.sorts[list.defaultSort.value]!
          const expected = sortRows(list.rows(), key, list.defaultSort.descending).map((row) => row.id)
          await expectList(ctx, list.method, '', expected, 3)
        })
        for (const [value, key] of Object.entries(list.sorts)) {
          it(`orders by ${value} both ways (nulls last, ties by id), pages of 3 neither overlap nor skip`, async () => {
            for (const descending of [false, true]) {
              const expected = sortRows(list.rows(), key, descending).map((row) => row.id)
              await expectList(
                ctx,
                list.method,
                `${list.sortParam}=${value}&${list.direction(descending)}`,
                expected,
                3,
              )
            }
          })
        }
      })
    }

    for (const list of FIXED) {
      it(`${list.method}: ${list.name.replace(/^[^(]*/, '').trim() || 'one fixed order'}`, async () => {
        await expectList(
          ctx,
          list.method,
          '',
          list.order().map((row) => row.id),
          3,
        )
      })
    }

    for (const list of Object.values(FILTERS)) {
      it(`${list.method}: every filter and search case (search escaping included)`, async () => {
        for (const filter of list.cases) {
          const expected = list.defaultOrder(list.rows()).filter(filter.matches)
          if (filter.exactly) expect(expected.map(list.label).sort()).toEqual([...filter.exactly].sort())
          await expectList(
            ctx,
            list.method,
            filter.query,
            expected.map((row) => row.id),
            2,
          )
        }
      })
    }

    it('every list method answers a tenant without records with no items and totalCount 0', async () => {
      const tenantId = `empty-${crypto.randomUUID()}`
      const methods = new Set<ListMethod>([...SORTABLE, ...FIXED].map((list) => list.method))
      for (const method of methods) {
        const query = listQuery(method, '')
        const result = await lister(ctx.store, method)(tenantId, query)
        expect(result, callLabel(method, 'empty tenant', query)).toEqual({ items: [], totalCount: 0 })
      }
    })
  })
}
