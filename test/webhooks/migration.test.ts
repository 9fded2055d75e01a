/**
 * Migration 0005 on a database that already has webhook endpoints: each gets a dispatch row at its
 * tenant's last event position, so it receives only events written after the upgrade. Simulated by
 * removing what 0005 made (its rows, and its record and the later ones' in the migrations table: the
 * migrator refuses a gap) and migrating again.
 */
import Database from 'better-sqlite3'
import type { SqlStore } from 'tenant-public-api/sqlite'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { describe, expect, it } from 'vitest'
import type { Reply } from 'tenant-public-api/testing'
import { createTestPostgresStore } from '../support/postgres.js'
import { apiClient, company } from './support.js'

const UNDO_0005 = [
  'DELETE FROM "webhook_dispatch"',
  `DELETE FROM "tenant_api_migrations" WHERE name >= '0005_webhook_dispatch'`,
]

async function backfills(store: SqlStore, execute: (text: string) => Promise<void>): Promise<void> {
  const tenantId = `tenant-${crypto.randomUUID()}`
  await store.seed(tenantId, { companies: [company(1), company(2)] })
  const h = apiClient(store, tenantId)
  const created = await h.call<Reply<'createWebhookEndpoint'>>('POST', '/webhook-endpoints', {
    body: { url: 'https://hooks.example.com/in', events: ['*'] },
  })
  expect(created.status).toBe(201)
  const quiet = `tenant-${crypto.randomUUID()}` // an endpoint of a tenant without events starts at 0
  const other = await apiClient(store, quiet).call<Reply<'createWebhookEndpoint'>>('POST', '/webhook-endpoints', {
    body: { url: 'https://hooks.example.com/in', events: ['*'] },
  })
  for (const statement of UNDO_0005) await execute(statement)
  const now = new Date()
  expect(await store.claimWebhookFanOuts('t', now, 1_000, 100)).toEqual([])
  await store.migrate()
  expect(await store.claimWebhookFanOuts('t', now, 1_000, 100), 'caught up at the upgrade').toEqual([])
  await store.seed(tenantId, { companies: [company(3)] })
  await store.seed(quiet, { companies: [company(1)] })
  const claims = await store.claimWebhookFanOuts('t', now, 1_000, 100)
  expect(claims.sort((a, b) => a.position - b.position)).toEqual([
    { tenantId: quiet, endpointId: other.body.data.id, position: 0 },
    { tenantId, endpointId: created.body.data.id, position: 2 },
  ])
}

describe('migration 0005 backfills dispatch rows for existing endpoints', () => {
  it('on SQLite', async () => {
    const database = new Database(':memory:')
    const store = await createSqliteStore({ database })
    try {
      await backfills(store, async (text) => void database.exec(text))
    } finally {
      await store.close()
    }
  })

  it('on Postgres', async () => {
    const { store, execute } = await createTestPostgresStore()
    try {
      await backfills(store, execute)
    } finally {
      await store.close()
    }
  })
})
