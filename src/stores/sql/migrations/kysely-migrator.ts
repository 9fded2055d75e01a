/**
 * The one place that knows where the installed Kysely keeps its Migrator: the root module up to
 * 0.28, `kysely/migration` from 0.29 (whose root keeps only a type that says to import it from
 * there, and no value). A static `import { Migrator } from 'kysely'` fails to link on 0.29, and a
 * static import of `kysely/migration` fails on 0.28, which has no such subpath; so the root is read
 * through its namespace (an absent export is undefined there, not a link error) and the subpath is
 * imported only when the root has none. Both builds share this: the CJS one gets the root through
 * `require` (0.29 is ESM-only and loads through Node's require of ESM) and the subpath through
 * `import()`, which yields the same module instance.
 */
import * as kysely from 'kysely'
import type * as MigrationModule from 'kysely/migration'
import type { Migrator } from 'kysely/migration'

type Module = typeof MigrationModule

export type { Migration, MigrationProvider } from 'kysely/migration'

/** The supported Kysely releases, as package.json's peerDependencies states them. */
const SUPPORTED = '0.28 (from 0.28.2) and 0.29'
// A variable specifier, marked for webpack: a bundler must not fail on a subpath Kysely 0.28 lacks.
const MIGRATION = 'kysely/migration'

/**
 * Kysely's Migrator class, from wherever the installed release exports it.
 *
 * @example
 * const Migrator = await kyselyMigrator()
 * await new Migrator({ db, provider }).migrateToLatest()
 */
export async function kyselyMigrator(): Promise<typeof Migrator> {
  // Reflect.get, not `kysely.Migrator`: a bundler may turn a namespace's property into a named import.
  const fromRoot: unknown = Reflect.get(kysely, 'Migrator')
  if (typeof fromRoot === 'function') return fromRoot as typeof Migrator
  let fromSubpath: unknown
  try {
    fromSubpath = ((await import(/* webpackIgnore: true */ /* @vite-ignore */ MIGRATION)) as Module).Migrator
  } catch (error) {
    throw new Error(`Kysely exports no Migrator: the SQL stores support Kysely ${SUPPORTED}`, { cause: error })
  }
  if (typeof fromSubpath !== 'function')
    throw new Error(`Kysely exports no Migrator: the SQL stores support Kysely ${SUPPORTED}`)
  return fromSubpath as typeof Migrator
}
