/**
 * API keys (docs/api-keys.md): the store's key methods (round trip, one-way changes, per-tenant
 * lists without hashes) and `createApiKeys` end to end through the API on the store under test:
 * 401 for malformed, mistyped, revoked and expired keys (the first two without a store read),
 * caching and revocation across processes, the roll's overlap, `lastUsedAt` written at most once a
 * minute, and a busy key served without a store read per request. Time is an injected clock.
 */
import { describe, expect, it } from 'vitest'
import { createPublicApi } from '../../create-public-api.js'
import { newKeyToken } from '../../http/api-key-token.js'
import { createApiKeys, type ApiKeysOptions, LAST_USED_INTERVAL_MS } from '../../http/api-keys.js'
import { memoryRateLimiter } from '../../http/rate-limit.js'
import { type ApiKeyRecord, DuplicateApiKeyError } from '../../model/api-keys.js'
import type { Store } from '../../ports/store.js'
import { createHarness, type Harness, type Reply } from '../harness.js'
import { type ConformanceContext, newTenantId } from './context.js'

/** A view of `store` that counts the calls of each method. */
function countingStore(store: Store): { store: Store; calls: Map<string, number> } {
  const calls = new Map<string, number>()
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        calls.set(String(property), (calls.get(String(property)) ?? 0) + 1)
        return value.apply(target, args)
      }
    },
  })
  return { store: wrapped, calls }
}

const KEY_READS = ['findApiKeyByHash', 'getApiKey', 'listApiKeys'] as const
const reads = (calls: Map<string, number>) => KEY_READS.reduce((sum, name) => sum + (calls.get(name) ?? 0), 0)

/** A clock the test moves. */
function clock(start = Date.now()): { now: () => number; advance: (ms: number) => void } {
  let at = start
  return { now: () => at, advance: (ms) => (at += ms) }
}

/** A key record for the store-level tests. */
function record(tenantId: string, n: number, createdAt: string): ApiKeyRecord {
  const id = crypto.randomUUID()
  return {
    id,
    tenantId,
    name: `key ${n}`,
    scopes: ['tickets.read'],
    start: 'tpa_abcdefgh',
    createdAt,
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    rateLimit: n % 2 === 0 ? { limit: 10, windowMs: 1_000 } : null,
    createdBy: n % 2 === 0 ? { id: 'user-1', name: 'Ada' } : null,
    hash: `${id.replaceAll('-', '')}${'0'.repeat(32)}`,
  }
}

/** Keys and a client over the store under test (counted), with a clock of their own. */
function setup(ctx: ConformanceContext, options: ApiKeysOptions = {}) {
  const time = clock()
  const counted = countingStore(ctx.store)
  const keys = createApiKeys(counted.store, { now: time.now, ...options })
  const api = createPublicApi({
    store: counted.store,
    keyResolver: keys.keyResolver,
    rateLimiter: memoryRateLimiter({ limit: 1_000_000, windowMs: 60_000 }),
  })
  const client = (key: string): Harness => createHarness(api, { key })
  return { time, calls: counted.calls, keys, client }
}

/** One ticket of the tenant, read with `h`'s key. */
const tickets = (h: Harness) => h.call<Reply<'listTickets'>>('GET', '/tickets?limit=1')

/**
 * Registers the API key tests.
 *
 * @example
 * apiKeys(ctx)
 */
export function apiKeys(ctx: ConformanceContext): void {
  storeKeyMethods(ctx)

  describe('API keys: createApiKeys through the API', () => {
    keyTokens(ctx)

    keyEnds(ctx)

    keyUseAndCreateInput(ctx)
  })
}

