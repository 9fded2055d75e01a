/**
 * Where the body validation cases are sent: one write of each kind (line item, budget, rule
 * created and updated, report), its route and the status of a success, and whether the body schema
 * alone rejects a body (then no store is reached).
 */
import * as v from 'valibot'
import type { ErrorBody } from '../../http/errors.js'
import { operations } from '../../operations/index.js'
import type { Harness } from '../harness.js'
import { MINIMAL_LINE_ITEM, MINIMAL_RULE, type FixtureIds } from './fixtures.js'
import { A } from './validation-values.js'

/** A write the body cases are sent to. */
export type BodyTarget = 'lineItem' | 'budget' | 'createRule' | 'rule' | 'report'
/** Each target's operation, method and path, the status of a success, and the base its bodies start from. */
export const TARGETS: Record<
  BodyTarget,
  {
    operation: string
    method: string
    path: (ids: FixtureIds) => string
    success: number
    base: Record<string, unknown>
  }
> = {
  lineItem: {
    operation: 'createBudgetLineItem',
    method: 'POST',
    path: (ids) => `/budgets/${ids.budget}/items`,
    success: 201,
    base: { ...MINIMAL_LINE_ITEM },
  },
  budget: {
    operation: 'updateBudget',
    method: 'PATCH',
    path: (ids) => `/budgets/${ids.budget}`,
    success: 200,
    base: {},
  },
  createRule: {
    operation: 'createAutomationRule',
    method: 'POST',
    path: () => '/automation',
    success: 201,
    base: { ...MINIMAL_RULE },
  },
  rule: {
    operation: 'updateAutomationRule',
    method: 'PATCH',
    path: (ids) => `/automation/${ids.rule}`,
    success: 200,
    base: {},
  },
  report: {
    operation: 'updateReport',
    method: 'PATCH',
    path: (ids) => `/reports/${ids.report}`,
    success: 200,
    base: {},
  },
}

/** A body target's method and path, its id shown as `{id}`: `PATCH /budgets/{id}`. */
export const route = (target: BodyTarget) =>
  `${TARGETS[target].method} ${TARGETS[target].path(A).replace(/[0-9a-f-]{36}/, '{id}')}`

/**
 * Whether the operation's body schema alone rejects `body`: then the pipeline answers before any
 * store call, and the case is store-independent. A body the schema accepts and the API still
 * rejects was refused on what the store holds (a reference, the stored record it merges into).
 */
export function schemaRejects(target: BodyTarget, body: unknown): boolean {
  const schema = operations.find((operation) => operation.id === TARGETS[target].operation)?.body
  if (schema === undefined) throw new Error(`No body schema for ${TARGETS[target].operation}`)
  return !v.safeParse(schema, body).success
}

/** A write's answer: the record written, or the Error shape. */
type WriteReply = Partial<ErrorBody> & { data?: Record<string, unknown> }

/** Sends `body` to a body target, addressed by tenant A's fixture ids. */
export const send = (h: Harness, target: BodyTarget, body: unknown) =>
  h.call<WriteReply>(TARGETS[target].method, TARGETS[target].path(A), { body })
