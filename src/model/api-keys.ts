/**
 * API keys a host issues with `createApiKeys` (docs/api-keys.md). The store keeps the SHA-256 hash
 * of each key and never the key itself; what is listed or returned carries neither.
 */
import * as v from 'valibot'
import { DateTimeSchema } from './shared.js'

/**
 * Who created a key; it becomes the actor (`createdBy`/`updatedBy`) of what the key writes.
 *
 * @example
 * const createdBy: ApiKeyCreator = { id: 'user-1', name: 'Ada Lovelace' }
 */
export const ApiKeyCreatorSchema = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
})
/** Who created a key. */
export type ApiKeyCreator = v.InferOutput<typeof ApiKeyCreatorSchema>

/**
 * A key as it is listed: never its secret or hash. `start` is the key's first 12 characters, for
 * display ("tpa_3kTq9Zx1…"); timestamps are ISO 8601 in UTC, null when not set.
 *
 * @example
 * const keys: ApiKey[] = await apiKeys.list('tenant-1')
 */
export const ApiKeySchema = v.strictObject({
  id: v.string(),
  tenantId: v.string(),
  name: v.string(),
  scopes: v.array(v.string()),
  start: v.string(),
  createdAt: DateTimeSchema,
  expiresAt: v.nullable(DateTimeSchema),
  revokedAt: v.nullable(DateTimeSchema),
  lastUsedAt: v.nullable(DateTimeSchema),
  rateLimit: v.nullable(v.strictObject({ limit: v.number(), windowMs: v.number() })),
  createdBy: v.nullable(ApiKeyCreatorSchema),
})
/** A key as it is listed: never its secret or hash. */
export type ApiKey = v.InferOutput<typeof ApiKeySchema>

/**
 * A key as a store keeps it: the listed fields and `hash`, the lower-case hex SHA-256 of the key.
 *
 * @example
 * await store.insertApiKey({ ...apiKey, hash })
 */
export type ApiKeyRecord = ApiKey & { hash: string }

/**
 * What {@link ApiKeyChanges} may move, each only one way: `revokedAt` is set once (a later revoke
 * keeps the first time), `expiresAt` only moves earlier and `lastUsedAt` only later, so writes
 * from several processes in any order leave the same key.
 *
 * @example
 * await store.updateApiKey(id, { revokedAt: new Date().toISOString() })
 */
export interface ApiKeyChanges {
  revokedAt?: string
  expiresAt?: string
  lastUsedAt?: string
}

/**
 * A key with `changes` applied by the rules of {@link ApiKeyChanges} (ISO 8601 UTC strings compare
 * as their instants).
 *
 * @example
 * const next = applyApiKeyChanges(record, { lastUsedAt: now })
 */
export function applyApiKeyChanges<K extends ApiKey>(key: K, changes: ApiKeyChanges): K {
  const { revokedAt, expiresAt, lastUsedAt } = changes
  return {
    ...key,
    revokedAt: key.revokedAt ?? revokedAt ?? null,
    expiresAt:
      expiresAt !== undefined && (key.expiresAt === null || expiresAt < key.expiresAt) ? expiresAt : key.expiresAt,
    lastUsedAt:
      lastUsedAt !== undefined && (key.lastUsedAt === null || lastUsedAt > key.lastUsedAt)
        ? lastUsedAt
        : key.lastUsedAt,
  }
}

/**
 * A key without its hash, as it is listed.
 *
 * @example
 * const listed = withoutHash(record)
 */
export function withoutHash({ hash: _hash, ...key }: ApiKeyRecord): ApiKey {
  return key
}
