/**
 * The `keyResolver` of `createApiKeys` (docs/api-keys.md): a bearer token to its principal, with
 * what the store answered cached per process, one store read shared by concurrent requests with one
 * key, and `lastUsedAt` written at most once a minute per key.
 */
import type { ApiKeyRecord } from '../model/api-keys.js'
import type { Store } from '../ports/store.js'
import { constantTimeEqual, hashKey, isWellFormedKey } from './api-key-token.js'
import type { KeyResolver } from './auth.js'
import type { Principal } from './principal.js'

/**
 * `lastUsedAt` is written at most this often per key and process: once a minute, like GitHub's
 * "last used" (a write per request would make every read a write).
 *
 * @example
 * Date.parse(key.lastUsedAt!) > Date.now() - 2 * LAST_USED_INTERVAL_MS
 */
export const LAST_USED_INTERVAL_MS = 60_000
/** Resolved keys (and unknown hashes) kept per process; beyond this the cache starts afresh. */
const MAX_CACHED_KEYS = 10_000

/** A resolved token in the cache: the key (or null when unknown) and its principal, until `until`. */
interface CacheEntry {
  record: ApiKeyRecord | null
  principal: Principal | null
  until: number
}

function principalOf(record: ApiKeyRecord): Principal {
  const principal: Principal = {
    tenantId: record.tenantId,
    keyId: record.id,
    scopes: record.scopes,
    actor: record.createdBy ?? { id: record.id, name: record.name },
  }
  if (record.rateLimit !== null) principal.rateLimit = record.rateLimit
  return principal
}

/**
 * Writes a key's `lastUsedAt` when this process has not written it (nor seen it written) for
 * {@link LAST_USED_INTERVAL_MS}; a failed write goes to `report` and the key is still accepted.
 */
function lastUsedWriter(
  store: Store,
  report: (error: unknown) => void,
): (record: ApiKeyRecord, at: number) => Promise<void> {
  /** When this process last wrote (or saw) each key's `lastUsedAt`, in ms. */
  const lastWritten = new Map<string, number>()
  return async (record, at) => {
    let last = lastWritten.get(record.id)
    if (last === undefined) {
      last = record.lastUsedAt === null ? Number.NEGATIVE_INFINITY : Date.parse(record.lastUsedAt)
      lastWritten.set(record.id, last)
    }
    if (at - last < LAST_USED_INTERVAL_MS) return
    lastWritten.set(record.id, at)
    try {
      await store.updateApiKey(record.id, { lastUsedAt: new Date(at).toISOString() })
    } catch (error) {
      // lastUsedAt is advisory: a failed write must not refuse a valid key; the next minute tries again.
      // The host hears of it, though: a store that fails this write is failing others.
      report(error)
    }
  }
}

/**
 * What {@link cachedKeyResolver} needs: the key prefix, the cache's lifetime, the clock, and where a
 * failed `lastUsedAt` write goes (it must not throw).
 */
export interface KeyResolverSettings {
  prefix: string
  cacheTtlMs: number
  now: () => number
  onError: (error: unknown) => void
}

/** A resolver and how to drop a key from its cache. */
export interface CachedKeyResolver {
  keyResolver: KeyResolver
  /** Drops the key from the cache at once, and keeps any read already under way from caching it. */
  forget(id: string): void
}

/**
 * Resolves tokens of keys in `store`: refuses one of the wrong shape or checksum without reading
 * the store, caches what it reads for `cacheTtlMs`, and refuses revoked and expired keys.
 *
 * @example
 * const settings = { prefix: 'tpa', cacheTtlMs: 5_000, now: Date.now, onError: console.error }
 * const { keyResolver, forget } = cachedKeyResolver(store, settings)
 * const principal = await keyResolver(token) // null when unknown, revoked or expired
 */
export function cachedKeyResolver(
  store: Store,
  { prefix, cacheTtlMs, now, onError }: KeyResolverSettings,
): CachedKeyResolver {
  /** By the token's hash (never the token: the plain key is kept nowhere). */
  const cache = new Map<string, CacheEntry>()
  /** Store reads under way, by hash: concurrent requests with one key share one read. */
  const reading = new Map<string, Promise<CacheEntry>>()
  const touch = lastUsedWriter(store, onError)

  /** Bumped by every forget: a read that started before one is not cached (it may predate it). */
  let generation = 0
  const forget = (id: string) => {
    generation++
    reading.clear() // later requests read afresh rather than join a read that began before
    for (const [hash, entry] of cache) if (entry.record?.id === id) cache.delete(hash)
  }

  const lookup = (hash: string): Promise<CacheEntry> => {
    let pending = reading.get(hash)
    if (pending === undefined) {
      const started = generation
      pending = store
        .findApiKeyByHash(hash)
        .then((record) => {
          const entry = { record, principal: record && principalOf(record), until: now() + cacheTtlMs }
          if (cache.size >= MAX_CACHED_KEYS) cache.clear()
          if (cacheTtlMs > 0 && started === generation) cache.set(hash, entry)
          return entry
        })
        .finally(() => reading.delete(hash))
      reading.set(hash, pending)
    }
    return pending
  }

  const keyResolver: KeyResolver = async (token) => {
    // A mistyped or made-up token costs a regex and a CRC32, never a store read.
    if (!isWellFormedKey(prefix, token)) return null
    const hash = await hashKey(token)
    const at = now()
    const cached = cache.get(hash)
    const entry = cached !== undefined && cached.until > at ? cached : await lookup(hash)
    const { record, principal } = entry
    if (record === null || principal === null || !constantTimeEqual(record.hash, hash)) return null
    if (record.revokedAt !== null) return null
    if (record.expiresAt !== null && Date.parse(record.expiresAt) <= at) return null
    await touch(record, at)
    return principal
  }

  return { keyResolver, forget }
}
