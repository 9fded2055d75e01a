/**
 * The fixture records' ids as the generic checks address them: each seeded collection's in id order,
 * and the check that no id serves two records of a tenant (what lets the kit find a record's reads
 * by asking every read of the registry: api-sightings.ts).
 */
import { expect, it } from 'vitest'
import { SEED_KEYS, type SeedKey } from '../../model/removal.js'
import type { FixtureTenant } from './fixture-keys.js'
import { fixtureIds } from './fixtures.js'

/**
 * The ids of the fixture records of `key` in a fixture tenant, ascending (by code unit).
 *
 * @example
 * sortedFixtureIds('a', 'goals')[0] // 'aaaaaaaa-000d-4000-8000-000000000001'
 */
export function sortedFixtureIds(tenant: FixtureTenant, key: SeedKey): string[] {
  return [...fixtureIds(tenant).recordIds(key)]
}

/**
 * Registers the check that every fixture collection has records, and that no id serves two records
 * of the fixture tenants (within a collection, across collections, or across the two tenants).
 *
 * @example
 * fixtureIdsAreUnique()
 */
export function fixtureIdsAreUnique(): void {
  it('every seeded collection has fixture records, and no id serves two of them', () => {
    const all = (['a', 'b'] as const).flatMap((tenant) => SEED_KEYS.flatMap((key) => sortedFixtureIds(tenant, key)))
    for (const key of SEED_KEYS)
      expect(sortedFixtureIds('a', key).length, `fixture records of ${key}`).toBeGreaterThan(0)
    expect(all.filter((id, i) => all.indexOf(id) !== i)).toEqual([])
  })
}
