/**
 * The API keys part of the store port (createApiKeys, docs/api-keys.md). The one table read across
 * tenants: a bearer token names no tenant, so a key is found by the hash of the token, and by its id
 * (globally unique). Lists stay per tenant.
 */
import type { ApiKey, ApiKeyChanges, ApiKeyRecord } from '../model/api-keys.js'

/**
 * The API key methods of a store (each store implements them in a file of its own).
 *
 * @example
 * const store = { ...memoryApiKeyMethods(), ... }
 */
export interface ApiKeysPort {
  /** Stores a new key; throws `DuplicateApiKeyError` (storing nothing) when its `id` or `hash` is stored. */
  insertApiKey(key: ApiKeyRecord): Promise<void>
  /** The key whose `hash` (lower-case hex SHA-256 of the token) this is, or null. */
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>
  /** The key with this id, or null. */
  getApiKey(id: string): Promise<ApiKeyRecord | null>
  /** The tenant's keys, newest `createdAt` first (ties by id), without their hashes. */
  listApiKeys(tenantId: string): Promise<ApiKey[]>
  /** Applies `changes` by the rules of {@link ApiKeyChanges}; the key after them, or null when unknown. */
  updateApiKey(id: string, changes: ApiKeyChanges): Promise<ApiKey | null>
}
