/**
 * The demo tenant's planning records: planner item types, goals (with tasks and updates) and budgets
 * (with line items).
 */
import type { BudgetLineItem } from '../model/budgets.js'
import { LINE_ITEM_TYPES } from '../model/budgets.js'
import type { Goal } from '../model/goals.js'
import type { PlannerItemType } from '../model/planner.js'
import type { BudgetRecord } from '../model/seed.js'
import type { Sfc32 } from './prng.js'
import type { DemoCompany } from './people.js'
import { between, DAY, daysAgo, DEMO_NOW, iso, quarterEnd, quarterStart } from './time.js'

type LineItemType = (typeof LINE_ITEM_TYPES)[number]
type Ref = { id: string; name: string }

/** A line item as seeded (`annualisedCost` is computed by the store). */
export type DemoLineItem = Omit<BudgetLineItem, 'annualisedCost'>
/** A budget as seeded, with its line items. */
export type DemoBudget = BudgetRecord & { lineItems: DemoLineItem[] }

const PLANNER_TYPES: ReadonlyArray<{
  name: string
  description: string
  isSystem: boolean
  budgetCategory: LineItemType | null
}> = [
  {
    name: 'Hardware Refresh',
    description: 'Replacing end-of-life laptops, desktops, servers and network gear.',
    isSystem: true,
    budgetCategory: 'Hardware',
  },
  {
    name: 'Software Renewal',
    description: 'Renewals of perpetual and term software licences.',
    isSystem: true,
    budgetCategory: 'Software',
  },
  {
    name: 'Cloud Subscription',
    description: 'SaaS and cloud services billed per seat or per month.',
    isSystem: true,
    budgetCategory: 'Subscription',
  },
  {
    name: 'Project',
    description: 'Scoped projects delivered by the MSP team.',
    isSystem: true,
    budgetCategory: 'Labour',
  },
  {
    name: 'Security Initiative',
    description: 'Security improvements recommended after assessments.',
    isSystem: true,
    budgetCategory: 'Other',
  },
  {
    name: 'Warranty Expiration',
    description: 'Devices whose manufacturer warranty ends soon.',
    isSystem: true,
    budgetCategory: 'Hardware',
  },
  {
    name: 'Compliance Remediation',
    description: 'Work needed to close compliance gaps.',
    isSystem: false,
    budgetCategory: 'Labour',
  },
  {
    name: 'Training Program',
    description: 'Staff training and awareness programmes.',
    isSystem: false,
    budgetCategory: 'Other',
  },
  {
    name: 'Strategic Initiative',
    description: 'Roadmap items discussed in business reviews.',
    isSystem: false,
    budgetCategory: null,
  },
]

/** The planner item types; line item categories name them. */
export function makePlannerTypes(rng: Sfc32): PlannerItemType[] {
  return PLANNER_TYPES.map((type) => {
    const createdAt = type.isSystem ? daysAgo(6 * 365) : between(rng, daysAgo(3 * 365), daysAgo(200))
    return {
      id: rng.uuid(),
      name: type.name,
      description: type.description,
      isSystem: type.isSystem,
      budgetCategory: type.budgetCategory,
      createdAt: iso(createdAt),
      updatedAt: iso(type.isSystem ? createdAt : between(rng, createdAt, daysAgo(10))),
    }
  })
}

const GOAL_IDEAS: Record<string, ReadonlyArray<{ title: string; tasks: readonly string[] }>> = {
  Security: [
    {
      title: 'Enforce MFA for every account',
      tasks: [
        'Audit accounts without MFA',
        'Enable conditional access policies',
        'Enroll remaining users',
        'Disable legacy authentication',
      ],
    },
    {
      title: 'Run quarterly phishing simulations',
      tasks: [
        'Pick simulation templates',
        'Schedule first campaign',
        'Assign training to clickers',
        'Report results in QBR',
      ],
    },
    {
      title: 'Deploy EDR to all endpoints',
      tasks: ['Inventory unmanaged devices', 'Pilot on IT devices', 'Roll out company-wide', 'Tune alert policies'],
    },
  ],
  Infrastructure: [
    {
      title: 'Replace end-of-life firewall',
      tasks: [
        'Collect current rule set',
        'Order replacement appliance',
        'Schedule cut-over window',
        'Decommission old unit',
      ],
    },
    {
      title: 'Refresh laptops older than four years',
      tasks: [
        'Identify devices past lifecycle',
        'Approve hardware quote',
        'Image and ship new devices',
        'Wipe and recycle old devices',
      ],
    },
  ],
  'Cloud Migration': [
    {
      title: 'Move file shares to SharePoint',
      tasks: [
        'Map current share permissions',
        'Clean up stale data',
        'Migrate departments in waves',
        'Retire the file server',
      ],
    },
    {
      title: 'Migrate line-of-business app to hosted',
      tasks: ['Confirm vendor support', 'Size hosted environment', 'Run test migration', 'Cut over and monitor'],
    },
  ],
  Compliance: [
    {
      title: 'Complete HIPAA risk assessment',
      tasks: ['Gather policies', 'Interview department leads', 'Score risks', 'Deliver remediation plan'],
    },
    {
      title: 'Prepare for cyber-insurance renewal',
      tasks: ['Fill in insurer questionnaire', 'Evidence MFA and backups', 'Close open findings'],
    },
  ],
  Productivity: [
    {
      title: 'Roll out Teams telephony',
      tasks: ['Port phone numbers', 'Configure call queues', 'Train reception staff'],
    },
    {
      title: 'Standardise new-hire onboarding',
      tasks: ['Write onboarding checklist', 'Automate account creation', 'Pre-stage devices'],
    },
  ],
  'Cost Optimisation': [
    {
      title: 'Right-size Microsoft 365 licences',
      tasks: ['Export licence usage', 'Remove unused seats', 'Move light users to cheaper plans'],
    },
  ],
}

