/**
 * Webhook endpoints and delivery attempts on SQL (tables of migration 0004; an endpoint's dispatch
 * row and jobs, of 0005, are made and removed with it). Endpoints are few per
 * tenant (at most 20), so they are read whole; the limit is held by locking the tenant's row in
 * `webhook_tenants` before counting (SQLite's `BEGIN IMMEDIATE` already serialises writers).
 */
import { sql } from 'kysely'
import type { WebhookEndpointRecord } from '../../model/webhook-endpoints.js'
import type { WebhookDeliveryRecord, WebhookStore } from '../../ports/webhook-store.js'
import { json, ofTenant, parse, type SqlContext } from './context.js'

/**
 * The store's webhook methods over `ctx`.
 *
 * @example
 * const store = { ...webhookMethods(ctx), ... }
 */
export function webhookMethods(ctx: SqlContext): WebhookStore {
  const { db, writes, table: t, rows, one } = ctx
  return {
    async insertWebhookEndpoint(tenantId, record, maxPerTenant) {
      return writes.transaction(db, async (trx) => {
        await sql`INSERT INTO ${t('webhook_tenants')} (tenant_id) VALUES (${tenantId})
                  ON CONFLICT (tenant_id) DO UPDATE SET tenant_id = excluded.tenant_id`.execute(trx)
        const counted = await one<{ n: number | string }>(
          sql`SELECT count(*) AS n FROM ${t('webhook_endpoints')} WHERE ${ofTenant(tenantId)}`,
          trx,
        )
        if (Number(counted?.n ?? 0) >= maxPerTenant) return false
        await sql`INSERT INTO ${t('webhook_endpoints')} (tenant_id, id, created_at, version, doc)
                  VALUES (${tenantId}, ${record.id}, ${record.createdAt}, ${record.version}, ${json(record)})`.execute(
          trx,
        )
        // Its deliveries start after the tenant's last event now (docs/webhooks.md).
        await sql`INSERT INTO ${t('webhook_dispatch')} (tenant_id, endpoint_id, position)
                  SELECT ${tenantId}, ${record.id},
                         COALESCE((SELECT position FROM ${t('event_positions')} WHERE ${ofTenant(tenantId)}), 0)
                  WHERE true ON CONFLICT (tenant_id, endpoint_id) DO NOTHING`.execute(trx)
        return true
      })
    },

    async getWebhookEndpoint(tenantId, id) {
      const row = await one<{ doc: string }>(
        sql`SELECT doc FROM ${t('webhook_endpoints')} WHERE ${ofTenant(tenantId)} AND id = ${id}`,
      )
      return row === undefined ? null : parse<WebhookEndpointRecord>(row.doc)
    },

    async listWebhookEndpoints(tenantId) {
      const found = await rows<{ doc: string }>(
        sql`SELECT doc FROM ${t('webhook_endpoints')} WHERE ${ofTenant(tenantId)} ORDER BY created_at DESC, id`,
      )
      return found.map((row) => parse<WebhookEndpointRecord>(row.doc))
    },

    async replaceWebhookEndpoint(tenantId, record, expectedVersion) {
      const done = await rows(
        sql`UPDATE ${t('webhook_endpoints')} SET version = ${record.version}, doc = ${json(record)}
            WHERE ${ofTenant(tenantId)} AND id = ${record.id} AND version = ${expectedVersion} RETURNING id`,
      )
      return done.length > 0
    },

    async deleteWebhookEndpoint(tenantId, id) {
      return writes.transaction(db, async (trx) => {
        const gone = await rows(
          sql`DELETE FROM ${t('webhook_endpoints')} WHERE ${ofTenant(tenantId)} AND id = ${id} RETURNING id`,
          trx,
        )
        // Jobs before the dispatch row, the order a batch finish locks them in (else the two deadlock on
        // Postgres), and the attempts last: a finish this waited for has recorded its own by then.
        for (const table of ['webhook_jobs', 'webhook_dispatch', 'webhook_deliveries'])
          await sql`DELETE FROM ${t(table)} WHERE ${ofTenant(tenantId)} AND endpoint_id = ${id}`.execute(trx)
        return gone.length > 0
      })
    },

    async saveWebhookDelivery(tenantId, delivery) {
      await sql`INSERT INTO ${t('webhook_deliveries')} (tenant_id, id, endpoint_id, created_at, doc)
                VALUES (${tenantId}, ${delivery.id}, ${delivery.endpointId}, ${delivery.createdAt}, ${json(delivery)})
                ON CONFLICT (tenant_id, id) DO UPDATE
                SET endpoint_id = excluded.endpoint_id, created_at = excluded.created_at, doc = excluded.doc`.execute(
        db,
      )
    },

    async listWebhookDeliveries(tenantId, endpointId, limit) {
      const found = await rows<{ doc: string }>(
        sql`SELECT doc FROM ${t('webhook_deliveries')} WHERE ${ofTenant(tenantId)} AND endpoint_id = ${endpointId}
            ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
      )
      return found.map((row) => parse<WebhookDeliveryRecord>(row.doc))
    },
  }
}
