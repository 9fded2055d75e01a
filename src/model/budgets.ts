/** Budgets and their line items: a budget's document, and its items in their own rows, oldest first. */
import type { Budget, BudgetLineItem } from '../resources/budgets/schema.js'
import { defineCollection } from './collection.js'

/** A budget as stored: `totals` and `lineItemCount` are computed when read, `lineItems` kept apart. */
export type BudgetRecord = Omit<Budget, 'totals' | 'lineItemCount' | 'lineItems'>

/**
 * The budgets collection (documents only; the line items are {@link budgetLineItems}).
 *
 * @example
 * budgets.document(seededBudget) // the budget without its lineItems
 */
export const budgets = defineCollection<BudgetRecord, BudgetRecord & { lineItems: readonly BudgetLineItem[] }>({
  name: 'budgets',
  table: 'budgets',
  document: ({ lineItems: _items, ...budget }) => budget,
})

/**
 * The line items of budgets: keyed by their budget and a sequence number from 1, in the order
 * they were added (a seed adds them oldest first).
 *
 * @example
 * budgetLineItems.key.map((k) => k.name) // ['budget_id', 'seq']
 */
export const budgetLineItems = defineCollection<BudgetLineItem>({
  name: 'budgetLineItems',
  table: 'budget_line_items',
  key: [
    { name: 'budget_id', type: 'text' },
    { name: 'seq', type: 'integer' },
  ],
})
