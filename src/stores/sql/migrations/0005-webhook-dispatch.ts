/**
 * Migration 0005, frozen once shipped: what webhook dispatchers share (docs/webhooks.md). Like
 * 0001 it reads nothing that may change later; every statement is idempotent.
 *
 * - `webhook_dispatch`: one row per endpoint: `position`, the last event position fanned out to
 *   it; `failing_since`, the first failed attempt since its last success; and the fan-out claim
 *   (`lease_owner`, `lease_until` in epoch ms).
 * - `webhook_jobs`: one row per pending attempt: the event (id, position, type), the attempt
 *   number, when it is due (`next_attempt_at`, epoch ms) and its claim. Claims scan by due time.
 * - Endpoints made before this migration start at their tenant's current last event position.
 */
import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.js'
import type { TableNamer } from './0001-initial.js'

const TEXT: Record<EngineName, string> = { sqlite: 'TEXT', postgres: 'text COLLATE "C"' }
const BIGINT: Record<EngineName, string> = { sqlite: 'INTEGER', postgres: 'bigint' }

function statements(engine: EngineName, table: TableNamer): string[] {
  const t = `${TEXT[engine]} NOT NULL`
  const tn = TEXT[engine]
  const l = `${BIGINT[engine]} NOT NULL`
  const ln = BIGINT[engine]
  return [
    `CREATE TABLE IF NOT EXISTS ${table('webhook_dispatch')} (tenant_id ${t}, endpoint_id ${t}, position ${l}, ` +
      `failing_since ${tn}, lease_owner ${tn}, lease_until ${ln}, PRIMARY KEY (tenant_id, endpoint_id))`,
    `CREATE TABLE IF NOT EXISTS ${table('webhook_jobs')} (tenant_id ${t}, id ${t}, endpoint_id ${t}, ` +
      `event_id ${t}, event_position ${l}, event_type ${t}, attempt ${l}, next_attempt_at ${l}, ` +
      `lease_owner ${tn}, lease_until ${ln}, PRIMARY KEY (tenant_id, id))`,
    `CREATE INDEX IF NOT EXISTS "webhook_jobs_next_attempt_at" ON ${table('webhook_jobs')} (next_attempt_at)`,
    `CREATE INDEX IF NOT EXISTS "webhook_jobs_tenant_id_endpoint_id" ` +
      `ON ${table('webhook_jobs')} (tenant_id, endpoint_id)`,
    `INSERT INTO ${table('webhook_dispatch')} (tenant_id, endpoint_id, position) ` +
      `SELECT e.tenant_id, e.id, COALESCE(p.position, 0) FROM ${table('webhook_endpoints')} e ` +
      `LEFT JOIN ${table('event_positions')} p ON p.tenant_id = e.tenant_id ` +
      `WHERE true ON CONFLICT (tenant_id, endpoint_id) DO NOTHING`,
  ]
}

/**
 * Migration 0005: the webhook dispatch tables.
 *
 * @example
 * await webhookDispatch.up(db, { engine: 'sqlite', table: (n) => `"${n}"` })
 */
export const webhookDispatch = {
  name: '0005_webhook_dispatch',
  async up(db: Kysely<unknown>, context: { engine: EngineName; table: TableNamer }): Promise<void> {
    for (const statement of statements(context.engine, context.table)) await sql.raw(statement).execute(db)
  },
}
