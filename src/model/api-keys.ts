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
 * Thrown by a store's `insertApiKey` when a key with the same `id` or `hash` is already stored,
 * the same error on every store (memory, SQLite, Postgres), so a host importing keys can tell a
 * repeat from a failure. Recognised across copies of the package, like `StoreUnavailableError`.
 *
 * @example
 * try {
 *   await store.insertApiKey(imported)
 * } catch (error) {
 *   if (!(error instanceof DuplicateApiKeyError)) throw error // a repeat of an import is skipped
 * }
 */
export class DuplicateApiKeyError extends Error {
  constructor(readonly id: string) {
    super(`An API key with the id ${id} or its hash is already stored`)
    this.name = 'DuplicateApiKeyError'
  }

  /** Recognised across copies of the package (an instance of either passes either's check). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[DUPLICATE_API_KEY] === true
  }
}
const DUPLICATE_API_KEY = Symbol.for('tenant-public-api.duplicate-api-key-error')
Object.defineProperty(DuplicateApiKeyError.prototype, DUPLICATE_API_KEY, { value: true })

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
