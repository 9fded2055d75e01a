/**
 * What every fixture record is keyed by: the two tenants, fixed UUIDs by kind (each fixture file
 * names its own kinds), fixed timestamps, and the order records are seeded in (neither id nor sort order).
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

/**
 * The ids `1..count` of one kind, in order.
 *
 * @example
 * fixtureIdRange('a', 0x0d, 2) // ['aaaaaaaa-000d-4000-8000-000000000001', 'aaaaaaaa-000d-4000-8000-000000000002']
 */
export function fixtureIdRange(tenant: FixtureTenant, kind: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => fixtureId(tenant, kind, i + 1))
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
