/**
 * `createApiKeys`: keys a host issues, lists, revokes and rolls, and the `keyResolver` that accepts
 * them (docs/api-keys.md). Keys are made and checked like GitHub's (a prefix, random base62, a
 * CRC32 checksum) and kept like Stripe's (only a hash, shown once, rolled with an overlap).
 */
import * as v from 'valibot'
import {
  type ApiKey,
  type ApiKeyCreator,
  ApiKeyCreatorSchema,
  type ApiKeyRecord,
  withoutHash,
} from '../model/api-keys.js'
import { checkOptions, is, type OptionChecks } from '../model/options.js'
import { DateTimeSchema } from '../model/shared.js'
import type { Store } from '../ports/store.js'
import { cachedKeyResolver } from './api-key-resolver.js'
import { hashKey, isKeyPrefix, KEY_START_LENGTH, newKeyToken } from './api-key-token.js'
import { SCOPES, type KeyResolver, type Scope } from './auth.js'
import { guardErrorListener } from './observe.js'
import { type RateLimitRule, RateLimitRuleSchema } from './principal.js'

export { LAST_USED_INTERVAL_MS } from './api-key-resolver.js'

/** Options of {@link createApiKeys}. */
export interface ApiKeysOptions {
  /** Starts every key: 1..20 ASCII letters and digits, starting with a letter. Default `tpa`. */
  prefix?: string
  /** How long a resolved key (or an unknown one) is kept in this process. Default 5,000 ms. */
  cacheTtlMs?: number
  /** The clock, in milliseconds since the epoch (tests inject one). Default `Date.now`. */
  now?: () => number
  /**
   * Told of a failed `lastUsedAt` write (the key is still accepted: the write is advisory). What it
   * throws or rejects with is dropped with a line on stderr. Default: one line on stderr.
   */
  onError?: (error: unknown) => void
}

const CHECKS: OptionChecks<ApiKeysOptions> = {
  prefix: (value) =>
    typeof value === 'string' && isKeyPrefix(value)
      ? undefined
      : 'must be 1..20 ASCII letters and digits, starting with a letter',
  cacheTtlMs: is.integer(0),
  now: is.function,
  onError: is.function,
}

/** The default `onError`: a failed `lastUsedAt` write, on one line of stderr. */
function logKeyError(error: unknown): void {
  const why = error instanceof Error ? error.message : String(error)
  console.error(`[tenant-public-api] createApiKeys: a lastUsedAt write failed: ${why.replace(/\s+/g, ' ')}`)
}

/** What {@link ApiKeys.create} takes. */
export interface CreateApiKeyInput {
  /** The one tenant the key sees. */
  tenantId: string
  /** A name for people (1..200 characters), e.g. `"PSA sync"`. */
  name: string
  /** The granted scopes: 1..{@link SCOPES}.length of them, each one of {@link SCOPES}. */
  scopes: readonly Scope[]
  /** When the key stops working (in the future), or null/absent for never. */
  expiresAt?: Date | string | null
  /** This key's own rate limit, instead of the rate limiter's default. */
  rateLimit?: RateLimitRule | null
  /** Who created it; becomes the actor of what the key writes (else the key itself: its id and name). */
  createdBy?: ApiKeyCreator | null
}

/** A new key: `key` is the secret, shown only here; `apiKey` what the store keeps of it, minus its hash. */
export interface CreatedApiKey {
  key: string
  apiKey: ApiKey
}

/** Options of {@link ApiKeys.roll}. */
export interface RollApiKeyOptions {
  /** How long the old key keeps working, in ms (0: not at all). Default 86,400,000 (24 h). */
  expireOldAfterMs?: number
}

/** What {@link createApiKeys} returns. */
export interface ApiKeys {
  /** Issues a key. Throws a `TypeError` naming the field when the input is invalid. */
  create(input: CreateApiKeyInput): Promise<CreatedApiKey>
  /** The tenant's keys, newest first, revoked and expired ones included; never a secret or hash. */
  list(tenantId: string): Promise<ApiKey[]>
  /** Revokes the key now (at once in this process); the key as revoked, or null when unknown. */
  revoke(id: string): Promise<ApiKey | null>
  /**
   * A new key with the same tenant, name, scopes, expiry, rate limit and creator; the old one keeps
   * working for `expireOldAfterMs`. Null when unknown; a `TypeError` for a revoked or expired key.
   */
  roll(id: string, options?: RollApiKeyOptions): Promise<CreatedApiKey | null>
  /** Pass it to `createPublicApi({ keyResolver })`. */
  keyResolver: KeyResolver
}

const CreateApiKeyInputSchema = v.object({
  tenantId: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  scopes: v.pipe(v.array(v.picklist(SCOPES)), v.minLength(1), v.maxLength(SCOPES.length)),
  expiresAt: v.nullish(v.union([v.date(), DateTimeSchema])),
  rateLimit: v.nullish(RateLimitRuleSchema),
  createdBy: v.nullish(ApiKeyCreatorSchema),
})

/** Fields only, never values: a value may be a secret a host passed by mistake. */
function invalid(issues: readonly v.BaseIssue<unknown>[]): TypeError {
  const fields = issues.slice(0, 10).map((issue) => {
    const path = (issue.path ?? []).map((item) => String(item.key)).join('.') || '(the input)'
    return `${path}: ${issue.message}`
  })
  return new TypeError(`Invalid API key input: ${fields.join('; ')}`)
}

