/**
 * Webhook endpoints are a collection (src/model/webhook-endpoint-collection.ts) that hosts never seed
 * and the feed never reports: being in `COLLECTIONS` grows none of the seed keys, removal keys, seed
 * schemas or event types, and a store's `seed` and `remove` refuse the key. A maximum per tenant is
 * a versioned collection's only.
 */
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { createMemoryStore } from 'tenant-public-api'
import { EVENT_RESOURCE_TYPES, EVENT_TYPES } from '../../src/model/events.js'
import {
  COLLECTIONS,
  column,
  defineCollection,
  KEYED_COLLECTIONS,
  SEEDED_COLLECTIONS,
  webhookEndpoints,
} from '../../src/model/index.js'
import { normalizeRemoval, SEED_KEYS } from '../../src/model/removal.js'
import { SEED_COMPUTED, SEED_PARTS, seedSchemas } from '../../src/model/seed.js'
import { MAX_WEBHOOK_ENDPOINTS } from '../../src/model/webhook-endpoints.js'

describe('webhookEndpoints', () => {
  it('is a keyed, versioned collection of COLLECTIONS with the maximum of 20, newest first', () => {
    expect(COLLECTIONS).toContain(webhookEndpoints)
    expect(KEYED_COLLECTIONS).toContain(webhookEndpoints)
    expect(webhookEndpoints.maxPerTenant).toBe(MAX_WEBHOOK_ENDPOINTS)
    expect(webhookEndpoints.columns.map((c) => [c.name, c.type])).toEqual([
      ['created_at', 'text'],
      ['version', 'bigint'],
    ])
    expect(webhookEndpoints.order).toEqual([{ column: 'created_at', descending: true }])
  })

  it('adds no seed key, removal key, seed schema or event type', () => {
    expect(SEEDED_COLLECTIONS).not.toContain(webhookEndpoints)
    expect(SEED_KEYS).toEqual(SEEDED_COLLECTIONS.map((c) => c.name))
    expect(SEED_KEYS as readonly string[]).not.toContain('webhookEndpoints')
    expect(Object.keys(seedSchemas)).not.toContain('webhookEndpoints')
    expect(Object.keys(SEED_COMPUTED)).not.toContain('webhookEndpoints')
    expect(Object.keys(SEED_PARTS)).not.toContain('webhookEndpoints')
    expect(EVENT_RESOURCE_TYPES.some((type) => type.startsWith('webhook'))).toBe(false)
    expect(EVENT_TYPES.some((type) => type.startsWith('webhook'))).toBe(false)
    expect(() => normalizeRemoval({ webhookEndpoints: ['x'] } as never)).toThrow(TypeError)
  })

  it("is out of a store's seed and remove: both refuse the key", async () => {
    const store = createMemoryStore()
    await expect(store.seed('t', { webhookEndpoints: [] } as never)).rejects.toThrow(TypeError)
    await expect(store.remove('t', { webhookEndpoints: ['x'] } as never)).rejects.toThrow(TypeError)
    await store.close()
  })

  it('a maximum per tenant needs a version column, and is a positive integer', () => {
    const define = (maxPerTenant: number, versioned: boolean) =>
      defineCollection<{ id: string; version: number }>()({
        name: 'limited',
        table: 'limited',
        event: null,
        seed: v.object({ id: v.string() }),
        maxPerTenant,
        columns: versioned ? [column('version', 'integer', { field: 'version' })] : [],
      })
    expect(define(5, true).maxPerTenant).toBe(5)
    expect(() => define(5, false)).toThrow('no column version')
    expect(() => define(0, true)).toThrow('maxPerTenant must be a positive integer')
    expect(() => define(1.5, true)).toThrow('maxPerTenant must be a positive integer')
  })
})
