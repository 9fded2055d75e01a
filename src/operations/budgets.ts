import { validationError, type ValidationIssue } from '../http/errors.js'
import { defineOperation } from '../http/operation.js'
import { annualisedCost } from '../model/computed.js'
import { dataEnvelope } from '../model/shared.js'
import { goals } from '../model/goals.js'
import { plannerItemTypes } from '../model/planner.js'
import { found, notFound, ok, UuidIdParams } from './results.js'
import {
  BudgetLineItemSchema,
  BudgetSchema,
  budgetLineItems,
  budgets,
  CreateLineItemSchema,
  UpdateBudgetSchema,
  type BudgetLineItem,
} from '../model/budgets.js'
import { writeContextOf } from './write-context.js'

export const createBudgetLineItem = defineOperation({
  id: 'createBudgetLineItem',
  method: 'POST',
  path: '/budgets/:id/items',
  area: 'Budgets',
  summary: 'Add a line item to a budget',
  description:
    'Creates a line item (status `draft` unless given) and moves the budget’s `updatedAt`. ' +
    '`categoryId` must name a planner item type of the tenant; ' +
    '`linkedItemType: goal` must name a goal of the tenant. Send `Idempotency-Key` to make retries safe.',
  scope: 'budgets.write',
  params: UuidIdParams,
  body: CreateLineItemSchema,
  response: dataEnvelope(BudgetLineItemSchema),
  successStatus: 201,
  responseHeaders: { Location: 'The new line item, under its budget.' },
  errors: ['NOT_FOUND', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED'],
  idempotent: true,
  handle: async (context) => {
    const { store, tenantId, params, body, now, basePath } = context
    const [category, goal] = await Promise.all([
      body.categoryId === undefined ? null : store.get(plannerItemTypes, tenantId, body.categoryId),
      body.linkedItemType === 'goal' && body.linkedItemId !== undefined
        ? store.get(goals, tenantId, body.linkedItemId)
        : null,
    ])
    const issues: ValidationIssue[] = []
    if (body.categoryId !== undefined && category === null)
      issues.push({ in: 'body', path: 'categoryId', message: 'No planner item type with this id' })
    if (body.linkedItemType === 'goal' && goal === null)
      issues.push({ in: 'body', path: 'linkedItemId', message: 'No goal with this id' })
    if (issues.length > 0) throw validationError(issues)

    const timestamp = now.toISOString()
    const item: BudgetLineItem = {
      id: crypto.randomUUID(),
      type: body.type,
      description: body.description,
      quantity: body.quantity,
      unitPrice: body.unitPrice,
      recurrence: body.recurrence,
      termMonths: body.termMonths,
      annualisedCost: annualisedCost(body),
      status: body.status,
      currency: body.currency,
      notes: body.notes ?? null,
      category: category === null ? null : { id: category.id, name: category.name },
      linkedItem:
        body.linkedItemId === undefined || body.linkedItemType === undefined
          ? null
          : { id: body.linkedItemId, type: body.linkedItemType, name: goal?.title ?? null },
      createdAt: timestamp,
      updatedAt: timestamp,
    }
    if (!(await store.addChild(budgetLineItems, tenantId, params.id, item, writeContextOf(context))))
      throw notFound('Budget')
    return {
      status: 201,
      body: { data: item },
      headers: { location: `${basePath}/budgets/${params.id}/items/${item.id}` },
    }
  },
})

export const updateBudget = defineOperation({
  id: 'updateBudget',
  method: 'PATCH',
  path: '/budgets/:id',
  area: 'Budgets',
  summary: 'Update a budget',
  description:
    'Only the supplied fields change; `notes: null` clears the notes. Returns the budget with its line items.',
  scope: 'budgets.write',
  params: UuidIdParams,
  body: UpdateBudgetSchema,
  response: dataEnvelope(BudgetSchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async (context) => {
    const { store, tenantId, params, body, now } = context
    return ok(
      await found(
        store.patch(budgets, tenantId, params.id, body, now.toISOString(), writeContextOf(context)),
        'Budget',
      ),
    )
  },
})
