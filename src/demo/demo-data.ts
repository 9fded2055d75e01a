/**
 * `createDemoData()`: a realistic, deterministic tenant of a managed-service provider, for demos,
 * tests and benchmarks. Each collection draws from its own seeded stream, every timestamp is
 * relative to a fixed "now", and tickets are generated on demand from their index, so a million of
 * them cost next to nothing until they are read.
 */
import { checkOptions, is, type OptionChecks } from '../model/options.js'
import type { NormalizedSeed } from '../model/seed.js'
import { makeAutomationRules } from './automation-rules.js'
import { type DemoBudget, makeBudgets } from './budgets.js'
import { makeComplianceChecks, makeComplianceTemplates } from './compliance.js'
import { makeGoals } from './goals.js'
import { makeMeetingTypes } from './meeting-types.js'
import { makeNpsSurveys } from './nps-surveys.js'
import { makeCompanies, makeStaff } from './people.js'
import { makePlannerTypes } from './planner-item-types.js'
import { stream } from './prng.js'
import { makeReportTemplates } from './report-templates.js'
import { makeReports, makeReportTypes } from './reports.js'
import { makeTraining } from './training.js'
import { lazyArray, ticketFactory, type DemoTicket } from './tickets.js'

/** Options of {@link createDemoData}. */
export interface DemoDataOptions {
  /** Any 32-bit unsigned integer; the same seed gives byte-identical data. Default {@link DEFAULT_DEMO_SEED}. */
  seed?: number
  /** How many tickets (0..100,000,000). Default 10,000. */
  tickets?: number
  /** How many customer companies (1..10,000). Default 40. */
  companies?: number
}

/** The seed `createDemoData()` uses when none is given. */
export const DEFAULT_DEMO_SEED = 20250929

/**
 * The demo tenant: {@link SeedData} with every collection present and typed precisely. `tickets`
 * is a read-only array whose elements are generated when read (each read makes a fresh object);
 * copy a slice (`tickets.slice(0, 5000)`) to get plain objects.
 */
export interface DemoData extends Omit<NormalizedSeed, 'tickets' | 'budgets'> {
  tickets: DemoTicket[]
  budgets: DemoBudget[]
}

// The ranges are then checked by count() (a RangeError).
const CHECKS: OptionChecks<DemoDataOptions> = { seed: is.integer(0), tickets: is.integer(0), companies: is.integer(1) }

function count(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  const n = value ?? fallback
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new RangeError(`createDemoData: ${name} must be an integer in ${min}..${max}, got ${String(value)}`)
  return n
}

/**
 * Makes the demo tenant "Harborline Managed Services": ~40 customer companies with contacts,
 * ~27 staff users (one primary admin), 10,000 tickets from four PSA providers with notes, budgets
 * with line items, goals with tasks and updates, automation rules, reports and templates,
 * compliance templates and checks, training courses and enrollments, meeting types, NPS surveys
 * and planner item types. Seed it into any store.
 *
 * @example
 * const store = createMemoryStore()
 * await store.seed(DEMO_TENANT_ID, createDemoData())
 *
 * @example
 * // A million tickets, seeded in slices so only one slice is ever materialised.
 * const data = createDemoData({ tickets: 1_000_000 })
 * await store.seed(DEMO_TENANT_ID, { ...data, tickets: [] })
 * for (let i = 0; i < data.tickets.length; i += 10_000) {
 *   await store.seed(DEMO_TENANT_ID, { tickets: data.tickets.slice(i, i + 10_000) })
 * }
 */
export function createDemoData(options: DemoDataOptions = {}): DemoData {
  checkOptions(options, CHECKS, { name: 'createDemoData' })
  const seed = count('seed', options.seed, DEFAULT_DEMO_SEED, 0, 0xffffffff)
  const ticketCount = count('tickets', options.tickets, 10_000, 0, 100_000_000)
  const companyCount = count('companies', options.companies, 40, 1, 10_000)

  const companies = makeCompanies(stream(seed, 'companies'), companyCount)
  const staff = makeStaff(stream(seed, 'users'), companies)
  const plannerItemTypes = makePlannerTypes(stream(seed, 'planner'))
  const goals = makeGoals(stream(seed, 'goals'), companies)
  const budgets = makeBudgets(stream(seed, 'budgets'), companies, plannerItemTypes, goals, staff.planners)
  const reportTypes = makeReportTypes(stream(seed, 'report-types'))
  const reportTemplates = makeReportTemplates(stream(seed, 'report-templates'), reportTypes)
  const complianceTemplates = makeComplianceTemplates(stream(seed, 'compliance-templates'))
  const training = makeTraining(stream(seed, 'training'), companies)
  const ticketAt = ticketFactory({ seed, count: ticketCount, companies, technicians: staff.technicians })

  return {
    tickets: lazyArray(ticketCount, ticketAt),
    budgets,
    automationRules: makeAutomationRules(stream(seed, 'automation-rules'), companies, staff.planners),
    reports: makeReports(stream(seed, 'reports'), companies, reportTypes, reportTemplates, staff.planners),
    reportTypes,
    reportTemplates,
    complianceTemplates,
    complianceChecks: makeComplianceChecks(stream(seed, 'compliance-checks'), companies, complianceTemplates),
    trainingCourses: training.courses,
    trainingEnrollments: training.enrollments,
    users: staff.users,
    companies: companies.map((c) => c.record),
    meetingTypes: makeMeetingTypes(stream(seed, 'meeting-types')),
    goals,
    npsSurveys: makeNpsSurveys(stream(seed, 'nps-surveys')),
    plannerItemTypes,
  }
}

/**
 * The primary admin of the demo tenant for `seed`: who the demo key acts as.
 *
 * @example
 * demoAdmin().name // the Owner of Harborline Managed Services
 */
export function demoAdmin(seed = DEFAULT_DEMO_SEED): { id: string; name: string } {
  return makeStaff(stream(seed, 'users'), makeCompanies(stream(seed, 'companies'), 40)).admin
}
