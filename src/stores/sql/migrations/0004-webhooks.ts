/**
 * Migration 0004, frozen once shipped: the webhook tables (docs/extensions.md section 4). Like
 * 0001 it reads nothing that may change later: its tables, types and indexes are written out here.
 * Every statement is `IF NOT EXISTS`, so a run interrupted half-way, or two at once, is harmless.
 *
 * - `webhook_endpoints`: one row per endpoint, its JSON (secrets included: they sign) in `doc`,
 *   `created_at` for the list's order and `version` for compare-and-set.
 * - `webhook_tenants`: one row per tenant with endpoints; creating an endpoint locks it, so that
 *   concurrent creates on Postgres count one after another (the limit of 20 holds).
 * - `webhook_deliveries`: one row per delivery attempt, listed newest first per endpoint.
 */
import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.js'
import type { TableNamer } from './0001-initial.js'

const TEXT: Record<EngineName, string> = { sqlite: 'TEXT', postgres: 'text COLLATE "C"' }
const BIGINT: Record<EngineName, string> = { sqlite: 'INTEGER', postgres: 'bigint' }

function statements(engine: EngineName, table: TableNamer): string[] {
  const t = `${TEXT[engine]} NOT NULL`
  const l = `${BIGINT[engine]} NOT NULL`
  return [
    `CREATE TABLE IF NOT EXISTS ${table('webhook_endpoints')} (tenant_id ${t}, id ${t}, created_at ${t}, ` +
      `version ${l}, doc ${t}, PRIMARY KEY (tenant_id, id))`,
    `CREATE INDEX IF NOT EXISTS "webhook_endpoints_tenant_id_created_at_desc_id" ` +
      `ON ${table('webhook_endpoints')} (tenant_id, created_at DESC, id)`,
    `CREATE TABLE IF NOT EXISTS ${table('webhook_tenants')} (tenant_id ${t}, PRIMARY KEY (tenant_id))`,
    `CREATE TABLE IF NOT EXISTS ${table('webhook_deliveries')} (tenant_id ${t}, id ${t}, endpoint_id ${t}, ` +
      `created_at ${t}, doc ${t}, PRIMARY KEY (tenant_id, id))`,
    `CREATE INDEX IF NOT EXISTS "webhook_deliveries_tenant_id_endpoint_id_created_at_desc_id_desc" ` +
      `ON ${table('webhook_deliveries')} (tenant_id, endpoint_id, created_at DESC, id DESC)`,
  ]
}

/**
 * Migration 0004: the webhook tables.
 *
 * @example
 * await webhooks.up(db, { engine: 'sqlite', table: (n) => `"${n}"` })
 */
export const webhooks = {
  name: '0004_webhooks',
  async up(db: Kysely<unknown>, context: { engine: EngineName; table: TableNamer }): Promise<void> {
    for (const statement of statements(context.engine, context.table)) await sql.raw(statement).execute(db)
  },
}
