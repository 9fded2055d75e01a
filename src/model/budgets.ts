/** Budgets and their line items: a budget's document, and its items in their own rows, oldest first. */
import * as v from 'valibot'
import { DateTimeSchema, FiniteNumberSchema, NamedRefSchema, UuidSchema } from './shared.js'
import { defineCollection, defineView } from './collection.js'
import { annualisedCost, budgetTotals } from './computed.js'
import { omit, seedComputing, seedSchemaOf } from './seed-schema.js'

/** The allowed budget period types. */
export const BUDGET_PERIOD_TYPES = ['Annual', 'Quarterly', 'Monthly'] as const
/** The allowed budget statuses. */
export const BUDGET_STATUSES = ['Draft', 'PendingApproval', 'Approved', 'Obsolete'] as const
/** The allowed line item types. */
export const LINE_ITEM_TYPES = ['Software', 'Hardware', 'Labour', 'Other', 'Subscription'] as const
/** The allowed line item recurrences. */
export const LINE_ITEM_RECURRENCES = ['One-Time', 'Monthly', 'Annual'] as const
/** The allowed line item statuses. */
export const LINE_ITEM_STATUSES = ['pending', 'approved', 'rejected', 'draft'] as const
/** The allowed linked item types. */
export const LINKED_ITEM_TYPES = ['device', 'planner', 'goal', 'other'] as const

/**
 * Quantities and prices are capped so that every computed total stays a finite, exact-enough number.
 *
 * @example
 * MAX_QUANTITY // the bound the schema enforces
 */
export const MAX_QUANTITY = 1_000_000_000
/**
 * The largest `unitPrice` a line item may have (see {@link MAX_QUANTITY}).
 *
 * @example
 * MAX_UNIT_PRICE // the bound the schema enforces
 */
export const MAX_UNIT_PRICE = 1_000_000_000

/** A currency code: 3 ASCII letters, stored upper-case. */
const CurrencySchema = v.pipe(v.string(), v.regex(/^[A-Za-z]{3}$/, 'Must be 3 ASCII letters'), v.toUpperCase())

/**
 * One line of a budget. `annualisedCost` is computed.
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'budget_line_item.created':
 * const item = v.parse(BudgetLineItemSchema, event.data.object)
 * ledger.add(item.description, item.annualisedCost, item.currency)
 */
export const BudgetLineItemSchema = v.strictObject({
  id: UuidSchema,
  type: v.picklist(LINE_ITEM_TYPES),
  description: v.string(),
  quantity: v.number(),
  unitPrice: v.number(),
  recurrence: v.picklist(LINE_ITEM_RECURRENCES),
  termMonths: v.number(),
  annualisedCost: v.number(),
  status: v.picklist(LINE_ITEM_STATUSES),
  currency: v.string(),
  notes: v.nullable(v.string()),
  category: v.nullable(NamedRefSchema),
  linkedItem: v.nullable(
    v.strictObject({ id: v.string(), type: v.picklist(LINKED_ITEM_TYPES), name: v.nullable(v.string()) }),
  ),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
})
export type BudgetLineItem = v.InferOutput<typeof BudgetLineItemSchema>

/**
 * A budget totals, as the API reads and writes it.
 *
 * @example
 * v.parse(BudgetTotalsSchema, budget.totals).grandTotal // the annualised cost of its line items not rejected
 */
export const BudgetTotalsSchema = v.strictObject({
  softwareTotal: v.number(),
  hardwareTotal: v.number(),
  labourTotal: v.number(),
  subscriptionTotal: v.number(),
  otherTotal: v.number(),
  grandTotal: v.number(),
})
export type BudgetTotals = v.InferOutput<typeof BudgetTotalsSchema>

/**
 * A budget with its computed totals and, as `PATCH` returns it, its line items (oldest first).
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'budget.updated':
 * const budget = v.parse(BudgetSchema, event.data.object)
 * if (budget.status === 'Approved') report(budget.title, budget.totals.grandTotal)
 */
