/**
 * Every validation bound: one past each limit is a 400 `VALIDATION_ERROR` whose `details` name the
 * field (`{ in, path, message }`), the limit itself is accepted. Also enums, unknown and repeated
 * parameters, unknown body fields, booleans, digits-only integers, `null` only where it clears, and
 * the references (category, goal, companies, report type) that must exist in the tenant. The cases
 * are in validation-queries.ts and validation-bodies.ts, the writes they are sent to in
 * validation-body-targets.ts.
 */
import { describe, expect, it } from 'vitest'
import { automationRules, budgets, reports } from '../../model/index.js'
import { operations } from '../../operations/index.js'
import type { CallResult, Harness } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { writableSeed } from './fixtures.js'
import { sampleBody, samplePath } from './samples.js'
import { BODY_ACCEPTED, BODY_REJECTED } from './validation-bodies.js'
import { type BodyTarget, route, schemaRejects, send, TARGETS } from './validation-body-targets.js'
import { QUERY_ACCEPTED, QUERY_REJECTED } from './validation-queries.js'
import { A } from './validation-values.js'

/**
 * Checks a 400 `VALIDATION_ERROR` whose details name `field` (one of `field` when a list) in `where`.
 *
 * @example
 * expectValidationError(await h.call('GET', '/tickets?limit=101'), 'query', 'limit')
 */
export function expectValidationError(
  result: CallResult,
  where: 'query' | 'body',
  field: string | readonly string[] | null,
): void {
  expect(result.status, JSON.stringify(result.body)).toBe(400)
  // Read as the Error shape with its fields unchecked: this function is what checks them.
  const body = result.body as { code?: unknown; details?: unknown }
  expect(body.code).toBe('VALIDATION_ERROR')
  const details = body.details as Array<Record<string, unknown>>
  expect(Array.isArray(details) && details.length > 0).toBe(true)
  for (const detail of details) {
    expect(Object.keys(detail).sort()).toEqual(['in', 'message', 'path'])
    expect(typeof detail.path).toBe('string')
    expect(typeof detail.message === 'string' && detail.message.length > 0).toBe(true)
  }
  if (field === null) return
  const fields = typeof field === 'string' ? [field] : field
  expect(
    details.some((detail) => detail.in === where && fields.includes(detail.path as string)),
    JSON.stringify(details),
  ).toBe(true)
}

/**
 * Registers the store-independent validation tests: every rejected query and every body the
 * schema rejects. They run once per test run (`runHttpConformance`), not per store.
 *
 * @example
 * validation(ctx)
 */
export function validation(ctx: ConformanceContext): void {
  describe('validation: query parameters', () => {
    for (const [path, query, field] of QUERY_REJECTED) {
      it(`rejects ${path}?${query.length > 60 ? `${query.slice(0, 40)}…(${query.length} chars)` : query}`, async () => {
        expectValidationError(await ctx.a.h.call('GET', `${path}?${query}`), 'query', field)
      })
    }
    for (const operation of operations) {
      it(`rejects an unknown query parameter on ${operation.method} ${operation.path}`, async () => {
        const { h } = operation.method === 'GET' ? { h: ctx.a.h } : await ctx.fresh(writableSeed('a'))
        const path = samplePath(operation, A)
        const result = await h.call(
          operation.method,
          `${path}${path.includes('?') ? '&' : '?'}bogus=1`,
          sampleBody(operation),
        )
        expectValidationError(result, 'query', 'bogus')
      })
    }
  })

  describe('validation: bodies the schema rejects', () => {
    // A writable tenant of its own, so that a wrongly accepted body cannot touch the fixtures.
    let rejecting: Harness | undefined
    const h = async () => (rejecting ??= (await ctx.fresh(writableSeed('a'))).h)
    for (const [target, label, body, field] of BODY_REJECTED) {
      if (!schemaRejects(target, body(TARGETS[target].base))) continue
      it(`${route(target)} rejects ${label}`, async () => {
        expectValidationError(await send(await h(), target, body(TARGETS[target].base)), 'body', field)
      })
    }
  })
}

/**
 * Registers the validation tests that reach the store: bounds accepted (the store sees the
 * extreme values), references that must exist in the tenant, bodies refused against the stored
 * record, and proof that no rejected body changed anything.
 *
 * @example
 * validationAgainstStore(ctx)
 */
export function validationAgainstStore(ctx: ConformanceContext): void {
  describe('validation: accepted queries reach the store', () => {
    for (const [path, query] of QUERY_ACCEPTED) {
      it(`accepts ${path}?${query.length > 60 ? `${query.slice(0, 40)}…(${query.length} chars)` : query}`, async () => {
        const result = await ctx.a.h.call('GET', `${path}?${query}`)
        expect(result.status, JSON.stringify(result.body)).toBe(200)
      })
    }
  })

  describe('validation: bodies', () => {
    // Rejected requests write nothing, so they share one tenant; the last test proves it is untouched.
    let rejecting: { tenantId: string; h: Harness } | undefined
    const rejectingTenant = async () => (rejecting ??= await ctx.fresh(writableSeed('a')))
    for (const [target, label, body, field] of BODY_REJECTED) {
      if (schemaRejects(target, body(TARGETS[target].base))) continue
      it(`${route(target)} rejects ${label}`, async () => {
        const { h } = await rejectingTenant()
        expectValidationError(await send(h, target, body(TARGETS[target].base)), 'body', field)
      })
    }
    it('rejected bodies changed nothing', async () => {
      const { h, tenantId } = await rejectingTenant()
      // One schema-rejected body per target as well, through the store under test.
      for (const target of Object.keys(TARGETS) as BodyTarget[]) {
        const rejected = BODY_REJECTED.find(([t, , body]) => t === target && schemaRejects(t, body(TARGETS[t].base)))
        if (rejected) expect((await send(h, target, rejected[2](TARGETS[target].base))).status).toBe(400)
      }
      const { tenantId: pristine } = await ctx.fresh(writableSeed('a'))
      const read = (id: string) =>
        Promise.all([
          ctx.store.get(budgets, id, A.budget),
          ctx.store.get(budgets, id, A.emptyBudget),
          ctx.store.get(automationRules, id, A.rule),
          ctx.store.get(reports, id, A.report),
        ])
      expect(await read(tenantId)).toEqual(await read(pristine))
    })
    for (const [target, label, body, check] of BODY_ACCEPTED) {
      it(`${route(target)} accepts ${label}`, async () => {
        const { h } = await ctx.fresh(writableSeed('a'))
        const result = await send(h, target, body(TARGETS[target].base))
        expect(result.status, JSON.stringify(result.body).slice(0, 500)).toBe(TARGETS[target].success)
        check?.(result.body.data ?? {})
      })
    }
  })
}
