/**
 * Idempotency keys on SQL: one statement takes a key when it is free or its holder is dead, so two
 * requests never both hold it; expired keys are deleted now and then.
 */
import { sql } from 'kysely'
import {
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyReservation,
  type Store,
  type StoredResponse,
} from '../../ports/store.js'
import { insertOfTenant, json, ofTenant, parse, type SqlContext } from './context.js'

/** How many reservations pass between two deletions of expired keys. */
const PURGE_EVERY = 1000

/**
 * The store's idempotency methods.
 *
 * @example
 * const store = { ...idempotencyMethods(ctx), ... }
 */
export function idempotencyMethods(
  ctx: SqlContext,
): Pick<Store, 'reserveIdempotencyKey' | 'completeIdempotencyKey' | 'releaseIdempotencyKey'> {
  const { db, table: t, rows, one } = ctx
  let reserves = 0
  return {
    async reserveIdempotencyKey(tenantId, key, fingerprint, now): Promise<IdempotencyReservation> {
      const at = now.getTime()
      if (++reserves % PURGE_EVERY === 0)
        await sql`DELETE FROM ${t('idempotency_keys')} WHERE started_at < ${at - IDEMPOTENCY_TTL_MS}`.execute(db)
      for (;;) {
        // One statement takes the key when it is free or its holder is dead.
        const taken = await rows(
          sql`${insertOfTenant(
            t('idempotency_keys'),
            ['key', 'fingerprint', 'started_at', 'response'],
            sql`VALUES (${tenantId}, ${key}, ${fingerprint}, ${at}, NULL)`,
            {
              key: ['key'],
              set: sql`fingerprint = excluded.fingerprint, started_at = excluded.started_at, response = NULL`,
              where: sql`(cur.response IS NOT NULL AND ${at} - cur.started_at >= ${IDEMPOTENCY_TTL_MS})
                 OR (cur.response IS NULL AND ${at} - cur.started_at >= ${IDEMPOTENCY_LOCK_MS})`,
            },
          )} RETURNING key`,
        )
        if (taken.length > 0) return { state: 'reserved' }
        const held = await one<{ fingerprint: string; response: string | null }>(
          sql`SELECT fingerprint, response FROM ${t('idempotency_keys')}
              WHERE ${ofTenant(tenantId)} AND key = ${key}`,
        )
        if (held === undefined) continue // released in between: try again
        return held.response === null
          ? { state: 'in_progress', fingerprint: held.fingerprint }
          : { state: 'completed', fingerprint: held.fingerprint, response: parse<StoredResponse>(held.response) }
      }
    },

    async completeIdempotencyKey(tenantId, key, response) {
      await sql`UPDATE ${t('idempotency_keys')} SET response = ${json(response)}
                WHERE ${ofTenant(tenantId)} AND key = ${key}`.execute(db)
    },

    async releaseIdempotencyKey(tenantId, key) {
      await sql`DELETE FROM ${t('idempotency_keys')} WHERE ${ofTenant(tenantId)} AND key = ${key}`.execute(db)
    },
  }
}