/** Registers the tests of the store's key methods, called directly. */
function storeKeyMethods(ctx: ConformanceContext): void {
  describe('API keys: the store methods', () => {
    it('store a key, find it by id and hash, list it only in its tenant, newest first, without hash', async () => {
      const [t1, t2] = [newTenantId('keys'), newTenantId('keys')]
      const older = record(t1, 1, '2030-01-01T00:00:00.000Z')
      const newer = record(t1, 2, '2030-01-02T00:00:00.000Z')
      const other = record(t2, 3, '2030-01-03T00:00:00.000Z')
      for (const key of [older, newer, other]) await ctx.store.insertApiKey(key)
      expect(await ctx.store.getApiKey(newer.id)).toEqual(newer)
      expect(await ctx.store.findApiKeyByHash(older.hash)).toEqual(older)
      expect(await ctx.store.findApiKeyByHash('f'.repeat(64))).toBeNull()
      expect(await ctx.store.getApiKey(crypto.randomUUID())).toBeNull()
      const { hash: _1, ...newerListed } = newer
      const { hash: _2, ...olderListed } = older
      expect(await ctx.store.listApiKeys(t1)).toEqual([newerListed, olderListed])
      expect((await ctx.store.listApiKeys(t2)).map((k) => k.id)).toEqual([other.id])
      expect(await ctx.store.listApiKeys(newTenantId('keys'))).toEqual([])
    })

    it('refuse a key whose id or hash is stored with DuplicateApiKeyError, keeping the first', async () => {
      const tenantId = newTenantId('keys')
      const first = record(tenantId, 1, '2030-01-01T00:00:00.000Z')
      await ctx.store.insertApiKey(first)
      const sameId = { ...record(tenantId, 2, '2030-01-02T00:00:00.000Z'), id: first.id }
      const sameHash = { ...record(tenantId, 3, '2030-01-03T00:00:00.000Z'), hash: first.hash }
      for (const repeat of [first, sameId, sameHash]) {
        const refused = await ctx.store.insertApiKey(repeat).then(
          () => null,
          (error: unknown) => error,
        )
        expect(refused).toBeInstanceOf(DuplicateApiKeyError)
        expect(refused).toMatchObject({ name: 'DuplicateApiKeyError', id: repeat.id })
      }
      expect(await ctx.store.getApiKey(first.id)).toEqual(first)
      expect(await ctx.store.findApiKeyByHash(first.hash)).toEqual(first)
      expect(await ctx.store.getApiKey(sameHash.id)).toBeNull()
      expect((await ctx.store.listApiKeys(tenantId)).map((key) => key.id)).toEqual([first.id])
    })

    it('move revokedAt once, expiresAt only earlier and lastUsedAt only later; unknown ids are null', async () => {
      const key = record(newTenantId('keys'), 1, '2030-01-01T00:00:00.000Z')
      await ctx.store.insertApiKey(key)
      const at = (day: number) => `2030-02-${String(day).padStart(2, '0')}T00:00:00.000Z`
      expect(await ctx.store.updateApiKey(key.id, { lastUsedAt: at(5), expiresAt: at(20) })).toMatchObject({
        lastUsedAt: at(5),
        expiresAt: at(20),
        revokedAt: null,
      })
      expect(await ctx.store.updateApiKey(key.id, { lastUsedAt: at(3), expiresAt: at(25) })).toMatchObject({
        lastUsedAt: at(5),
        expiresAt: at(20),
      })
      expect(await ctx.store.updateApiKey(key.id, { revokedAt: at(7) })).toMatchObject({ revokedAt: at(7) })
      const after = await ctx.store.updateApiKey(key.id, { revokedAt: at(9), expiresAt: at(10), lastUsedAt: at(8) })
      expect(after).toMatchObject({ revokedAt: at(7), expiresAt: at(10), lastUsedAt: at(8) })
      expect(after).not.toHaveProperty('hash')
      expect(await ctx.store.getApiKey(key.id)).toEqual({ ...after, hash: key.hash })
      expect(await ctx.store.updateApiKey(crypto.randomUUID(), { revokedAt: at(1) })).toBeNull()
    })
  })
}

