/**
 * What the conformance kit needs of one seeded collection, stated once per collection: its records in
 * each fixture tenant, the ids tests address by name, and the shape `store.get` answers. `FIXTURES`
 * (fixtures.ts) holds one per seed key of `COLLECTIONS`, checked by the compiler, and every table of
 * the kit (seeds, ids, removals, gets, isolation) derives from it.
 */
import type * as v from 'valibot'
import type { SeedKey } from '../../model/removal.js'
import type { FixtureTenant, SeedList } from './fixture-keys.js'
import type { FixtureIds } from './fixtures.js'

/** One seeded collection's fixture. `I` is the ids it names for tests (merged into {@link FixtureIds}). */
export interface Fixture<K extends SeedKey, I extends object = object> {
  /** The ids of a fixture tenant that tests address by name, e.g. `{ budget, emptyBudget }`. */
  readonly ids: (tenant: FixtureTenant) => I
  /**
   * The records of a fixture tenant in the order they are seeded (shuffled where the order must be
   * neither id nor sort order); `ids` holds every collection's, for records that name others. A function
   * that reads `ids` states its return type (`SeedList<K>`): {@link FixtureIds} derives from the fixtures,
   * so a return type inferred from `ids` would be circular.
   */
  readonly seed: (tenant: FixtureTenant, ids: FixtureIds) => SeedList<K>
  /** Whether the small seed of the tests that write (`writableSeed`) holds these records too. */
  readonly writable: boolean
  /**
   * The shape of a record as `store.get` returns it, every part included: its model's response schema, less
   * the fields of a view that needs names and with what that view leaves out (a view that needs names is
   * shown by the writes and the events, not by `get`: `viewOfGet`, src/model/collection-view.ts).
   */
  readonly record: v.GenericSchema
}

/**
 * A fixture, its name and ids types kept literal (`satisfies` in fixtures.ts checks it against its seed key).
 *
 * @example
 * export const goalFixture = defineFixture<'goals'>()({ ids: (t) => ({ goals: [...] }), seed, writable: true, record })
 */
export function defineFixture<K extends SeedKey>() {
  return <I extends object>(fixture: Fixture<K, I>): Fixture<K, I> => fixture
}
