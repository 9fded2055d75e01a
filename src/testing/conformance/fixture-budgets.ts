/**
 * The planner item types and budgets of a fixture tenant: a budget with line items seeded out of
 * order (amounts that round), an empty one, and the smallest valid line item body.
 */
import { companyRef } from './fixture-companies-and-users.js'
import { BudgetSchema } from '../../model/budgets.js'
import { PlannerItemTypeSchema } from '../../model/planner.js'
import { defineFixture } from './fixture.js'
import {
  at,
  type FixtureTenant,
  fixtureId,
  fixtureIdRange,
  nameSuffix,
  type SeedList,
  shuffled,
} from './fixture-keys.js'
import type { FixtureIds } from './fixtures.js'

/** The kinds of {@link fixtureId} of this file's records. */
const PLANNER_TYPE = 0x0e
const BUDGET = 0x0f
const LINE_ITEM = 0x10

/**
 * Line items of the fixture budget: [type, status, recurrence, quantity, unitPrice, createdAt]. Seeded
 * out of order.
 */
type LineItemRow = [
  'Software' | 'Hardware' | 'Labour' | 'Other' | 'Subscription',
  'draft' | 'pending' | 'approved' | 'rejected',
  'One-Time' | 'Monthly' | 'Annual',
  number,
  number,
  string,
]
const LINE_ITEM_ROWS: LineItemRow[] = [
  ['Subscription', 'approved', 'Monthly', 3, 10.005, at(3)],
  ['Software', 'approved', 'Annual', 2, 100.5, at(1)],
  ['Hardware', 'rejected', 'One-Time', 1, 999, at(2)],
  ['Hardware', 'pending', 'One-Time', 1, 250.25, at(2, 1)],
  ['Labour', 'draft', 'Monthly', 1.5, 33.333, at(4)],
  ['Other', 'approved', 'One-Time', 0, 10, at(5)],
]

/**
 * The two planner item types of a fixture tenant (the budget categories of line items).
 *
 * @example
 * plannerItemTypeSeeds('a', fixtureIds('a'))[1]?.name // 'Licence renewal'
 */
export function plannerItemTypeSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'plannerItemTypes'> {
  return ['Laptop refresh', 'Licence renewal'].map((name, i) => ({
    id: ids.plannerTypes[i]!,
    name: `${name}${nameSuffix(tenant)}`,
    isSystem: i === 0,
    budgetCategory: i === 0 ? 'Hardware' : 'Software',
    createdAt: at(1),
    updatedAt: at(1),
  }))
}

/**
 * The two budgets of a fixture tenant: `ids.budget` with its line items, `ids.emptyBudget` with none.
 *
 * @example
 * budgetSeeds('a', fixtureIds('a'))[0]?.lineItems?.length // 6
 */
export function budgetSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'budgets'> {
  const suffix = nameSuffix(tenant)
  const lineItems = LINE_ITEM_ROWS.map(([type, status, recurrence, quantity, unitPrice, createdAt], i) => ({
    id: fixtureId(tenant, LINE_ITEM, i + 1),
    type,
    description: `${type} item ${i + 1}`,
    quantity,
    unitPrice,
    recurrence,
    termMonths: 12,
    status,
    currency: 'USD',
    createdAt,
    updatedAt: createdAt,
  }))
  return [
    {
      id: ids.budget,
      title: `FY24 budget${suffix}`,
      fiscalYear: 2024,
      periodType: 'Annual' as const,
      status: 'Draft' as const,
      currency: 'USD',
      notes: 'Initial notes',
      company: companyRef(tenant, 0),
      createdBy: { id: ids.users[0]!, name: 'Ada Lovelace' },
      createdAt: at(1),
      updatedAt: at(5),
      lineItems: shuffled(lineItems),
    },
    {
      id: ids.emptyBudget,
      title: `Empty budget${suffix}`,
      fiscalYear: 2025,
      periodType: 'Quarterly' as const,
      status: 'Approved' as const,
      currency: 'EUR',
      createdAt: at(1),
      updatedAt: at(1),
    },
  ]
}

/** The totals of the fixture budget (`ids.budget`), as every store derives them from its six line items. */
export const FIXTURE_BUDGET_TOTALS = {
  softwareTotal: 201,
  hardwareTotal: 250.25,
  labourTotal: 599.99,
  subscriptionTotal: 360.18,
  otherTotal: 0,
  grandTotal: 1411.42,
} as const

/**
 * A minimal valid body for `POST /budgets/{id}/items`.
 *
 * @example
 * await h.call('POST', `/budgets/${ids.budget}/items`, { body: MINIMAL_LINE_ITEM })
 */
export const MINIMAL_LINE_ITEM = { type: 'Software', description: 'Licence', unitPrice: 12.5 } as const

/**
 * The planner item types' fixture.
 *
 * @example
 * plannerItemTypeFixture.ids('a').plannerTypes.length // 2
 */
export const plannerItemTypeFixture = defineFixture<'plannerItemTypes'>()({
  ids: (tenant) => ({ plannerTypes: fixtureIdRange(tenant, PLANNER_TYPE, 2) }),
  seed: plannerItemTypeSeeds,
  writable: true,
  record: PlannerItemTypeSchema,
})

/**
 * The budgets' fixture (their line items inside them): `budget` with six items, `emptyBudget` with none.
 *
 * @example
 * budgetFixture.ids('a').emptyBudget // 'aaaaaaaa-000f-4000-8000-000000000002'
 */
export const budgetFixture = defineFixture<'budgets'>()({
  ids: (tenant) => ({ budget: fixtureId(tenant, BUDGET, 1), emptyBudget: fixtureId(tenant, BUDGET, 2) }),
  seed: budgetSeeds,
  writable: true,
  record: BudgetSchema,
})
