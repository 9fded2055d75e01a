/**
 * The demo tenant's planner item types: the kinds of planned work, most tied to the budget line
 * type they are costed under; line item categories name them.
 */
import type { LINE_ITEM_TYPES } from '../model/budgets.js'
import type { PlannerItemType } from '../model/planner.js'
import type { Sfc32 } from './prng.js'
import { between, daysAgo, iso } from './time.js'

type LineItemType = (typeof LINE_ITEM_TYPES)[number]

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
