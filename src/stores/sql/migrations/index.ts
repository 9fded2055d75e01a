/**
 * The SQL stores' migrations, kept in code (no files to ship or find) and run by Kysely's
 * Migrator (./kysely-migrator.ts finds it in the installed release) in the order listed: the
 * migrator, the one runtime module that reads `migrations/`. A shipped migration is never edited: a
 * change to the schema is a new migration appended here, and what the store reads of the schema
 * (`../schema.ts`) follows the model, checked against the migrated database by
 * test/stores/migrations.test.ts.
 */
import { sql, type Kysely } from 'kysely'
import { quote, type TableNamer } from '../context.js'
import type { Engine, EngineName } from '../engine.js'
import { kyselyMigrator, type Migration, type MigrationProvider } from './kysely-migrator.js'
import { initial } from './0001-initial.js'
import { events } from './0002-events.js'
import { apiKeysMigration } from './0003-api-keys.js'
import { webhooks } from './0004-webhooks.js'
import { webhookDispatch } from './0005-webhook-dispatch.js'
import { eventsPrunedByPosition } from './0006-events-pruned-by-position.js'

/** A migration: its name (ordered by it) and what it does. */
interface CodeMigration {
  name: string
  up(db: Kysely<unknown>, context: { engine: EngineName; table: TableNamer }): Promise<void>
}

/** Every migration, oldest first. */
const MIGRATIONS: readonly CodeMigration[] = [
  initial,
  events,
  apiKeysMigration,
  webhooks,
  webhookDispatch,
  eventsPrunedByPosition,
]

/** Where the tables live. */
export interface MigrationContext {
  engine: Engine
  table: TableNamer
  /** The Postgres schema, or undefined for the default one (always undefined on SQLite). */
  schema: string | undefined
}

function provider(context: MigrationContext): MigrationProvider {
  const migrations: Record<string, Migration> = {}
  for (const migration of MIGRATIONS)
    migrations[migration.name] = { up: (db) => migration.up(db, { engine: context.engine.name, table: context.table }) }
  return { getMigrations: async () => migrations }
}

/**
 * Brings the schema up to date (creating the Postgres schema first when one is named).
 * Safe to run again, and from several processes.
 *
 * @example
 * await migrateToLatest(db, { engine: postgresEngine, table: (n) => `"tenant_a"."${n}"`, schema: 'tenant_a' })
 */
export async function migrateToLatest(db: Kysely<unknown>, context: MigrationContext): Promise<void> {
  if (context.schema !== undefined) {
    try {
      await sql.raw(`CREATE SCHEMA IF NOT EXISTS ${quote(context.schema)}`).execute(db)
    } catch (error) {
      // Two stores creating the same schema at once: the loser sees a unique violation.
      const exists = await sql<{
        n: number
      }>`SELECT 1 AS n FROM pg_namespace WHERE nspname = ${context.schema}`.execute(db)
      if (exists.rows.length === 0) throw error
    }
  }
  // Without a schema the migrations' tables go where unqualified names resolve, and the migrator must
  // be told so: it asks whether its tables exist in any schema, and finding another store's there it
  // would never create its own.
  const current = context.engine.fragments.currentSchema
  const schema =
    context.schema ?? (current === null ? undefined : ((await current.execute(db)).rows[0]?.schema ?? undefined))
  const Migrator = await kyselyMigrator()
  const migrator = new Migrator({
    db,
    provider: provider(context),
    ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
    migrationTableName: 'tenant_api_migrations',
    migrationLockTableName: 'tenant_api_migrations_lock',
  })
  let { error } = await migrator.migrateToLatest()
  // On SQLite two processes may race to record the migration; the loser finds it done on a retry.
  if (error !== undefined) ({ error } = await migrator.migrateToLatest())
  if (error !== undefined) throw error
}