/** Registers the tests of issued tokens: the shape of a new key, and malformed or mistyped tokens refused. */
function keyTokens(ctx: ConformanceContext): void {
  it('issues a key of the documented shape, shown once, kept as a hash, that reads its own tenant', async () => {
    const { keys, client } = setup(ctx)
    const createdBy = { id: 'user-7', name: 'Grace' }
    const { key, apiKey } = await keys.create({
      tenantId: ctx.a.tenantId,
      name: 'PSA sync',
      scopes: ['tickets.read', 'goals.read'],
      createdBy,
    })
    expect(key).toMatch(/^tpa_[0-9A-Za-z]{38}$/)
    expect(apiKey).toMatchObject({ tenantId: ctx.a.tenantId, name: 'PSA sync', start: key.slice(0, 12), createdBy })
    expect(apiKey).not.toHaveProperty('hash')
    const stored = await ctx.store.getApiKey(apiKey.id)
    expect(stored?.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(stored)).not.toContain(key.slice(4))
    const listed = await keys.list(ctx.a.tenantId)
    expect(listed.map((k) => k.id)).toContain(apiKey.id)
    expect(JSON.stringify(listed)).not.toContain(key.slice(4))
    expect(JSON.stringify(listed)).not.toContain(String(stored?.hash))
    expect((await keys.list(ctx.b.tenantId)).map((k) => k.id)).not.toContain(apiKey.id)

    const h = client(key)
    const { status, body } = await h.call<Reply<'getGoal'>>('GET', `/goals/${ctx.a.ids.goals[0]}`)
    expect(status).toBe(200)
    expect(body.data.id).toBe(ctx.a.ids.goals[0])
    // The key sees only its tenant (B's goal is a 404) and only its scopes.
    expect((await h.call('GET', `/goals/${ctx.b.ids.goals[0]}`)).status).toBe(404)
    const denied = await h.call<Reply<'listUsers'>>('GET', '/users')
    expect(denied.status).toBe(403)
    expect(denied.body.code).toBe('INSUFFICIENT_SCOPE')
  })

  it('refuses malformed and mistyped tokens with a 401 and no store read', async () => {
    const { keys, client, calls } = setup(ctx)
    const { key } = await keys.create({ tenantId: ctx.a.tenantId, name: 'k', scopes: ['tickets.read'] })
    const last = key.at(-1) === 'A' ? 'B' : 'A'
    const bad = [
      `${key.slice(0, -1)}${last}`, // checksum no longer matches
      `${key.slice(0, 4)}${key[5]}${key[4]}${key.slice(6)}`, // two characters swapped
      `xyz_${key.slice(4)}`, // another prefix
      key.slice(0, -1), // one character short
      `${key}0`,
      `tpa_${'-'.repeat(38)}`,
      'not-a-key',
    ].filter((token) => token !== key)
    calls.clear()
    for (const token of bad) {
      const { status, body, headers } = await tickets(client(token))
      expect(status, token).toBe(401)
      expect(body.code).toBe('UNAUTHORIZED')
      expect(headers.get('www-authenticate')).toContain('invalid_token')
    }
    expect(reads(calls)).toBe(0)
    // A well-formed token that no key has is one store read, then cached like a known one.
    const unknown = newKeyToken('tpa')
    for (let i = 0; i < 3; i++) expect((await tickets(client(unknown))).status).toBe(401)
    expect(calls.get('findApiKeyByHash')).toBe(1)
  })
}