export const BudgetSchema = v.strictObject({
  id: UuidSchema,
  title: v.string(),
  fiscalYear: v.number(),
  periodType: v.picklist(BUDGET_PERIOD_TYPES),
  status: v.picklist(BUDGET_STATUSES),
  currency: v.string(),
  notes: v.nullable(v.string()),
  company: v.nullable(NamedRefSchema),
  createdBy: v.nullable(NamedRefSchema),
  totals: BudgetTotalsSchema,
  lineItemCount: v.number(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  lineItems: v.array(BudgetLineItemSchema),
})
export type Budget = v.InferOutput<typeof BudgetSchema>

/**
 * The body of `POST /budgets/{id}/items`.
 *
 * @example
 * const body = v.parse(CreateLineItemSchema, await request.json())
 */
export const CreateLineItemSchema = v.pipe(
  v.strictObject({
    type: v.picklist(LINE_ITEM_TYPES),
    description: v.pipe(v.string(), v.minLength(1), v.maxLength(1000)),
    unitPrice: v.pipe(FiniteNumberSchema, v.minValue(0), v.maxValue(MAX_UNIT_PRICE)),
    quantity: v.optional(v.pipe(FiniteNumberSchema, v.minValue(0), v.maxValue(MAX_QUANTITY)), 1),
    recurrence: v.optional(v.picklist(LINE_ITEM_RECURRENCES), 'One-Time'),
    termMonths: v.optional(v.pipe(FiniteNumberSchema, v.integer(), v.minValue(1), v.maxValue(120)), 1),
    status: v.optional(v.picklist(LINE_ITEM_STATUSES), 'draft'),
    currency: v.optional(CurrencySchema, 'USD'),
    notes: v.optional(v.pipe(v.string(), v.maxLength(5000))),
    categoryId: v.optional(UuidSchema),
    linkedItemId: v.optional(UuidSchema),
    linkedItemType: v.optional(v.picklist(LINKED_ITEM_TYPES)),
  }),
  v.forward(
    v.check(
      (item) => (item.linkedItemId === undefined) === (item.linkedItemType === undefined),
      'linkedItemId and linkedItemType come together or not at all',
    ),
    ['linkedItemId'],
  ),
  // The check above, as the OpenAPI document states it.
  v.metadata({ dependentRequired: { linkedItemId: ['linkedItemType'], linkedItemType: ['linkedItemId'] } }),
)
export type CreateLineItem = v.InferOutput<typeof CreateLineItemSchema>

/**
 * The body of `PATCH /budgets/{id}`: only supplied fields change; `notes: null` clears.
 *
 * @example
 * const body = v.parse(UpdateBudgetSchema, await request.json())
 */
export const UpdateBudgetSchema = v.pipe(
  v.strictObject({
    title: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(255))),
    fiscalYear: v.optional(v.pipe(FiniteNumberSchema, v.integer(), v.minValue(1900), v.maxValue(2100))),
    periodType: v.optional(v.picklist(BUDGET_PERIOD_TYPES)),
    status: v.optional(v.picklist(BUDGET_STATUSES)),
    currency: v.optional(CurrencySchema),
    notes: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(10000)))),
  }),
  // `minEntries` rather than a check: the OpenAPI document shows it as `minProperties: 1`.
  v.minEntries(1, 'Send at least one field to update'),
)
export type UpdateBudget = v.InferOutput<typeof UpdateBudgetSchema>

/** A budget as stored: `totals` and `lineItemCount` are computed when read, `lineItems` kept apart. */
export type BudgetRecord = Omit<Budget, 'totals' | 'lineItemCount' | 'lineItems'>

/**
 * The line items of budgets: keyed by their budget and a sequence number from 1, in the order
 * they were added (a seed adds them oldest first).
 *
 * @example
 * budgetLineItems.key.map((k) => k.name) // ['budget_id', 'seq']
 */
export const budgetLineItems = defineCollection<BudgetLineItem>()({
  name: 'budgetLineItems',
  table: 'budget_line_items',
  event: { resource: 'budget_line_item', readScope: 'budgets.write' },
  parent: { collection: 'budgets', field: 'lineItems' },
  seed: seedComputing(
    seedSchemaOf(v.object(omit(BudgetLineItemSchema.entries, 'annualisedCost'))),
    ['annualisedCost'],
    (item) => ({ annualisedCost: annualisedCost(item) }),
  ),
  key: [
    { name: 'budget_id', type: 'text' },
    { name: 'seq', type: 'integer' },
  ],
})

/**
 * A budget as read: with its line items (oldest first), their totals and their count.
 *
 * @example
 * budgets.view.show(record, { lineItems }).totals.grandTotal
 */
const budgetView = defineView({
  fields: ['totals', 'lineItemCount'],
  needs: { lineItems: { children: budgetLineItems, by: 'budget_id' } },
  show: (record: BudgetRecord, { lineItems }: { lineItems: readonly BudgetLineItem[] }): Budget => ({
    ...record,
    lineItems: [...lineItems],
    totals: budgetTotals(lineItems),
    lineItemCount: lineItems.length,
  }),
})

/**
 * The budgets collection (documents only; the line items are {@link budgetLineItems}).
 *
 * @example
 * budgets.document(seededBudget) // the budget without its lineItems
 */
export const budgets = defineCollection<BudgetRecord, BudgetRecord & { lineItems: readonly BudgetLineItem[] }>()({
  name: 'budgets',
  table: 'budgets',
  event: { resource: 'budget', readScope: 'budgets.write' },
  // Without its line items: a seed's are validated by theirs (`budgetLineItems.parent` names this field).
  seed: seedSchemaOf(v.object(omit(BudgetSchema.entries, ...budgetView.fields, 'lineItems'))),
  document: ({ lineItems: _items, ...budget }) => budget,
  view: budgetView,
})
