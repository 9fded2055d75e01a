/**
 * `npm run bench writes`: what a write costs as the data behind it grows. Adding a line item to a
 * budget that already holds 20,000 items, against adding one to an empty budget, on the memory
 * store (target: about 1x, i.e. O(1); it was O(items) when each add copied and re-froze the budget).
 * Both are timed in alternating batches in one process; the ratio is the median of 7 rounds.
 */
import { createMemoryStore } from '../src/index.js'
import { type Budget, type BudgetLineItem, budgetLineItems } from '../src/model/budgets.js'

const TENANT = 'bench-writes'
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`
const T0 = '2025-01-01T00:00:00.000Z'

function budget(id: string): Omit<Budget, 'totals' | 'lineItemCount'> {
  return {
    id,
    title: 'Budget',
    fiscalYear: 2025,
    periodType: 'Annual',
    status: 'Draft',
    currency: 'USD',
    notes: null,
    company: { id: uuid(1), name: 'Company' },
    createdBy: { id: uuid(2), name: 'Ada' },
    createdAt: T0,
    updatedAt: T0,
    lineItems: [],
  }
}

function item(n: number): BudgetLineItem {
  return {
    id: uuid(1_000_000 + n),
    type: 'Software',
    description: 'Endpoint protection',
    quantity: 1,
    unitPrice: 4.5,
    recurrence: 'Monthly',
    termMonths: 12,
    annualisedCost: 54,
    status: 'draft',
    currency: 'USD',
    notes: null,
    category: null,
    linkedItem: null,
    createdAt: T0,
    updatedAt: T0,
  } as BudgetLineItem
}

const store = createMemoryStore()
const full = uuid(10)
const empty = uuid(11)
await store.seed(TENANT, { budgets: [budget(full), budget(empty)] } as never)
for (let n = 0; n < 20_000; n++) await store.addChild(budgetLineItems, TENANT, full, item(n))

let next = 100_000
async function perAdd(budgetId: string, count: number): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < count; i++) await store.addChild(budgetLineItems, TENANT, budgetId, item(next++))
  return (performance.now() - started) / count
}

await perAdd(empty, 2_000) // warm-up
const rounds: Array<{ empty: number; full: number }> = []
for (let round = 0; round < 7; round++) rounds.push({ empty: await perAdd(empty, 500), full: await perAdd(full, 500) })
const ratios = rounds.map((r) => r.full / r.empty).sort((a, b) => a - b)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
console.log(
  `memory store, add a line item: empty budget ${(median(rounds.map((r) => r.empty)) * 1000).toFixed(1)} µs, ` +
    `20,000-item budget ${(median(rounds.map((r) => r.full)) * 1000).toFixed(1)} µs: ` +
    `${median(ratios).toFixed(2)}x (rounds ${ratios.map((r) => r.toFixed(2)).join(' ')}; target about 1x)`,
)
