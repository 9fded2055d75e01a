/**
 * Migration 0003, frozen once shipped: the `api_keys` table of `createApiKeys` (docs/api-keys.md).
 * One row per key: the fields that change (`expires_at`, `revoked_at`, `last_used_at`) as columns
 * of their own, so every change is one UPDATE; the rest, fixed at creation, as JSON in `doc`. The
 * token itself is never stored, only its SHA-256 (`hash`, unique: a bearer token is found by it).
 * Keys are found by id or hash across tenants (a token names no tenant), listed per tenant.
 */
import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.js'
import type { TableNamer } from './0001-initial.js'

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`
}

/** The DDL of this migration (written out: engines and the model may change, this may not). */
function statements(engine: EngineName, table: TableNamer): string[] {
  const text = engine === 'postgres' ? 'text COLLATE "C"' : 'TEXT'
  const keys = table('api_keys')
  return [
    `CREATE TABLE IF NOT EXISTS ${keys} (` +
      `"id" ${text} NOT NULL, "tenant_id" ${text} NOT NULL, "hash" ${text} NOT NULL, ` +
      `"created_at" ${text} NOT NULL, "expires_at" ${text}, "revoked_at" ${text}, "last_used_at" ${text}, ` +
      `"doc" ${text} NOT NULL, PRIMARY KEY ("id"))`,
    `CREATE UNIQUE INDEX IF NOT EXISTS ${quote('api_keys_hash')} ON ${keys} ("hash")`,
    `CREATE INDEX IF NOT EXISTS ${quote('api_keys_tenant_id_created_at_desc_id')} ` +
      `ON ${keys} ("tenant_id", "created_at" DESC, "id")`,
  ]
}

/**
 * Migration 0003: the `api_keys` table and its indexes.
 *
 * @example
 * await apiKeysMigration.up(db, { engine: 'sqlite', table: quote })
 */
export const apiKeysMigration = {
  name: '0003_api_keys',
  async up(db: Kysely<unknown>, context: { engine: EngineName; table: TableNamer }): Promise<void> {
    for (const statement of statements(context.engine, context.table)) await sql.raw(statement).execute(db)
  },
}
