/**
 * Two OS processes on one database: PATCHes of one rule lose no update and get no error, and a
 * shared `sqlRateLimiter` allows exactly `limit` requests between them.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { createSqliteStore, type SqlStore } from 'tenant-public-api/sqlite'
import { DATABASE_URL, dropSchemas, freshSchema, NO_SERVER, postgresServerAnswers } from '../support/postgres.js'
import { runWorker } from './support.js'
import { automationRules } from '../../src/model/automation-rules.js'

const ruleId = '11111111-1111-4111-8111-111111111111'
const rule = {
  id: ruleId,
  name: 'Shared rule',
  isActive: true,
  priority: 1,
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

const dir = mkdtempSync(join(tmpdir(), 'tenant-api-sqlite-'))
const schemas: string[] = []
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  if (schemas.length > 0 && (await postgresServerAnswers())) {
    await dropSchemas(schemas)
  }
})

async function versionOf(store: SqlStore): Promise<number | undefined> {
  return (await store.get(automationRules, 'tenant-mp', ruleId))?.version
}

describe('two processes on one SQLite file', () => {
  const filename = join(dir, 'shared.db')

  it('lose no PATCH and return no error', { timeout: 60_000 }, async () => {
    const store = await createSqliteStore({ filename })
    await store.seed('tenant-mp', { automationRules: [rule] })
    const args = { target: { sqlite: filename }, job: 'patch-rule', tenantId: 'tenant-mp', ruleId, count: 25 }
    const [a, b] = await Promise.all([runWorker(args), runWorker(args)])
    expect([...a, ...b]).toEqual(Array(50).fill(200))
    expect(await versionOf(store)).toBe(51)
    await store.close()
  })

  it('share one rate limit: exactly `limit` requests pass', { timeout: 60_000 }, async () => {
    const args = {
      target: { sqlite: filename },
      job: 'rate-limited',
      tenantId: `tenant-rl-${Date.now()}`,
      count: 10,
      limit: 7,
    }
    const [a, b] = await Promise.all([runWorker(args), runWorker(args)])
    const all = [...a, ...b]
    expect(all.filter((s) => s === 200)).toHaveLength(7)
    expect(all.filter((s) => s === 429)).toHaveLength(13)
  })
})

describe('two processes on one Postgres database (needs the server at DATABASE_URL)', async () => {
  const server = await postgresServerAnswers()

  it('a Postgres server answers at DATABASE_URL (PGlite cannot be shared between processes)', () => {
    expect(server, NO_SERVER).toBe(true)
  })

  it('lose no PATCH and return no error', { timeout: 60_000 }, async () => {
    const schema = freshSchema('mp')
    schemas.push(schema)
    const store = await createPostgresStore({ connectionString: DATABASE_URL, schema })
    await store.seed('tenant-mp', { automationRules: [rule] })
    const args = {
      target: { postgres: DATABASE_URL, schema },
      job: 'patch-rule',
      tenantId: 'tenant-mp',
      ruleId,
      count: 25,
    }
    const [a, b] = await Promise.all([runWorker(args), runWorker(args)])
    expect([...a, ...b]).toEqual(Array(50).fill(200))
    expect(await versionOf(store)).toBe(51)
    await store.close()
  })

  it('two handler instances share one sqlRateLimiter: exactly `limit` requests pass', { timeout: 60_000 }, async () => {
    const schema = freshSchema('rl')
    schemas.push(schema)
    const store = await createPostgresStore({ connectionString: DATABASE_URL, schema })
    const args = {
      target: { postgres: DATABASE_URL, schema },
      job: 'rate-limited',
      tenantId: 'tenant-rl',
      count: 12,
      limit: 9,
    }
    const [a, b] = await Promise.all([runWorker(args), runWorker(args)])
    const all = [...a, ...b]
    expect(all.filter((s) => s === 200)).toHaveLength(9)
    expect(all.filter((s) => s === 429)).toHaveLength(15)
    await store.close()
  })
})
