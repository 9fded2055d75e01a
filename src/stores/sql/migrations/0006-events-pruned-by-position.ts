/**
 * Migration 0006, frozen once shipped: events are pruned by position, so their time index goes.
 *
 * Pruning deleted a tenant's events older than the retention through the index on
 * `(tenant_id, created_at)`, which every event insert had to maintain: about one page in seven a
 * rule update writes on SQLite. Events are now pruned as a prefix of positions (every event before
 * the first one still kept, found along the primary key), so the index has no reader left.
 */
import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.js'
import type { TableNamer } from './0001-initial.js'

/**
 * Migration 0006: drops `events_tenant_id_created_at` (named through `table`, so in the store's
 * schema on Postgres).
 *
 * @example
 * await eventsPrunedByPosition.up(db, { engine: 'sqlite', table: (n) => `"${n}"` })
 */
export const eventsPrunedByPosition = {
  name: '0006_events_pruned_by_position',
  async up(db: Kysely<unknown>, context: { engine: EngineName; table: TableNamer }): Promise<void> {
    await sql.raw(`DROP INDEX IF EXISTS ${context.table('events_tenant_id_created_at')}`).execute(db)
  },
}
