/**
 * Store level, lists: every collection's list with each sort in both directions, its fixed or default
 * order, every filter and search case, pages that neither overlap nor skip, a page past the end
 * and an empty tenant, each against the independent reference (reference.ts), called directly on
 * the store with the request the operation layer would build (`listRequest`).
 */
import type * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { operations } from '../../operations/index.js'
import type { ConformanceContext } from './context.js'
import { FILTERS } from './list-filters.js'
import { FIXED, SORTABLE, type ListMethod } from './list-sorts.js'
import { sortRows } from './reference.js'
import { hasIdParam } from './samples.js'
import { LIST_METHODS, listLabel, lister, listQuery, readListOf, shapeProblems } from './store-calls.js'

/**
 * Calls `method` on fixture tenant A with `query` (a URL query string) and checks the ids and the
 * count, then two pages and the one past the end, checking each page's slice of `expected` (the
 * full list proves the order; the pages prove that offsets follow it, e.g. that a store does not
 * sort after its LIMIT). The calls run together: a SQL store answers them on several connections.
 */
async function expectList(
  ctx: ConformanceContext,
  method: ListMethod,
  query: string,
  expected: readonly string[],
): Promise<void> {
  const pageSize = Math.max(2, Math.ceil(expected.length / 2))
  const queries = [
    { query: listQuery(method, `limit=100${query ? `&${query}` : ''}`), slice: expected },
    ...[1, 2, 3].map((page) => ({
      query: listQuery(method, `page=${page}&limit=${pageSize}${query ? `&${query}` : ''}`),
      slice: expected.slice((page - 1) * pageSize, page * pageSize),
    })),
  ]
  const list = lister(ctx.store, method)
  const results = await Promise.all(queries.map((call) => list(ctx.a.tenantId, call.query)))
  queries.forEach((call, i) => {
    const label = listLabel(method, 'A', call.query)
    expect(
      results[i]!.items.map((item) => item.id),
      `${label} returned these ids`,
    ).toEqual(call.slice)
    expect(results[i]!.totalCount, `${label} totalCount`).toBe(expected.length)
  })
}

/** The model schema of a list's items: the `data` items of its operation's response. */
function itemSchema(method: ListMethod): v.GenericSchema {
  const { response } = readListOf(method).operation
  const item = (response as { entries?: { data?: { item?: v.GenericSchema } } }).entries?.data?.item
  if (item === undefined) throw new Error(`${method}: its response is no list envelope`)
  return item
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
          await expectList(ctx, list.method, '', expected)
        })
        for (const [value, key] of Object.entries(list.sorts)) {
          it(`orders by ${value} both ways (nulls last, ties by id), pages neither overlap nor skip`, async () => {
            await Promise.all(
              [false, true].map((descending) => {
                const expected = sortRows(list.rows(), key, descending).map((row) => row.id)
                return expectList(
                  ctx,
                  list.method,
                  `${list.sortParam}=${value}&${list.direction(descending)}`,
                  expected,
                )
              }),
            )
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
        )
      })
    }

    for (const list of Object.values(FILTERS)) {
      it(`${list.method}: every filter and search case (search escaping included)`, async () => {
        await Promise.all(
          list.cases.map((filter) => {
            const expected = list.defaultOrder(list.rows()).filter(filter.matches)
            if (filter.exactly) expect(expected.map(list.label).sort()).toEqual([...filter.exactly].sort())
            return expectList(
              ctx,
              list.method,
              filter.query,
              expected.map((row) => row.id),
            )
          }),
        )
      })
    }

    it('covers every list operation of the registry', () => {
      // Not collection lists: webhook endpoints (at most 20 a tenant) are paged by their operation,
      // and the events feed has its own group.
      const lists = operations
        .filter((operation) => operation.method === 'GET' && !hasIdParam(operation))
        .map((operation) => operation.id)
        .filter((id) => id !== 'listWebhookEndpoints' && id !== 'listEvents')
      expect([...lists].sort(), 'list operations without a store-level check').toEqual([...LIST_METHODS].sort())
    })

    it('every list method returns items in the shape of its record schema', async () => {
      for (const method of LIST_METHODS) {
        const query = listQuery(method, 'limit=100')
        const { items } = await lister(ctx.store, method)(ctx.a.tenantId, query)
        const problems = items.flatMap((item, i) => shapeProblems(itemSchema(method), item).map((p) => `[${i}] ${p}`))
        expect(problems, `${listLabel(method, 'A', query)} returned items that do not match the model`).toEqual([])
      }
    })

    it('every list method answers a tenant without records with no items and totalCount 0', async () => {
      const tenantId = `empty-${crypto.randomUUID()}`
      for (const method of LIST_METHODS) {
        const query = listQuery(method, '')
        const result = await lister(ctx.store, method)(tenantId, query)
        expect(result, listLabel(method, 'empty tenant', query)).toEqual({ items: [], totalCount: 0 })
      }
    })
  })
}
