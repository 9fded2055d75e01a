/**
 * What every fixture record is keyed by: the two tenants, fixed UUIDs by kind, fixed timestamps,
 * the ids tests address directly, and the order records are seeded in (neither id nor sort order).
 */
import type { SeedData } from '../../model/seed.js'

/** Which of the two fixture tenants a record belongs to. */
export type FixtureTenant = 'a' | 'b'

/** The records of one seed key, as `store.seed` accepts them. */
export type SeedList<K extends keyof SeedData> = NonNullable<SeedData[K]>

/**
 * A fixed UUID: `aaaaaaaa-<kind>-4000-8000-<n>` for tenant A, `bbbbbbbb-...` for tenant B. Within one
 * kind, ids ascend with `n`, so "ties by id ascending" is "ties by n ascending".
 *
 * @example
 * fixtureId('a', 0x11, 3) // 'aaaaaaaa-0011-4000-8000-000000000003'
 */
export function fixtureId(tenant: FixtureTenant, kind: number, n: number): string {
  const head = tenant === 'a' ? 'aaaaaaaa' : 'bbbbbbbb'
  return `${head}-${kind.toString(16).padStart(4, '0')}-4000-8000-${n.toString(16).padStart(12, '0')}`
}

/**
 * A fixed timestamp in January 2024 (UTC, milliseconds), as the API writes timestamps.
 *
 * @example
 * at(10, 9) // '2024-01-10T09:00:00.000Z'
 */
export function at(day: number, hour = 0, minute = 0): string {
  return new Date(Date.UTC(2024, 0, day, hour, minute)).toISOString()
}

/**
 * What tenant B adds to the names of its records (tenant A nothing), so that a leak between
 * tenants is visible.
 *
 * @example
 * `Goal 1${nameSuffix('b')}` // 'Goal 1 (B)'
 */
export function nameSuffix(tenant: FixtureTenant): string {
  return tenant === 'b' ? ' (B)' : ''
}

/** Kinds of {@link fixtureId}. */
export const KIND = {
  company: 0x01,
  ticket: 0x02,
  user: 0x03,
  role: 0x04,
  complianceTemplate: 0x05,
  complianceGroup: 0x06,
  complianceCheck: 0x07,
  reportTemplate: 0x08,
  reportType: 0x09,
  report: 0x0a,
  course: 0x0b,
  enrollment: 0x0c,
  goal: 0x0d,
  plannerType: 0x0e,
  budget: 0x0f,
  lineItem: 0x10,
  rule: 0x11,
  goalTask: 0x12,
  goalUpdate: 0x13,
} as const

/** The ids of one fixture tenant that tests address directly. */
export interface FixtureIds {
  companies: string[]
  tickets: string[]
  /** The ticket number of `tickets[0]`. */
  ticketNumber: string
  users: string[]
  roles: string[]
  complianceTemplates: string[]
  complianceGroups: string[]
  complianceCheck: string
  reportTemplates: string[]
  reportTypes: string[]
  report: string
  courses: string[]
  enrollments: string[]
  goals: string[]
  plannerTypes: string[]
  budget: string
  /** A budget with no line items. */
  emptyBudget: string
  rule: string
  npsSurveys: { full: string; empty: string; noInvites: string; half: string }
  meetingTypes: string[]
}

/**
 * Interleaves a list (odd positions reversed) so that seeding order is neither id nor sort order.
 *
 * @example
 * shuffled([1, 2, 3, 4, 5]) // [4, 2, 1, 3, 5]
 */
export function shuffled<T>(list: readonly T[]): T[] {
  const even = list.filter((_, i) => i % 2 === 0)
  const odd = list.filter((_, i) => i % 2 === 1).reverse()
  return [...odd, ...even]
}
