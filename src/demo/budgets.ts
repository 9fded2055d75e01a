/**
 * The demo tenant's budgets: last and next fiscal year's for each active company, with line items
 * categorised by the planner item types and some linked to the company's goals.
 */
import type { BudgetLineItem } from '../model/budgets.js'
import { LINE_ITEM_TYPES } from '../model/budgets.js'
import type { Goal } from '../model/goals.js'
import type { PlannerItemType } from '../model/planner.js'
import type { BudgetRecord } from '../model/seed.js'
import type { Sfc32 } from './prng.js'
import type { DemoCompany } from './people.js'
import { between, DAY, daysAgo, DEMO_NOW, iso } from './time.js'

type LineItemType = (typeof LINE_ITEM_TYPES)[number]
type Ref = { id: string; name: string }

/** A line item as seeded (`annualisedCost` is computed by the store). */
export type DemoLineItem = Omit<BudgetLineItem, 'annualisedCost'>
/** A budget as seeded, with its line items. */
export type DemoBudget = BudgetRecord & { lineItems: DemoLineItem[] }

/** What a budget line of each type looks like: description, price range, how it recurs. */
const LINE_IDEAS: Record<
  LineItemType,
  ReadonlyArray<{
    description: string
    price: [number, number]
    quantity: [number, number]
    recurrence: ReadonlyArray<BudgetLineItem['recurrence']>
  }>
> = {
  Hardware: [
    {
      description: 'Business laptops (14", 16 GB RAM)',
      price: [950, 1450],
      quantity: [3, 25],
      recurrence: ['One-Time'],
    },
    {
      description: 'Next-generation firewall appliance',
      price: [1800, 6500],
      quantity: [1, 2],
      recurrence: ['One-Time'],
    },
    { description: 'Wi-Fi 6 access points', price: [280, 650], quantity: [2, 12], recurrence: ['One-Time'] },
    { description: '24" monitors', price: [160, 290], quantity: [4, 30], recurrence: ['One-Time'] },
    {
      description: 'Replacement server for file and print',
      price: [6500, 14500],
      quantity: [1, 1],
      recurrence: ['One-Time'],
    },
  ],
  Software: [
    { description: 'Adobe Acrobat Pro licences', price: [180, 240], quantity: [2, 20], recurrence: ['Annual'] },
    { description: 'Accounting software renewal', price: [1200, 4800], quantity: [1, 1], recurrence: ['Annual'] },
    {
      description: 'Line-of-business application upgrade',
      price: [2500, 9000],
      quantity: [1, 1],
      recurrence: ['One-Time'],
    },
    { description: 'Password manager seats', price: [3, 6], quantity: [10, 120], recurrence: ['Monthly'] },
  ],
  Subscription: [
    { description: 'Microsoft 365 Business Premium', price: [22, 22], quantity: [10, 250], recurrence: ['Monthly'] },
    { description: 'Cloud backup for Microsoft 365', price: [3, 5], quantity: [10, 250], recurrence: ['Monthly'] },
    { description: 'Managed EDR per endpoint', price: [6, 9], quantity: [10, 300], recurrence: ['Monthly'] },
    {
      description: 'Offsite backup storage (TB)',
      price: [120, 300],
      quantity: [1, 8],
      recurrence: ['Monthly', 'Annual'],
    },
  ],
  Labour: [
    { description: 'Firewall replacement project', price: [150, 175], quantity: [8, 24], recurrence: ['One-Time'] },
    { description: 'SharePoint migration (hours)', price: [140, 165], quantity: [20, 80], recurrence: ['One-Time'] },
    { description: 'vCIO strategy sessions', price: [450, 900], quantity: [1, 1], recurrence: ['Monthly'] },
    { description: 'Laptop imaging and deployment', price: [95, 125], quantity: [4, 30], recurrence: ['One-Time'] },
  ],
  Other: [
    {
      description: 'Security awareness training programme',
      price: [2, 4],
      quantity: [10, 200],
      recurrence: ['Monthly'],
    },
    {
      description: 'Cyber-insurance readiness assessment',
      price: [1500, 3500],
      quantity: [1, 1],
      recurrence: ['One-Time'],
    },
    { description: 'Penetration test', price: [4500, 12000], quantity: [1, 1], recurrence: ['Annual'] },
    {
      description: 'Hardware disposal and data destruction',
      price: [15, 35],
      quantity: [5, 40],
      recurrence: ['One-Time'],
    },
  ],
}

const TERM: Record<BudgetLineItem['recurrence'], readonly number[]> = {
  'One-Time': [1],
  Monthly: [12, 24, 36],
  Annual: [12, 36],
}
const ITEM_STATUS_WEIGHTS: Record<DemoBudget['status'], readonly number[]> = {
  // pending, approved, rejected, draft
  Draft: [1, 0, 0, 6],
  PendingApproval: [6, 1, 1, 1],
  Approved: [0, 8, 1, 0],
  Obsolete: [0, 6, 2, 0],
}
const ITEM_STATUSES = ['pending', 'approved', 'rejected', 'draft'] as const