/** What {@link ApiKeys.create} takes, checked: the expiry as ISO text, and the moment it was checked at. */
interface CheckedKeyInput extends Omit<v.InferOutput<typeof CreateApiKeyInputSchema>, 'expiresAt'> {
  expiresAt: string | null
  /** When the key is made, in ms since the epoch. */
  at: number
}

/** Checks the input (a `TypeError` naming the wrong fields), then that its expiry is after `now()`. */
function checkCreateInput(input: CreateApiKeyInput, now: () => number): CheckedKeyInput {
  const parsed = v.safeParse(CreateApiKeyInputSchema, input)
  if (!parsed.success) throw invalid(parsed.issues)
  const at = now()
  const { expiresAt } = parsed.output
  let expires: string | null = null
  if (expiresAt !== null && expiresAt !== undefined) {
    const ms = expiresAt instanceof Date ? expiresAt.getTime() : Date.parse(expiresAt)
    if (!Number.isFinite(ms) || ms <= at) throw new TypeError('Invalid API key input: expiresAt must be in the future')
    expires = new Date(ms).toISOString()
  }
  return { ...parsed.output, expiresAt: expires, at }
}

/** A new key: the secret, and the record the store keeps of it (its hash, never the key). */
async function newKeyRecord(prefix: string, input: CheckedKeyInput): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = newKeyToken(prefix)
  const record: ApiKeyRecord = {
    id: crypto.randomUUID(),
    tenantId: input.tenantId,
    name: input.name,
    scopes: [...new Set(input.scopes)],
    start: key.slice(0, KEY_START_LENGTH),
    createdAt: new Date(input.at).toISOString(),
    expiresAt: input.expiresAt,
    revokedAt: null,
    lastUsedAt: null,
    rateLimit: input.rateLimit ?? null,
    createdBy: input.createdBy ?? null,
    hash: await hashKey(key),
  }
  return { key, record }
}

/**
 * Keys for hosts: create, list, revoke and roll them on `store`, and resolve them with
 * `keyResolver`. Only the SHA-256 of a key is stored; the key itself is returned once, by
 * `create` or `roll`. The resolver refuses a token of the wrong shape or checksum without reading
 * the store, caches what it reads for `cacheTtlMs`, and writes `lastUsedAt` at most once a minute
 * per key.
 *
 * @example
 * const keys = createApiKeys(store)
 * const { key } = await keys.create({ tenantId: 'tenant-1', name: 'PSA sync', scopes: ['tickets.read'] })
 * const api = createPublicApi({ store, keyResolver: keys.keyResolver })
 * // Authorization: Bearer ${key}
 */
export function createApiKeys(store: Store, options: ApiKeysOptions = {}): ApiKeys {
  checkOptions(options, CHECKS, { name: 'createApiKeys' })
  const prefix = options.prefix ?? 'tpa'
  const cacheTtlMs = options.cacheTtlMs ?? 5_000
  const now = options.now ?? Date.now
  if (typeof store !== 'object' || store === null || typeof store.findApiKeyByHash !== 'function')
    throw new TypeError('createApiKeys needs a store with the API key methods (see docs/stores.md)')
  // Revoking and rolling forget the key, so this process stops accepting it at once.
  const onError = guardErrorListener(options.onError ?? logKeyError, 'createApiKeys onError')
  const { keyResolver, forget } = cachedKeyResolver(store, { prefix, cacheTtlMs, now, onError })

  const create = async (input: CreateApiKeyInput): Promise<CreatedApiKey> => {
    const { key, record } = await newKeyRecord(prefix, checkCreateInput(input, now))
    await store.insertApiKey(record)
    return { key, apiKey: withoutHash(record) }
  }

  return {
    create,

    list: (tenantId) => store.listApiKeys(tenantId),

    async revoke(id) {
      const revoked = await store.updateApiKey(id, { revokedAt: new Date(now()).toISOString() })
      forget(id)
      return revoked
    },

    async roll(id, rollOptions = {}) {
      const expireOldAfterMs = rollOptions.expireOldAfterMs ?? 86_400_000
      if (!Number.isSafeInteger(expireOldAfterMs) || expireOldAfterMs < 0)
        throw new TypeError('expireOldAfterMs must be an integer ≥ 0')
      const old = await store.getApiKey(id)
      if (old === null) return null
      const at = now()
      if (old.revokedAt !== null) throw new TypeError('A revoked API key cannot be rolled')
      if (old.expiresAt !== null && Date.parse(old.expiresAt) <= at)
        throw new TypeError('An expired API key cannot be rolled')
      const created = await create({
        tenantId: old.tenantId,
        name: old.name,
        scopes: old.scopes as Scope[],
        expiresAt: old.expiresAt,
        rateLimit: old.rateLimit,
        createdBy: old.createdBy,
      })
      // The new key is stored before the old one is shortened: a failure in between leaves both working.
      await store.updateApiKey(id, { expiresAt: new Date(at + expireOldAfterMs).toISOString() })
      forget(id)
      return created
    },

    keyResolver,
  }
}
