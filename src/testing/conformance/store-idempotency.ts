/**
 * Store level, idempotency reservations and tenant isolation. Reservations are driven with given
 * clocks: reserved, in_progress (with the holder's fingerprint), completed (with the stored
 * response), released, the lock that lapses after IDEMPOTENCY_LOCK_MS and the record that lapses
 * after IDEMPOTENCY_TTL_MS. Isolation calls every method of tenant A with tenant B's ids.
 */
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { IDEMPOTENCY_LOCK_MS, IDEMPOTENCY_TTL_MS, type StoredResponse } from '../../ports/store.js'
import { UpdateBudgetSchema } from '../../model/budgets.js'
import type { ConformanceContext } from './context.js'
import { at, fixtureIds, MINIMAL_LINE_ITEM, writableSeed } from './fixtures.js'
import { callLabel, LIST_METHODS, listLabel, lister, listQuery } from './store-calls.js'
import { automationRules, budgets, reports, SEEDED_COLLECTIONS, trainingCourses } from '../../model/index.js'
import { sortedFixtureIds } from './fixture-ids.js'
import { getRecord, lookupValue, withEveryPart } from './store-gets.js'

const T0 = new Date('2024-03-01T12:00:00.000Z')
const later = (ms: number) => new Date(T0.getTime() + ms)
const RESPONSE: StoredResponse = { status: 201, body: { data: { id: 'x', total: 1.5 } }, headers: { location: '/x' } }

/**
 * Registers the store-level idempotency and isolation tests.
 *
 * @example
 * storeIdempotencyAndIsolation(ctx)
 */
export function storeIdempotencyAndIsolation(ctx: ConformanceContext): void {
  describe('store: idempotency reservations', () => {
    const reserve = async (tenantId: string, key: string, fingerprint: string, now: Date) => ({
      result: await ctx.store.reserveIdempotencyKey(tenantId, key, fingerprint, now),
      label: callLabel('reserveIdempotencyKey', 't', key, fingerprint, now),
    })

    it('reserved, then in_progress with the holder’s fingerprint, then completed with the response', async () => {
      const { tenantId } = await ctx.fresh({})
      let call = await reserve(tenantId, 'k', 'fp-1', T0)
      expect(call.result, call.label).toEqual({ state: 'reserved' })
      call = await reserve(tenantId, 'k', 'fp-2', later(1000))
      expect(call.result, call.label).toEqual({ state: 'in_progress', fingerprint: 'fp-1' })
      await ctx.store.completeIdempotencyKey(tenantId, 'k', RESPONSE)
      call = await reserve(tenantId, 'k', 'fp-2', later(2000))
      expect(call.result, `${call.label} after completeIdempotencyKey`).toEqual({
        state: 'completed',
        fingerprint: 'fp-1',
        response: RESPONSE,
      })
    })

    it('releaseIdempotencyKey frees the key for the next request', async () => {
      const { tenantId } = await ctx.fresh({})
      await reserve(tenantId, 'k', 'fp-1', T0)
      await ctx.store.releaseIdempotencyKey(tenantId, 'k')
      const call = await reserve(tenantId, 'k', 'fp-2', later(1))
      expect(call.result, `${call.label} after releaseIdempotencyKey`).toEqual({ state: 'reserved' })
      const held = await reserve(tenantId, 'k', 'fp-3', later(2))
      expect(held.result, held.label).toEqual({ state: 'in_progress', fingerprint: 'fp-2' })
    })

    it('an unfinished reservation holds for IDEMPOTENCY_LOCK_MS, then may be taken', async () => {
      const { tenantId } = await ctx.fresh({})
      await reserve(tenantId, 'k', 'fp-1', T0)
      const held = await reserve(tenantId, 'k', 'fp-2', later(IDEMPOTENCY_LOCK_MS - 1))
      expect(held.result, held.label).toEqual({ state: 'in_progress', fingerprint: 'fp-1' })
      const taken = await reserve(tenantId, 'k', 'fp-2', later(IDEMPOTENCY_LOCK_MS + 1))
      expect(taken.result, taken.label).toEqual({ state: 'reserved' })
    })

    it('a completed response replays for IDEMPOTENCY_TTL_MS from its reservation, then the key is free', async () => {
      const { tenantId } = await ctx.fresh({})
      await reserve(tenantId, 'k', 'fp-1', T0)
      await ctx.store.completeIdempotencyKey(tenantId, 'k', RESPONSE)
      const kept = await reserve(tenantId, 'k', 'fp-1', later(IDEMPOTENCY_TTL_MS - 1))
      expect(kept.result, kept.label).toEqual({ state: 'completed', fingerprint: 'fp-1', response: RESPONSE })
      const expired = await reserve(tenantId, 'k', 'fp-2', later(IDEMPOTENCY_TTL_MS + 1))
      expect(expired.result, expired.label).toEqual({ state: 'reserved' })
    })

    it('keys are per tenant: the same key elsewhere is free, and a release there frees nothing here', async () => {
      const one = await ctx.fresh({})
      const two = await ctx.fresh({})
      await reserve(one.tenantId, 'k', 'fp-1', T0)
      const other = await reserve(two.tenantId, 'k', 'fp-2', later(1))
      expect(other.result, `${other.label} in a second tenant`).toEqual({ state: 'reserved' })
      await ctx.store.releaseIdempotencyKey(two.tenantId, 'k')
      await ctx.store.completeIdempotencyKey(two.tenantId, 'k', RESPONSE)
      const mine = await reserve(one.tenantId, 'k', 'fp-3', later(2))
      expect(mine.result, `${mine.label} after the second tenant released its key`).toEqual({
        state: 'in_progress',
        fingerprint: 'fp-1',
      })
    })
  })

  describe('store: tenant isolation', () => {
    storeIsolatedReads(ctx)

    storeIsolatedWrites(ctx)
  })
}