/**
 * Budgets of the active companies: last fiscal year's (approved or obsolete) and next year's (draft
 * or pending approval), each with line items of every type, categories from the planner item types
 * and some linked to the company's goals, devices or planner items.
 */
export function makeBudgets(
  rng: Sfc32,
  companies: readonly DemoCompany[],
  plannerTypes: readonly PlannerItemType[],
  goals: readonly Goal[],
  authors: readonly Ref[],
): DemoBudget[] {
  const budgets: DemoBudget[] = []
  const categoryFor = (type: LineItemType) => plannerTypes.filter((p) => p.budgetCategory === type)
  for (const company of companies) {
    if (!company.active) continue
    const currency = company.profile.domain.endsWith('.ca') || rng.chance(0.08) ? 'CAD' : 'USD'
    const companyGoals = goals.filter((g) => g.company?.id === company.id)
    const years = rng.chance(0.75) ? [2025, 2026] : [2026]
    for (const fiscalYear of years) {
      const status: DemoBudget['status'] =
        fiscalYear === 2025
          ? rng.weighted(['Approved', 'Obsolete'] as const, [5, 1])
          : rng.weighted(['Draft', 'PendingApproval'] as const, [1, 1])
      const createdAt =
        fiscalYear === 2025
          ? between(rng, Date.UTC(2024, 8, 1), Date.UTC(2024, 11, 1))
          : between(rng, Date.UTC(2025, 6, 1), daysAgo(14))
      const author = rng.pick(authors)
      const lineItems: DemoLineItem[] = []
      const itemCount = rng.int(3, 9)
      for (let n = 0; n < itemCount; n++) {
        const type =
          n < LINE_ITEM_TYPES.length && itemCount >= LINE_ITEM_TYPES.length
            ? (LINE_ITEM_TYPES[n] as LineItemType)
            : rng.pick(LINE_ITEM_TYPES)
        const idea = rng.pick(LINE_IDEAS[type])
        const recurrence = rng.pick(idea.recurrence)
        const categories = categoryFor(type)
        const category = categories.length > 0 && rng.chance(0.85) ? rng.pick(categories) : null
        const itemCreated = createdAt + n * 7 * 60_000 + rng.int(0, 60_000)
        let linkedItem: DemoLineItem['linkedItem'] = null
        if (rng.chance(0.35)) {
          const goal = companyGoals.length > 0 && rng.chance(0.6) ? rng.pick(companyGoals) : null
          linkedItem = goal
            ? { id: goal.id, type: 'goal', name: goal.title }
            : { id: rng.uuid(), type: rng.pick(['device', 'planner', 'other'] as const), name: null }
        }
        lineItems.push({
          id: rng.uuid(),
          type,
          description: idea.description,
          quantity: rng.int(idea.quantity[0], idea.quantity[1]),
          unitPrice: Math.round((idea.price[0] + rng.next() * (idea.price[1] - idea.price[0])) * 100) / 100,
          recurrence,
          termMonths: rng.pick(TERM[recurrence]),
          status: rng.weighted(ITEM_STATUSES, ITEM_STATUS_WEIGHTS[status]),
          currency,
          notes: rng.chance(0.3)
            ? rng.pick([
                'Quote attached in the PSA.',
                'Pricing valid for 30 days.',
                'Client asked to phase this over two quarters.',
                'Includes three-year warranty.',
              ])
            : null,
          category: category ? { id: category.id, name: category.name } : null,
          linkedItem,
          createdAt: iso(itemCreated),
          updatedAt: iso(
            status === 'Draft'
              ? itemCreated
              : between(rng, itemCreated, Math.min(DEMO_NOW - DAY, itemCreated + 60 * DAY)),
          ),
        })
      }
      const lastItem = lineItems.reduce((latest, item) => Math.max(latest, Date.parse(item.updatedAt)), createdAt)
      budgets.push({
        id: rng.uuid(),
        title: `${company.name} FY${fiscalYear} IT Budget`,
        fiscalYear,
        periodType: rng.weighted(['Annual', 'Quarterly', 'Monthly'] as const, [7, 2, 1]),
        status,
        currency,
        notes: rng.chance(0.4)
          ? rng.pick([
              'Reviewed in the last QBR.',
              'Hardware refresh split across two years.',
              'Awaiting sign-off from the CFO.',
              'Includes the security roadmap items.',
            ])
          : null,
        company: { id: company.id, name: company.name },
        createdBy: author,
        createdAt: iso(createdAt),
        updatedAt: iso(lastItem),
        lineItems,
      })
    }
  }
  return budgets
}
