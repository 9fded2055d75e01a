/**
 * Deterministic fixtures of the conformance suite: fixed UUIDs and timestamps, crafted so that
 * every ordering rule has something to bite on (ties, nulls, case, code points beyond U+FFFF,
 * `%`, `_` and `\` in searchable text) and two tenants whose records never share an id. The
 * records of each resource are in a `fixture-<resource>.ts` of their own; this file names the ids
 * tests address and assembles the seeds.
 */
import type { SeedData } from '../../model/seed.js'
import { automationRuleSeeds } from './fixture-automation-rules.js'
import { budgetSeeds, plannerItemTypeSeeds } from './fixture-budgets.js'
import { meetingTypeSeeds, MEETING_TYPE_ROWS } from './fixture-calendar.js'
import { companySeeds, userSeeds, USER_ROWS } from './fixture-companies-and-users.js'
import { complianceCheckSeeds, complianceTemplateSeeds, TEMPLATE_ROWS } from './fixture-compliance.js'
import { goalSeeds } from './fixture-goals.js'
import { fixtureId, KIND, shuffled, type FixtureIds, type FixtureTenant } from './fixture-keys.js'
import { npsSurveySeeds } from './fixture-nps-surveys.js'
import { REPORT_TEMPLATE_ROWS, reportSeeds, reportTemplateSeeds, reportTypeSeeds } from './fixture-reports.js'
import { TICKET_ROWS, ticketSeeds } from './fixture-tickets.js'
import { courseSeeds, ENROLLMENT_ROWS, enrollmentSeeds } from './fixture-training.js'

export { at, fixtureId, type FixtureIds, type FixtureTenant } from './fixture-keys.js'
export { FIXTURE_BUDGET_TOTALS, MINIMAL_LINE_ITEM } from './fixture-budgets.js'
export { FULL_SURVEY_STATISTICS } from './fixture-nps-surveys.js'
export { MINIMAL_RULE } from './fixture-automation-rules.js'

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

/**
 * The fixed ids of a fixture tenant.
 *
 * @example
 * fixtureIds('a').budget
 */
export function fixtureIds(tenant: FixtureTenant): FixtureIds {
  const id = (kind: number, n: number) => fixtureId(tenant, kind, n)
  return {
    companies: range(7).map((n) => id(KIND.company, n)),
    tickets: range(TICKET_ROWS.length).map((n) => id(KIND.ticket, n)),
    ticketNumber: `${tenant.toUpperCase()}-1001`,
    users: range(USER_ROWS.length).map((n) => id(KIND.user, n)),
    roles: range(2).map((n) => id(KIND.role, n)),
    complianceTemplates: range(TEMPLATE_ROWS.length).map((n) => id(KIND.complianceTemplate, n)),
    complianceGroups: range(2).map((n) => id(KIND.complianceGroup, n)),
    complianceCheck: id(KIND.complianceCheck, 1),
    reportTemplates: range(REPORT_TEMPLATE_ROWS.length).map((n) => id(KIND.reportTemplate, n)),
    reportTypes: range(2).map((n) => id(KIND.reportType, n)),
    report: id(KIND.report, 1),
    courses: range(3).map((n) => id(KIND.course, n)),
    enrollments: range(ENROLLMENT_ROWS.length).map((n) => id(KIND.enrollment, n)),
    goals: range(2).map((n) => id(KIND.goal, n)),
    plannerTypes: range(2).map((n) => id(KIND.plannerType, n)),
    budget: id(KIND.budget, 1),
    emptyBudget: id(KIND.budget, 2),
    rule: id(KIND.rule, 1),
    npsSurveys: {
      full: `nps-${tenant}-full`,
      empty: `nps-${tenant}-empty`,
      noInvites: `nps-${tenant}-no-invites`,
      half: `nps-${tenant}-half`,
    },
    meetingTypes: range(MEETING_TYPE_ROWS.length).map((n) => `mt-${tenant}-${String(n).padStart(2, '0')}`),
  }
}

/**
 * The full seed of a fixture tenant. Tenant B has the same shapes with other ids and `(B)` in
 * its names, so that any leak between tenants is visible.
 *
 * @example
 * await store.seed(`tenant-${crypto.randomUUID()}`, fixtureSeed('a'))
 */
export function fixtureSeed(tenant: FixtureTenant): SeedData {
  const ids = fixtureIds(tenant)
  const users = userSeeds(tenant, ids)
  const courses = courseSeeds(tenant, ids)
  return {
    companies: shuffled(companySeeds(tenant, ids)),
    tickets: shuffled(ticketSeeds(tenant, ids)),
    users: shuffled(users),
    complianceTemplates: shuffled(complianceTemplateSeeds(tenant, ids)),
    complianceChecks: complianceCheckSeeds(tenant, ids),
    reportTypes: reportTypeSeeds(tenant, ids),
    reportTemplates: shuffled(reportTemplateSeeds(tenant, ids)),
    reports: reportSeeds(tenant, ids),
    trainingCourses: courses,
    trainingEnrollments: shuffled(enrollmentSeeds(tenant, ids, courses, users)),
    meetingTypes: shuffled(meetingTypeSeeds(tenant, ids)),
    goals: goalSeeds(tenant, ids),
    plannerItemTypes: plannerItemTypeSeeds(tenant, ids),
    budgets: budgetSeeds(tenant, ids),
    automationRules: automationRuleSeeds(tenant, ids),
    npsSurveys: npsSurveySeeds(tenant, ids),
  }
}

/**
 * The part of a fixture tenant that the write operations touch: small, so that tests that write
 * can seed a fresh tenant each without slowing SQL stores down.
 *
 * @example
 * await store.seed(freshTenantId, writableSeed('a'))
 */
export function writableSeed(tenant: FixtureTenant): SeedData {
  const all = fixtureSeed(tenant)
  return {
    companies: all.companies,
    budgets: all.budgets,
    plannerItemTypes: all.plannerItemTypes,
    goals: all.goals,
    automationRules: all.automationRules,
    reports: all.reports,
    reportTypes: all.reportTypes,
    trainingCourses: all.trainingCourses,
    trainingEnrollments: all.trainingEnrollments,
  }
}
