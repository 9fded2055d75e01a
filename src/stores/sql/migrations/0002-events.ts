/**
 * Migration 0002, frozen once shipped: the events feed (docs/extensions.md, section 3). Like 0001
 * it reads nothing that may change later and every statement is idempotent.
 *
 * - `event_positions`: one row per tenant, its last position.
 *   A write takes the tenant's next positions by updating this row inside its own transaction, so
 *   the row lock orders writers and positions become visible in commit order without gaps (a
 *   sequence would not: a smaller value can commit after a larger one, and a reader tailing with
 *   `after` would skip it).
 * - `events`: one row per event, keyed by (tenant, position), with its type (for the `types`
 *   filter), its time (for pruning) and its JSON.
 */
import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.js'
import type { TableNamer } from './0001-initial.js'

const TYPES: Record<EngineName, { text: string; big: string }> = {
  sqlite: { text: 'TEXT', big: 'INTEGER' },
  postgres: { text: 'text COLLATE "C"', big: 'bigint' },
}

/** The DDL of migration 0002 for `engine`. */
function statements(engine: EngineName, table: TableNamer): string[] {
  const { text, big } = TYPES[engine]
  return [
    `CREATE TABLE IF NOT EXISTS ${table('event_positions')} (tenant_id ${text} NOT NULL, ` +
      `position ${big} NOT NULL, PRIMARY KEY (tenant_id))`,
    `CREATE TABLE IF NOT EXISTS ${table('events')} (tenant_id ${text} NOT NULL, position ${big} NOT NULL, ` +
      `type ${text} NOT NULL, created_at ${text} NOT NULL, doc ${text} NOT NULL, PRIMARY KEY (tenant_id, position))`,
    // The `types` filter walks one type's positions; pruning finds old events by time.
    `CREATE INDEX IF NOT EXISTS "events_tenant_id_type_position" ON ${table('events')} (tenant_id, type, position)`,
    `CREATE INDEX IF NOT EXISTS "events_tenant_id_created_at" ON ${table('events')} (tenant_id, created_at)`,
  ]
}

/**
 * Migration 0002: the events feed's tables.
 *
 * @example
 * await events.up(db, { engine: 'sqlite', table: (n) => `"${n}"` })
 */
export const events = {
  name: '0002_events',
  async up(db: Kysely<unknown>, context: { engine: EngineName; table: TableNamer }): Promise<void> {
    for (const statement of statements(context.engine, context.table)) await sql.raw(statement).execute(db)
  },
}