/** Registers the tests of how a key stops working: revoked, expired, rolled. */
function keyEnds(ctx: ConformanceContext): void {
  it('refuses a revoked key at once in the process that revoked it, and within cacheTtlMs elsewhere', async () => {
    const here = setup(ctx)
    const elsewhere = setup(ctx, { cacheTtlMs: 5_000 })
    const { key, apiKey } = await here.keys.create({ tenantId: ctx.a.tenantId, name: 'k', scopes: ['tickets.read'] })
    expect((await tickets(here.client(key))).status).toBe(200)
    expect((await tickets(elsewhere.client(key))).status).toBe(200)
    const revoked = await here.keys.revoke(apiKey.id)
    expect(revoked?.revokedAt).toEqual(expect.any(String))
    const refused = await tickets(here.client(key))
    expect(refused.status).toBe(401)
    expect(refused.body.code).toBe('UNAUTHORIZED')
    // The other process still holds the key it resolved, until its cache entry expires.
    expect((await tickets(elsewhere.client(key))).status).toBe(200)
    elsewhere.time.advance(5_000)
    expect((await tickets(elsewhere.client(key))).status).toBe(401)
    expect((await here.keys.list(ctx.a.tenantId)).find((k) => k.id === apiKey.id)?.revokedAt).toBe(revoked?.revokedAt)
    expect(await here.keys.revoke(crypto.randomUUID())).toBeNull()
  })

  it('refuses an expired key', async () => {
    const { keys, client, time } = setup(ctx)
    const expiresAt = new Date(time.now() + 60_000)
    const { key, apiKey } = await keys.create({
      tenantId: ctx.a.tenantId,
      name: 'k',
      scopes: ['tickets.read'],
      expiresAt,
    })
    expect(apiKey.expiresAt).toBe(expiresAt.toISOString())
    expect((await tickets(client(key))).status).toBe(200)
    time.advance(59_999)
    expect((await tickets(client(key))).status).toBe(200)
    time.advance(1)
    const refused = await tickets(client(key))
    expect(refused.status).toBe(401)
    expect(refused.body.code).toBe('UNAUTHORIZED')
  })

  it('rolls a key: the new one has the same grants, the old one works until expireOldAfterMs', async () => {
    const { keys, client, time } = setup(ctx)
    const rateLimit = { limit: 50, windowMs: 60_000 }
    const createdBy = { id: 'user-9', name: 'Lin' }
    const old = await keys.create({
      tenantId: ctx.a.tenantId,
      name: 'CI',
      scopes: ['users.read'],
      rateLimit,
      createdBy,
    })
    expect((await client(old.key).call('GET', '/users?limit=1')).status).toBe(200)
    const rolled = await keys.roll(old.apiKey.id, { expireOldAfterMs: 10_000 })
    expect(rolled).not.toBeNull()
    const fresh = rolled!
    expect(fresh.key).not.toBe(old.key)
    expect(fresh.apiKey).toMatchObject({
      tenantId: ctx.a.tenantId,
      name: 'CI',
      scopes: ['users.read'],
      rateLimit,
      createdBy,
    })
    expect(fresh.apiKey.id).not.toBe(old.apiKey.id)
    const limited = await client(fresh.key).call<Reply<'listUsers'>>('GET', '/users?limit=1')
    expect(limited.status).toBe(200)
    expect(limited.headers.get('x-ratelimit-limit')).toBe('50')
    expect((await client(fresh.key).call('GET', '/tickets')).status).toBe(403)
    time.advance(9_999)
    expect((await client(old.key).call('GET', '/users?limit=1')).status).toBe(200)
    time.advance(1)
    expect((await client(old.key).call('GET', '/users?limit=1')).status).toBe(401)
    expect((await client(fresh.key).call('GET', '/users?limit=1')).status).toBe(200)
    // The default overlap is 24 hours; an unknown key rolls to null, a revoked or expired one throws.
    const again = await keys.roll(fresh.apiKey.id)
    expect((await ctx.store.getApiKey(fresh.apiKey.id))?.expiresAt).toBe(
      new Date(time.now() + 86_400_000).toISOString(),
    )
    expect(again?.apiKey.expiresAt).toBeNull()
    expect(await keys.roll(crypto.randomUUID())).toBeNull()
    await expect(keys.roll(old.apiKey.id)).rejects.toThrow(TypeError)
    await keys.revoke(again!.apiKey.id)
    await expect(keys.roll(again!.apiKey.id)).rejects.toThrow(/revoked/)
  })
}

