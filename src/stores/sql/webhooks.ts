/**
 * The webhook part of the SQL store (tables of migration 0004; an endpoint's dispatch row and jobs,
 * of 0005). The endpoints are a collection (`webhookEndpoints`, in `webhook_endpoints`), read and
 * written by the generic record paths; what is particular to them is here: the start of a new
 * endpoint's dispatch and the lock that holds the tenant's maximum (its insert companion), what
 * deleting one takes with it, and the delivery attempts.
 */
import { sql } from 'kysely'
import { webhookEndpoints } from '../../model/webhook-endpoint-collection.js'
import type { WebhookDeliveryRecord, WebhookStore } from '../../ports/webhook-store.js'
import { insertOfTenant, json, ofTenant, parse, type SqlContext, tenantColumn } from './context.js'
import type { InsertCompanions } from './versioned.js'

/**
 * What the insert of a webhook endpoint does in its transaction (`replaceVersioned`, versioned.ts):
 * first it locks the tenant's row in `webhook_tenants`, so that concurrent creates on Postgres count
 * the tenant's endpoints one after another (the maximum holds); after the insert, the endpoint's
 * dispatch row starts at the tenant's last event position, so it gets later events (docs/webhooks.md).
 *
 * @example
 * const store = { ...sqlRecords(ctx, pages, events, webhookEndpointCompanions(ctx)), ... }
 */
export function webhookEndpointCompanions(ctx: SqlContext): InsertCompanions {
  const { table: t } = ctx
  return {
    [webhookEndpoints.name]: {
      async lock(ex, tenantId) {
        // An upsert that rewrites the row's tenant with itself: it takes the row's lock (or makes the row).
        const tenant = tenantColumn()
        await insertOfTenant(t('webhook_tenants'), [], sql`VALUES (${tenantId})`, {
          key: [],
          set: sql`${tenant} = excluded.${tenant}`,
        }).execute(ex)
      },
      async inserted(ex, tenantId, id) {
        const last = sql`COALESCE((SELECT position FROM ${t('event_positions')} WHERE ${ofTenant(tenantId)}), 0)`
        await insertOfTenant(
          t('webhook_dispatch'),
          ['endpoint_id', 'position'],
          sql`SELECT ${tenantId}, ${id}, ${last}`,
          {
            key: ['endpoint_id'],
            set: null,
          },
        ).execute(ex)
      },
    },
  }
}

/**
 * The store's webhook methods over `ctx`.
 *
 * @example
 * const store = { ...webhookMethods(ctx), ... }
 */
export function webhookMethods(ctx: SqlContext): WebhookStore {
  const { db, writes, table: t, rows } = ctx
  return {
    async deleteWebhookEndpoint(tenantId, id) {
      return writes.transaction(db, async (trx) => {
        const gone = await rows(
          sql`DELETE FROM ${t(webhookEndpoints.table)} WHERE ${ofTenant(tenantId)} AND id = ${id} RETURNING id`,
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
      const { id, endpointId, createdAt } = delivery
      const values = sql`VALUES (${tenantId}, ${id}, ${endpointId}, ${createdAt}, ${json(delivery)})`
      await insertOfTenant(t('webhook_deliveries'), ['id', 'endpoint_id', 'created_at', 'doc'], values, {
        key: ['id'],
        set: sql`endpoint_id = excluded.endpoint_id, created_at = excluded.created_at, doc = excluded.doc`,
      }).execute(db)
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
