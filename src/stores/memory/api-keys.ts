/**
 * API keys in memory: one map by id and one by hash, records frozen when written (as the memory
 * store's other records are), so reads hand them out without copying.
 */
import {
  type ApiKey,
  type ApiKeyRecord,
  applyApiKeyChanges,
  DuplicateApiKeyError,
  withoutHash,
} from '../../model/api-keys.js'
import { deepFreeze } from '../../model/frozen-records.js'
import { compareCodePoints } from '../../model/ordering.js'
import type { ApiKeyMethods } from '../../ports/store.js'

/**
 * The memory store's API key methods, over maps of their own.
 *
 * @example
 * const store = { ...memoryApiKeyMethods(), ... }
 */
export function memoryApiKeyMethods(): ApiKeyMethods {
  const byId = new Map<string, ApiKeyRecord>()
  const idByHash = new Map<string, string>()
  const newestFirst = (a: ApiKey, b: ApiKey) =>
    compareCodePoints(b.createdAt, a.createdAt) || compareCodePoints(a.id, b.id)
  return {
    async insertApiKey(key) {
      if (byId.has(key.id) || idByHash.has(key.hash)) throw new DuplicateApiKeyError(key.id)
      byId.set(key.id, deepFreeze(structuredClone(key)))
      idByHash.set(key.hash, key.id)
    },

    async findApiKeyByHash(hash) {
      const id = idByHash.get(hash)
      return id === undefined ? null : (byId.get(id) ?? null)
    },

    async getApiKey(id) {
      return byId.get(id) ?? null
    },

    async listApiKeys(tenantId) {
      const keys: ApiKey[] = []
      for (const key of byId.values()) if (key.tenantId === tenantId) keys.push(withoutHash(key))
      return keys.sort(newestFirst)
    },

    async updateApiKey(id, changes) {
      const current = byId.get(id)
      if (current === undefined) return null
      const next = deepFreeze(applyApiKeyChanges(current, changes))
      byId.set(id, next)
      return withoutHash(next)
    },
  }
}
