/**
 * Endpoints stored before webhook endpoints became a collection (issue 31) stay what they were:
 * migration 0004's `webhook_endpoints` already has the generic record layout (tenant_id, id, its
 * columns `created_at` and `version`, doc), so a row written as the endpoint methods of the store
 * port wrote it is read, listed, changed and deleted through the generic paths, with no migration.
 */
import Database from 'better-sqlite3'
import type { SqlStore } from 'tenant-public-api/sqlite'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import type { Reply } from 'tenant-public-api/testing'
import { describe, expect, it } from 'vitest'
import type { WebhookEndpointRecord } from '../../src/model/webhook-endpoints.js'
import { createTestPostgresStore } from '../support/postgres.js'
import { apiClient } from './support.js'

/** A row exactly as the removed `insertWebhookEndpoint` wrote it (its SQL, its JSON). */
function legacyInsert(tenantId: string, record: WebhookEndpointRecord): string {
  const text = (value: string) => `'${value.replaceAll("'", "''")}'`
  return (
    `INSERT INTO "webhook_endpoints" (tenant_id, id, created_at, version, doc) VALUES (` +
    `${text(tenantId)}, ${text(record.id)}, ${text(record.createdAt)}, ${record.version}, ` +
    `${text(JSON.stringify(record))})`
  )
}

async function keepsLegacyEndpoints(store: SqlStore, execute: (text: string) => Promise<void>): Promise<void> {
  const tenantId = `tenant-${crypto.randomUUID()}`
  const record: WebhookEndpointRecord = {
    id: crypto.randomUUID(),
    url: 'https://hooks.example.com/legacy',
    events: ['*'],
    description: 'stored before',
    status: 'enabled',
    disabledReason: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    secrets: [{ secret: 'whsec_bGVnYWN5', expiresAt: null }],
    eventScopes: ['tickets.read'],
    version: 3,
  }
  await execute(legacyInsert(tenantId, record))
  const h = apiClient(store, tenantId)
  const path = `/webhook-endpoints/${record.id}`
  const { secrets: _secrets, eventScopes: _scopes, version: _version, ...shown } = record
  expect((await h.call<Reply<'getWebhookEndpoint'>>('GET', path)).body.data).toEqual(shown)
  expect((await h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints')).body.data).toEqual([shown])
  const patched = await h.call<Reply<'updateWebhookEndpoint'>>('PATCH', path, { body: { description: 'after' } })
  expect(patched.status).toBe(200)
  expect(patched.body.data.description).toBe('after')
  expect((await h.call('DELETE', path)).status).toBe(200)
  expect((await h.call('GET', path)).status).toBe(404)
}

describe('endpoints stored before they were a collection', () => {
  it('on SQLite', async () => {
    const database = new Database(':memory:')
    const store = await createSqliteStore({ database })
    try {
      await keepsLegacyEndpoints(store, async (text) => void database.exec(text))
    } finally {
      await store.close()
    }
  })

  it('on Postgres', async () => {
    const { store, execute } = await createTestPostgresStore()
    try {
      await keepsLegacyEndpoints(store, execute)
    } finally {
      await store.close()
    }
  })
})
