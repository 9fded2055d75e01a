/**
 * The computed fields of the contract (docs/contract.md: budget totals, annualised costs, NPS
 * statistics, pagination), in one place so that every store computes them alike.
 */
import type { BudgetLineItem, BudgetTotals } from './budgets.js'
import type { NpsStatistics } from './nps-surveys.js'
import type { Pagination } from './shared.js'

/**
 * Rounds half away from zero to 2 decimals, correcting binary drift.
 *
 * @example
 * round2(1.005) // 1.01
 */
export function round2(value: number): number {
  const scaled = Math.abs(value) * 100
  const rounded = Math.round(Number(scaled.toPrecision(15))) / 100
  return Math.sign(value) * rounded + 0 // `+ 0` turns -0 into 0
}

/**
 * quantity × unitPrice × 12 for Monthly, × 1 for Annual and One-Time; 2 decimals.
 *
 * @example
 * annualisedCost({ quantity: 2, unitPrice: 9.99, recurrence: 'Monthly' }) // 239.76
 */
export function annualisedCost(item: Pick<BudgetLineItem, 'quantity' | 'unitPrice' | 'recurrence'>): number {
  return round2(item.quantity * item.unitPrice * (item.recurrence === 'Monthly' ? 12 : 1))
}

const TOTAL_FIELD = {
  Software: 'softwareTotal',
  Hardware: 'hardwareTotal',
  Labour: 'labourTotal',
  Subscription: 'subscriptionTotal',
  Other: 'otherTotal',
} as const

/**
 * Sums of `annualisedCost` by type over items not rejected; `grandTotal` their sum; 2 decimals each.
 *
 * @example
 * budgetTotals(budget.lineItems).grandTotal
 */
export function budgetTotals(
  items: readonly Pick<BudgetLineItem, 'type' | 'status' | 'annualisedCost'>[],
): BudgetTotals {
  const totals = { softwareTotal: 0, hardwareTotal: 0, labourTotal: 0, subscriptionTotal: 0, otherTotal: 0 }
  for (const item of items) {
    if (item.status !== 'rejected') totals[TOTAL_FIELD[item.type]] += item.annualisedCost
  }
  const rounded = {
    softwareTotal: round2(totals.softwareTotal),
    hardwareTotal: round2(totals.hardwareTotal),
    labourTotal: round2(totals.labourTotal),
    subscriptionTotal: round2(totals.subscriptionTotal),
    otherTotal: round2(totals.otherTotal),
  }
  const grand =
    rounded.softwareTotal + rounded.hardwareTotal + rounded.labourTotal + rounded.subscriptionTotal + rounded.otherTotal
  return { ...rounded, grandTotal: round2(grand) }
}

/**
 * NPS figures from 0..10 scores: promoters 9-10, passives 7-8, detractors 0-6.
 *
 * @example
 * npsStatistics([10, 9, 7, 3], 8) // { npsScore: 25, averageScore: 7.25, responseRate: 50, ... }
 */
export function npsStatistics(responses: readonly number[], inviteCount: number): NpsStatistics {
  let promoters = 0
  let passives = 0
  let detractors = 0
  let sum = 0
  for (const score of responses) {
    sum += score
    if (score >= 9) promoters += 1
    else if (score >= 7) passives += 1
    else detractors += 1
  }
  const n = responses.length
  return {
    npsScore: n === 0 ? 0 : Math.round(((promoters - detractors) / n) * 100) + 0,
    averageScore: n === 0 ? 0 : round2(sum / n),
    responseRate: inviteCount > 0 ? round2((n / inviteCount) * 100) : 0,
    promotersCount: promoters,
    passivesCount: passives,
    detractorsCount: detractors,
  }
}

/**
 * The pagination object: `totalPages` = ceil(total / limit), page past the end allowed.
 *
 * @example
 * pagination(2, 25, 60) // { page: 2, limit: 25, totalCount: 60, totalPages: 3, hasNextPage: true, hasPrevPage: true }
 */
export function pagination(page: number, limit: number, totalCount: number): Omit<Pagination, 'nextCursor'> {
  const totalPages = Math.ceil(totalCount / limit)
  return { page, limit, totalCount, totalPages, hasNextPage: page < totalPages, hasPrevPage: page > 1 }
}
