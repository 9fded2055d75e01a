/**
 * The idempotency part of the store port (docs/api-behaviour.md): the `Idempotency-Key` records of
 * the operations that take one, held while their request runs and replayed once it has finished.
 */

/** A response kept for an `Idempotency-Key`, replayed to a retry. */
export interface StoredResponse {
  status: number
  body: unknown
  headers: Record<string, string>
}

/** What {@link IdempotencyPort.reserveIdempotencyKey} found. */
export type IdempotencyReservation =
  /** The key is now held by this request. */
  | { state: 'reserved' }
  /** Another request holds the key and has not finished. */
  | { state: 'in_progress'; fingerprint: string }
  /** A request with this key finished: its response is replayed if the fingerprint matches. */
  | { state: 'completed'; fingerprint: string; response: StoredResponse }

/**
 * The idempotency methods of a store, tenant-scoped like the rest of the port.
 *
 * @example
 * const reservation = await store.reserveIdempotencyKey(tenantId, key, fingerprint, new Date())
 */
export interface IdempotencyPort {
  /**
   * Atomically takes `key` for this request unless a live record holds it. A completed record
   * lives {@link IDEMPOTENCY_TTL_MS}; an unfinished one is abandoned (and may be taken) after
   * {@link IDEMPOTENCY_LOCK_MS}, so that a crash mid-request does not lock a key for a day.
   */
  reserveIdempotencyKey(tenantId: string, key: string, fingerprint: string, now: Date): Promise<IdempotencyReservation>
  /** Stores the response of the request that holds `key`. */
  completeIdempotencyKey(tenantId: string, key: string, response: StoredResponse): Promise<void>
  /** Frees `key` after its request failed unexpectedly, so that a retry runs again. */
  releaseIdempotencyKey(tenantId: string, key: string): Promise<void>
}

/**
 * How long a completed idempotent response is replayed: 24 hours.
 *
 * @example
 * Date.now() - startedAt < IDEMPOTENCY_TTL_MS
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
/**
 * After this long an unfinished idempotent request is taken as crashed: 60 seconds.
 *
 * @example
 * Date.now() - startedAt < IDEMPOTENCY_LOCK_MS
 */
export const IDEMPOTENCY_LOCK_MS = 60 * 1000