const UPDATE_TEXTS = [
  'Kicked off with the client; scope agreed.',
  'Good progress this month; on track for the due date.',
  'Waiting on a vendor quote before the next step.',
  'Client approved the plan in the business review.',
  'Blocked on a maintenance window; rescheduled.',
  'Most of the work is done; final checks remain.',
]

/** Goals of the active companies, with tasks and progress updates. */
export function makeGoals(rng: Sfc32, companies: readonly DemoCompany[]): Goal[] {
  const statuses = ['Not Started', 'On Track', 'At Risk', 'Off Track', 'Completed'].map((name) => ({
    id: rng.uuid(),
    name,
  }))
  const priorities = ['High', 'Medium', 'Low'].map((name) => ({ id: rng.uuid(), name }))
  const categories = Object.keys(GOAL_IDEAS).map((name) => ({ id: rng.uuid(), name }))
  const goals: Goal[] = []
  for (const company of companies) {
    if (!company.active) continue
    const count = rng.int(1, 3)
    for (let g = 0; g < count; g++) {
      const category = rng.pick(categories)
      const idea = rng.pick(GOAL_IDEAS[category.name] ?? [])
      const year = rng.pick([2025, 2025, 2026])
      const quarter = year === 2026 ? rng.int(1, 2) : rng.int(1, 4)
      const due = quarterEnd(year, quarter)
      const createdAt = between(
        rng,
        quarterStart(year, quarter) - 120 * DAY,
        Math.min(quarterStart(year, quarter), daysAgo(20)),
      )
      const status = due < DEMO_NOW ? rng.weighted(statuses, [0, 0, 1, 1, 6]) : rng.weighted(statuses, [2, 5, 2, 1, 0])
      const tasks = idea.tasks.map((title, t) => {
        const done = status.name === 'Completed' || (status.name !== 'Not Started' && rng.chance(0.5 - t * 0.1))
        return {
          id: rng.uuid(),
          title,
          description: rng.chance(0.5) ? null : `${title} for ${company.name}.`,
          isCompleted: done,
          dueDate: rng.chance(0.2) ? null : iso(Math.min(due, createdAt + (t + 1) * 21 * DAY)),
          createdAt: iso(createdAt + t * 60_000),
        }
      })
      const progress = Math.round((tasks.filter((t) => t.isCompleted).length / tasks.length) * 100)
      const updateCount = status.name === 'Not Started' ? 0 : rng.int(1, 4)
      const updates = Array.from({ length: updateCount }, (_, u) => ({
        id: rng.uuid(),
        updateText: rng.pick(UPDATE_TEXTS),
        progressPercentage: rng.chance(0.1) ? null : Math.round((progress * (u + 1)) / updateCount),
        createdAt: iso(
          between(rng, createdAt + u * 14 * DAY, Math.min(DEMO_NOW - DAY, createdAt + (u + 1) * 14 * DAY)),
        ),
      }))
      goals.push({
        id: rng.uuid(),
        title: idea.title,
        description: `${idea.title} at ${company.name}, agreed in the business review.`,
        dueDate: iso(due),
        progressPercentage: progress,
        quarter: `Q${quarter}`,
        year,
        company: { id: company.id, name: company.name },
        status,
        priority: rng.weighted(priorities, [3, 5, 2]),
        category,
        createdAt: iso(createdAt),
        updatedAt: iso(updates.reduce((latest, u) => Math.max(latest, Date.parse(u.createdAt)), createdAt)),
        tasks,
        updates,
      })
    }
  }
  return goals
}

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