/** Registers the tests that a store’s writes of one tenant never reach another’s records. */
function storeIsolatedWrites(ctx: ConformanceContext): void {
  it('every write of tenant A to tenant B’s ids is refused and changes nothing of B', async () => {
    const a = await ctx.fresh(writableSeed('a'))
    const owner = await ctx.fresh(writableSeed('b'))
    const b = fixtureIds('b')
    const snapshot = () =>
      Promise.all([
        ctx.store.get(budgets, owner.tenantId, b.budget),
        ctx.store.get(automationRules, owner.tenantId, b.rule),
        ctx.store.get(reports, owner.tenantId, b.report),
        ctx.store.get(trainingCourses, owner.tenantId, b.courses[0]!),
      ])
    const before = await snapshot()
    const [budget, rule, report] = before
    const patch = v.parse(UpdateBudgetSchema, { title: 'Hijacked' })
    expect(
      await ctx.store.updateBudget(a.tenantId, b.budget, patch, at(20)),
      callLabel('updateBudget', 'A', b.budget, patch),
    ).toBeNull()
    const item = { ...budget!.lineItems[0]!, ...MINIMAL_LINE_ITEM, id: '0e0e0e0e-0e0e-4e0e-8e0e-0e0e0e0e0e0e' }
    expect(
      await ctx.store.addBudgetLineItem(a.tenantId, b.budget, item),
      callLabel('addBudgetLineItem', 'A', b.budget),
    ).toBe(false)
    const ruleNext = { ...rule!, name: 'Hijacked', version: rule!.version + 1 }
    expect(
      await ctx.store.replaceVersioned(automationRules, a.tenantId, ruleNext, rule!.version),
      callLabel('replaceVersioned(automationRules)', 'A', b.rule),
    ).toBe(false)
    const reportNext = { ...report!, title: 'Hijacked', version: report!.version + 1 }
    expect(
      await ctx.store.replaceVersioned(reports, a.tenantId, reportNext, report!.version),
      callLabel('replaceVersioned(reports)', 'A', b.report),
    ).toBe(false)
    expect(
      await ctx.store.deleteTrainingEnrollment(a.tenantId, b.enrollments[0]!),
      callLabel('deleteTrainingEnrollment', 'A', b.enrollments[0]),
    ).toBe(false)
    expect(await snapshot(), 'tenant B’s budget, rule, report and course after the refused writes').toEqual(before)
  })

  it('the same ids in two tenants are two records: a write to one leaves the other', async () => {
    const one = await ctx.fresh(writableSeed('a'))
    const two = await ctx.fresh(writableSeed('a'))
    const { budget } = ctx.a.ids
    const before = await ctx.store.get(budgets, two.tenantId, budget)
    await ctx.store.updateBudget(one.tenantId, budget, { title: 'Only in one' }, at(20))
    expect(
      await ctx.store.get(budgets, two.tenantId, budget),
      'get(budgets, two) after updateBudget(one, same id)',
    ).toEqual(before)
  })
}

/** Registers the tests that a store’s lists and gets of one tenant never show another’s records. */
function storeIsolatedReads(ctx: ConformanceContext): void {
  it('every list returns only the tenant’s own records', async () => {
    for (const method of LIST_METHODS) {
      const query = listQuery(method, 'limit=100')
      for (const [own, head] of [
        [ctx.a, 'aaaaaaaa-'],
        [ctx.b, 'bbbbbbbb-'],
      ] as const) {
        const listed = await lister(ctx.store, method)(own.tenantId, query)
        const label = listLabel(method, own === ctx.a ? 'A' : 'B', query)
        expect(listed.items.length, `${label} returned no items`).toBeGreaterThan(0)
        const text = JSON.stringify(listed.items)
        expect(
          text.includes(head === 'aaaaaaaa-' ? 'bbbbbbbb-' : 'aaaaaaaa-'),
          `${label} holds the other tenant’s ids`,
        ).toBe(false)
      }
    }
  })

  it('every get of tenant A answers null for tenant B’s ids', async () => {
    const b = fixtureIds('b')
    const t = ctx.a.tenantId
    for (const collection of SEEDED_COLLECTIONS) {
      const full = withEveryPart(collection)
      for (const id of sortedFixtureIds('b', collection.name)) {
        const own = await getRecord(ctx.store, collection, ctx.b.tenantId, id, full)
        expect(own?.id, callLabel(`get(${collection.name})`, 'B', id, full)).toBe(id)
        const second = lookupValue(collection, own!)
        for (const key of second === null ? [id] : [id, second])
          expect(
            await getRecord(ctx.store, collection, t, key, full),
            callLabel(`get(${collection.name})`, 'A', key, full),
          ).toBeNull()
      }
    }
    const found = await ctx.store.findCompanies(t, b.companies)
    expect(found, callLabel('findCompanies', 'A', b.companies)).toEqual([])
  })
}
