/**
 * The SQL stores' migrations, kept in code (no files to ship or find) and run by Kysely's
 * Migrator (./kysely-migrator.ts finds it in the installed release) in the order listed. A shipped
 * migration is never edited: a change to the schema is a new migration appended here, and
 * `CURRENT` points at what the latest one leaves.
 */
import { sql, type Kysely } from 'kysely'
import type { Engine } from '../engine.js'
import { kyselyMigrator, type Migration, type MigrationProvider } from './kysely-migrator.js'
import { initial, TICKET_FTS, ticketIndexStatements, type TableNamer } from './0001-initial.js'
import { events } from './0002-events.js'
import { apiKeysMigration } from './0003-api-keys.js'
import { webhooks } from './0004-webhooks.js'
import { webhookDispatch } from './0005-webhook-dispatch.js'
import { eventsPrunedByPosition } from './0006-events-pruned-by-position.js'

export type { TableNamer } from './0001-initial.js'

/** A migration: its name (ordered by it) and what it does. */
interface CodeMigration {
  name: string
  up(db: Kysely<unknown>, context: { engine: Engine['name']; table: TableNamer }): Promise<void>
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

/**
 * What the stores need to know of the schema the latest migration leaves: the tickets' indexes
 * (dropped and rebuilt around a bulk load), SQLite's FTS5 tables by the table they index, and the
 * tables of per-tenant generations by the table they count: every seed or removal of its rows bumps
 * the tenant's generation, so a list's count is cached under it (src/stores/sql/queries.ts).
 *
 * @example
 * const { drop, create } = CURRENT.ticketIndexStatements('sqlite', quote)
 * CURRENT.generations.tickets // 'ticket_generations'
 */
export const CURRENT: {
  ticketIndexStatements: typeof ticketIndexStatements
  fts: Readonly<Record<string, { table: string; column: string }>>
  generations: Readonly<Record<string, string>>
} = { ticketIndexStatements, fts: { tickets: TICKET_FTS }, generations: { tickets: 'ticket_generations' } }

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
  const schema =
    context.schema ??
    (context.engine.name === 'postgres'
      ? ((await sql<{ schema: string | null }>`SELECT current_schema() AS schema`.execute(db)).rows[0]?.schema ??
        undefined)
      : undefined)
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

/**
 * Quotes an identifier.
 *
 * @example
 * quote('order') // '"order"'
 */
export function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`
}
