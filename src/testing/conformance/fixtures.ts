/**
 * Deterministic fixtures of the conformance suite: fixed UUIDs and timestamps, crafted so that
 * every ordering rule has something to bite on (ties, nulls, case, code points beyond U+FFFF,
 * `%`, `_` and `\` in searchable text) and two tenants whose records never share an id. Each
 * collection's records are in a `fixture-<resource>.ts` of their own, as a {@link Fixture}; this
 * file holds one per seed key ({@link FIXTURES}) and derives the ids tests address and the seeds.
 */
import type { SeedKey } from '../../model/removal.js'
import { SEED_KEYS } from '../../model/removal.js'
import type { SeedData } from '../../model/seed.js'
import type { Fixture } from './fixture.js'
import { automationRuleFixture } from './fixture-automation-rules.js'
import { budgetFixture, plannerItemTypeFixture } from './fixture-budgets.js'
import { meetingTypeFixture } from './fixture-calendar.js'
import { companyFixture, userFixture } from './fixture-companies-and-users.js'
import { complianceCheckFixture, complianceTemplateFixture } from './fixture-compliance.js'
import { goalFixture } from './fixture-goals.js'
import type { FixtureTenant, SeedList } from './fixture-keys.js'
import { npsSurveyFixture } from './fixture-nps-surveys.js'
import { reportFixture, reportTemplateFixture, reportTypeFixture } from './fixture-reports.js'
import { ticketFixture } from './fixture-tickets.js'
import { trainingCourseFixture, trainingEnrollmentFixture } from './fixture-training.js'

export { at, fixtureId, type FixtureTenant } from './fixture-keys.js'
export type { Fixture } from './fixture.js'
export { FIXTURE_BUDGET_TOTALS, MINIMAL_LINE_ITEM } from './fixture-budgets.js'
export { FULL_SURVEY_STATISTICS } from './fixture-nps-surveys.js'
export { MINIMAL_RULE } from './fixture-automation-rules.js'

/**
 * The fixture of every seeded collection, by seed key: a collection of `COLLECTIONS` without one
 * does not compile, and the kit's seeds, ids, removals, gets and isolation checks loop over these.
 *
 * @example
 * FIXTURES.goals.ids('a').goals[0] // 'aaaaaaaa-000d-4000-8000-000000000001'
 */
export const FIXTURES = {
  tickets: ticketFixture,
  budgets: budgetFixture,
  automationRules: automationRuleFixture,
  reports: reportFixture,
  reportTypes: reportTypeFixture,
  reportTemplates: reportTemplateFixture,
  complianceTemplates: complianceTemplateFixture,
  complianceChecks: complianceCheckFixture,
  trainingCourses: trainingCourseFixture,
  trainingEnrollments: trainingEnrollmentFixture,
  users: userFixture,
  companies: companyFixture,
  meetingTypes: meetingTypeFixture,
  goals: goalFixture,
  npsSurveys: npsSurveyFixture,
  plannerItemTypes: plannerItemTypeFixture,
} satisfies { readonly [K in SeedKey]: Fixture<K> }

/** The fixture of seed key `K`, whatever ids it names. */
export type FixtureOf<K extends SeedKey> = Fixture<K, object>

/** The fixture of `key`, typed by its key (the loops of the kit read it so). */
export function fixtureOf<K extends SeedKey>(key: K): FixtureOf<K> {
  return FIXTURES[key] as FixtureOf<SeedKey> as FixtureOf<K>
}

type IdsOf<F> = F extends { readonly ids: (tenant: FixtureTenant) => infer I } ? I : never
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never

/**
 * The ids of one fixture tenant that tests address: every fixture's named ids, merged, and the ids of
 * each collection's records (what a derived sample addresses: a get's target, samples.ts).
 */
export interface FixtureIds extends Intersection<IdsOf<(typeof FIXTURES)[SeedKey]>> {
  /** The ids of the records of `key` in this tenant, ascending (by code unit). */
  readonly recordIds: (key: SeedKey) => readonly string[]
}

/**
 * The fixed ids of a fixture tenant.
 *
 * @example
 * fixtureIds('a').budget
 * fixtureIds('a').recordIds('goals')[0] // 'aaaaaaaa-000d-4000-8000-000000000001'
 */
export function fixtureIds(tenant: FixtureTenant): FixtureIds {
  const ids: FixtureIds = Object.assign({}, ...SEED_KEYS.map((key) => fixtureOf(key).ids(tenant)), {
    recordIds: (key: SeedKey) => recordIdsOf(tenant, key, ids),
  })
  return ids
}

/** The ids of the records of `key` that `ids` (a tenant's) seeds, ascending. */
function recordIdsOf(tenant: FixtureTenant, key: SeedKey, ids: FixtureIds): string[] {
  const records: readonly { readonly id?: unknown }[] = fixtureOf(key).seed(tenant, ids)
  return records.map((record) => String(record.id)).sort()
}

/**
 * The full seed of a fixture tenant, every seed key in the order of `COLLECTIONS`. Tenant B has the
 * same shapes with other ids and `(B)` in its names, so that any leak between tenants is visible.
 *
 * @example
 * await store.seed(`tenant-${crypto.randomUUID()}`, fixtureSeed('a'))
 */
export function fixtureSeed(tenant: FixtureTenant): SeedData {
  return seedOf(tenant, SEED_KEYS)
}

/**
 * The part of a fixture tenant that the write operations touch (the fixtures marked `writable`):
 * small, so that tests that write can seed a fresh tenant each without slowing SQL stores down.
 *
 * @example
 * await store.seed(freshTenantId, writableSeed('a'))
 */
export function writableSeed(tenant: FixtureTenant): SeedData {
  return seedOf(
    tenant,
    SEED_KEYS.filter((key) => fixtureOf(key).writable),
  )
}

/**
 * The fixture records of `key` in a fixture tenant, in their seeding order.
 *
 * @example
 * fixtureRecords('a', 'goals')[0]?.id // 'aaaaaaaa-000d-4000-8000-000000000001'
 */
export function fixtureRecords<K extends SeedKey>(tenant: FixtureTenant, key: K): SeedList<K> {
  return fixtureOf(key).seed(tenant, fixtureIds(tenant))
}

function seedOf(tenant: FixtureTenant, keys: readonly SeedKey[]): SeedData {
  const ids = fixtureIds(tenant)
  return Object.fromEntries(keys.map((key) => [key, fixtureOf(key).seed(tenant, ids)])) as SeedData
}
