/**
 * Idempotency keys in memory, per tenant: each key's request fingerprint, when it was taken, and
 * the response once complete (frozen, so a replay hands it out without copying).
 */
import { deepFreeze } from '../../model/frozen-records.js'
import {
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyReservation,
  type IdempotencyPort,
  type StoredResponse,
} from '../../ports/store.js'

/** One key of one tenant. */
export interface IdempotencyEntry {
  fingerprint: string
  startedAt: number
  response: StoredResponse | null
}

/** Above this many keys, a tenant's expired keys are swept when a key is taken. */
const SWEEP_ABOVE = 10_000

/**
 * The memory store's idempotency methods over each tenant's map of keys: `held` makes the tenant's
 * map, `found` reads it without making a tenant.
 *
 * @example
 * const store = { ...memoryIdempotencyMethods((id) => tenant(id).idempotency, (id) => tenants.get(id)?.idempotency) }
 */
export function memoryIdempotencyMethods(
  held: (tenantId: string) => Map<string, IdempotencyEntry>,
  found: (tenantId: string) => Map<string, IdempotencyEntry> | undefined,
): IdempotencyPort {
  return {
    async reserveIdempotencyKey(tenantId, key, fingerprint, now): Promise<IdempotencyReservation> {
      const entries = held(tenantId)
      const at = now.getTime()
      const entry = entries.get(key)
      const live =
        entry &&
        (entry.response ? at - entry.startedAt < IDEMPOTENCY_TTL_MS : at - entry.startedAt < IDEMPOTENCY_LOCK_MS)
      if (entry && live) {
        return entry.response
          ? { state: 'completed', fingerprint: entry.fingerprint, response: entry.response }
          : { state: 'in_progress', fingerprint: entry.fingerprint }
      }
      if (entries.size > SWEEP_ABOVE)
        for (const [k, e] of entries) if (at - e.startedAt >= IDEMPOTENCY_TTL_MS) entries.delete(k)
      entries.set(key, { fingerprint, startedAt: at, response: null })
      return { state: 'reserved' }
    },

    async completeIdempotencyKey(tenantId, key, response) {
      const entry = found(tenantId)?.get(key)
      if (entry) entry.response = deepFreeze(structuredClone(response))
    },

    async releaseIdempotencyKey(tenantId, key) {
      found(tenantId)?.delete(key)
    },
  }
}
