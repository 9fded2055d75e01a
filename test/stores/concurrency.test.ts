/**
 * 50 concurrent PATCHes of one rule, spread over two store instances on one database (two
 * connections racing, not one queue): versions 2..51, every update kept, no error, and one event
 * per update at gap-free positions, each naming the version it replaced (on Postgres most of the
 * racing updates' guarded statements miss and fall back to the locked transaction).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createPublicApi, createMemoryStore, type Store } from 'tenant-public-api'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createHarness, testKey, testKeyResolver, type Reply } from 'tenant-public-api/testing'
import { eventId } from '../../src/model/events.js'
import { createTestPostgresStore, DATABASE_URL } from '../support/postgres.js'
import { automationRules } from '../../src/model/automation-rules.js'

const ruleId = '33333333-3333-4333-8333-333333333333'
const rule = {
  id: ruleId,
  name: 'Hot rule',
  isActive: false,
  priority: 0,
  scopeType: 'tenant' as const,
  companyIds: [],
  triggerType: 'scheduled' as const,
  entityType: 'ticket' as const,
  triggerConfig: {},
  conditions: [],
  actions: [],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  version: 1,
}
const dir = mkdtempSync(join(tmpdir(), 'tenant-api-cc-'))
const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const c of cleanups) await c()
  rmSync(dir, { recursive: true, force: true })
})

async function pair(kind: string): Promise<[Store, Store]> {
  if (kind === 'memory') {
    const store = createMemoryStore()
    return [store, store]
  }
  if (kind === 'sqlite') {
    const filename = join(dir, 'cc.db')
    const a = await createSqliteStore({ filename })
    return [a, await createSqliteStore({ filename }, { migrate: false })]
  }
  const { store, engine, schema } = await createTestPostgresStore()
  cleanups.push(() => store.close())
  if (engine === 'pglite') return [store, store]
  const second = await createPostgresStore({ connectionString: DATABASE_URL, schema: schema! }, { migrate: false })
  cleanups.unshift(() => second.close())
  return [store, second]
}

describe.each(['memory', 'sqlite', 'postgres'])('%s', (kind) => {
  it('50 concurrent PATCHes of one rule give consecutive versions 2..51', { timeout: 60_000 }, async () => {
    const [a, b] = await pair(kind)
    await a.seed('tenant-cc', { automationRules: [rule] })
    const hs = [a, b].map((store) =>
      createHarness(createPublicApi({ store, keyResolver: testKeyResolver() }), { key: testKey('tenant-cc') }),
    )
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        hs[i % 2]!.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ruleId}`, { body: { priority: i } }),
      ),
    )
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200))
    expect(results.map((r) => r.body.data.version).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 2),
    )
    expect((await a.get(automationRules, 'tenant-cc', ruleId))?.version).toBe(51)
    const page = await a.listEvents('tenant-cc', { after: null, order: 'asc', types: null, limit: 100 })
    if (page.state !== 'ok') throw new Error('the feed expired')
    expect(page.events.map((event) => event.id)).toEqual(page.events.map((_, i) => eventId(i + 1)))
    const versions = (value: Record<string, unknown> | null) => value?.version
    expect(
      page.events.map((event) => [event.type, versions(event.data.previous), versions(event.data.object)]),
    ).toEqual([
      ['automation_rule.created', undefined, 1],
      ...Array.from({ length: 50 }, (_, i) => ['automation_rule.updated', i + 1, i + 2]),
    ])
    if (kind === 'sqlite') await Promise.all([a.close(), b.close()])
  })
})
