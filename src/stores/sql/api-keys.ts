/**
 * API keys on SQL (table `api_keys`, migration 0003): the fixed fields as JSON in `doc`, the ones
 * that change as columns, each change one UPDATE whose CASEs keep the one-way rules of
 * `ApiKeyChanges` (so concurrent writers from several processes cannot move a key backwards).
 */
import { sql } from 'kysely'
import { type ApiKey, type ApiKeyRecord, DuplicateApiKeyError } from '../../model/api-keys.js'
import type { ApiKeyMethods } from '../../ports/store.js'
import { json, ofTenant, parse, type SqlContext } from './context.js'

/** A row of `api_keys`. */
interface ApiKeyRow {
  id: string
  tenant_id: string
  hash: string
  created_at: string
  expires_at: string | null
  revoked_at: string | null
  last_used_at: string | null
  doc: string
}

/** The fields fixed at creation, kept in `doc`. */
type FixedFields = Pick<ApiKey, 'name' | 'scopes' | 'start' | 'rateLimit' | 'createdBy'>

function keyOf(row: ApiKeyRow): ApiKey {
  const fixed = parse<FixedFields>(row.doc)
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: fixed.name,
    scopes: fixed.scopes,
    start: fixed.start,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    rateLimit: fixed.rateLimit,
    createdBy: fixed.createdBy,
  }
}

const recordOf = (row: ApiKeyRow): ApiKeyRecord => ({ ...keyOf(row), hash: row.hash })

/**
 * The SQL store's API key methods.
 *
 * @example
 * const store = { ...sqlApiKeyMethods(ctx), ... }
 */
export function sqlApiKeyMethods(ctx: SqlContext): ApiKeyMethods {
  const { table: t, rows, one } = ctx
  const text = (value: string | undefined) => sql`CAST(${value ?? null} AS TEXT)`
  return {
    async insertApiKey(key) {
      const fixed: FixedFields = {
        name: key.name,
        scopes: key.scopes,
        start: key.start,
        rateLimit: key.rateLimit,
        createdBy: key.createdBy,
      }
      // A key whose id or hash is taken (the primary key, the unique hash) inserts nothing: the
      // same answer on both engines, with no driver error code to read.
      const inserted = await one<{ id: string }>(
        sql`INSERT INTO ${t('api_keys')}
              (id, tenant_id, hash, created_at, expires_at, revoked_at, last_used_at, doc)
            VALUES (${key.id}, ${key.tenantId}, ${key.hash}, ${key.createdAt}, ${key.expiresAt},
                    ${key.revokedAt}, ${key.lastUsedAt}, ${json(fixed)})
            ON CONFLICT DO NOTHING
            RETURNING id`,
      )
      if (inserted === undefined) throw new DuplicateApiKeyError(key.id)
    },

    async findApiKeyByHash(hash) {
      const row = await one<ApiKeyRow>(sql`SELECT * FROM ${t('api_keys')} WHERE hash = ${hash}`)
      return row === undefined ? null : recordOf(row)
    },

    async getApiKey(id) {
      const row = await one<ApiKeyRow>(sql`SELECT * FROM ${t('api_keys')} WHERE id = ${id}`)
      return row === undefined ? null : recordOf(row)
    },

    async listApiKeys(tenantId) {
      const found = await rows<ApiKeyRow>(
        sql`SELECT * FROM ${t('api_keys')} WHERE ${ofTenant(tenantId)} ORDER BY created_at DESC, id`,
      )
      return found.map(keyOf)
    },

    async updateApiKey(id, { revokedAt, expiresAt, lastUsedAt }) {
      const revoked = text(revokedAt)
      const expires = text(expiresAt)
      const used = text(lastUsedAt)
      const row = await one<ApiKeyRow>(
        sql`UPDATE ${t('api_keys')} SET
              revoked_at = COALESCE(revoked_at, ${revoked}),
              expires_at = CASE WHEN ${expires} IS NOT NULL AND (expires_at IS NULL OR expires_at > ${expires})
                           THEN ${expires} ELSE expires_at END,
              last_used_at = CASE WHEN ${used} IS NOT NULL AND (last_used_at IS NULL OR last_used_at < ${used})
                             THEN ${used} ELSE last_used_at END
            WHERE id = ${id}
            RETURNING *`,
      )
      return row === undefined ? null : keyOf(row)
    },
  }
}