/** Registers the tests of a key in use (lastUsedAt, the cache) and of create's input checks. */
function keyUseAndCreateInput(ctx: ConformanceContext): void {
  it('writes lastUsedAt at most once a minute per key, never once per request', async () => {
    const { keys, client, time, calls } = setup(ctx, { cacheTtlMs: 0 })
    const { key, apiKey } = await keys.create({ tenantId: ctx.a.tenantId, name: 'k', scopes: ['tickets.read'] })
    const lastUsed = async () => (await ctx.store.getApiKey(apiKey.id))?.lastUsedAt
    expect(await lastUsed()).toBeNull()
    const first = time.now()
    calls.clear()
    for (let i = 0; i < 5; i++) {
      expect((await tickets(client(key))).status).toBe(200)
      time.advance(10_000)
    }
    expect(calls.get('updateApiKey')).toBe(1)
    expect(await lastUsed()).toBe(new Date(first).toISOString())
    time.advance(LAST_USED_INTERVAL_MS - 50_000)
    const second = time.now()
    expect((await tickets(client(key))).status).toBe(200)
    expect(calls.get('updateApiKey')).toBe(2)
    expect(await lastUsed()).toBe(new Date(second).toISOString())
    // A second process that reads a recent lastUsedAt does not write it again within the minute.
    const other = setup(ctx, { cacheTtlMs: 0 })
    other.time.advance(second - other.time.now() + 30_000)
    expect((await tickets(other.client(key))).status).toBe(200)
    expect(other.calls.get('updateApiKey') ?? 0).toBe(0)
  })

  it('serves a busy key from the cache: one store read for 200 requests within cacheTtlMs', async () => {
    const { keys, client, time, calls } = setup(ctx)
    const { key } = await keys.create({ tenantId: ctx.a.tenantId, name: 'busy', scopes: ['tickets.read'] })
    const h = client(key)
    calls.clear()
    const statuses = await Promise.all(Array.from({ length: 100 }, () => tickets(h).then((r) => r.status)))
    for (let i = 0; i < 100; i++) {
      time.advance(40)
      statuses.push((await tickets(h)).status)
    }
    expect(statuses.every((status) => status === 200)).toBe(true)
    expect(reads(calls)).toBe(1)
    expect(calls.get('updateApiKey')).toBe(1)
    time.advance(1_000)
    expect((await tickets(h)).status).toBe(200)
    expect(reads(calls)).toBe(2)
  })

  it('refuses invalid input to create with a TypeError naming the field, not its value', async () => {
    const keys = createApiKeys(ctx.store)
    const base = { tenantId: ctx.a.tenantId, name: 'k', scopes: ['tickets.read'] as const }
    await expect(keys.create({ ...base, scopes: [] })).rejects.toThrow(/scopes/)
    await expect(keys.create({ ...base, scopes: ['tickets.delete' as 'tickets.read'] })).rejects.toThrow(/scopes/)
    await expect(keys.create({ ...base, name: '' })).rejects.toThrow(/name/)
    await expect(keys.create({ ...base, tenantId: '' })).rejects.toThrow(/tenantId/)
    await expect(keys.create({ ...base, expiresAt: new Date(Date.now() - 1) })).rejects.toThrow(/expiresAt/)
    await expect(keys.create({ ...base, expiresAt: 'tomorrow' })).rejects.toThrow(/expiresAt/)
    await expect(keys.create({ ...base, rateLimit: { limit: 0, windowMs: 1 } })).rejects.toThrow(/rateLimit/)
    expect(() => createApiKeys(ctx.store, { prefix: 'tp_a' })).toThrow(TypeError)
    expect(() => createApiKeys(ctx.store, { cacheTtlMs: -1 })).toThrow(TypeError)
    const custom = await createApiKeys(ctx.store, { prefix: 'acme' }).create(base)
    expect(custom.key).toMatch(/^acme_[0-9A-Za-z]{38}$/)
  })
}
