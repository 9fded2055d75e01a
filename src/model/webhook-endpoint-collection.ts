/**
 * Webhook endpoints as a collection (docs/webhooks.md): read and written through the generic record
 * paths of the store port like every other collection (`get`, `list` in its order, `replaceVersioned`
 * to create and update), in the table of migration 0004. What sets them apart is declared here:
 * only the API writes them (`seed: null`: no seed key, no removal key), they have no events in the
 * feed (`event: null`), and a tenant has at most {@link MAX_WEBHOOK_ENDPOINTS} (`maxPerTenant`). A
 * record keeps its signing secrets, so the operations show it through `publicEndpoint`. Apart from
 * the endpoint schemas (webhook-endpoints.ts), which import the events feed's types: the model's
 * index imports this file, and the feed's types are derived from that index.
 */
import { column, defineCollection } from './collection.js'
import type { WebhookEndpointRecord } from './webhook-endpoints.js'

/**
 * At most this many endpoints per tenant.
 *
 * @example
 * if (endpoints.length >= MAX_WEBHOOK_ENDPOINTS) refuse()
 */
export const MAX_WEBHOOK_ENDPOINTS = 20

/**
 * The webhook endpoints of each tenant, newest first (ties by id), replaced by compare-and-set on
 * `version`. The dispatch row an endpoint starts with and what its deletion takes with it are the
 * webhook part's (src/ports/webhook-store.ts).
 *
 * @example
 * const endpoint = await store.get(webhookEndpoints, tenantId, id) // WebhookEndpointRecord | null
 * const created = await store.replaceVersioned(webhookEndpoints, tenantId, record, null) // false: 20 already
 */
export const webhookEndpoints = defineCollection<WebhookEndpointRecord>()({
  name: 'webhookEndpoints',
  table: 'webhook_endpoints',
  event: null,
  seed: null,
  maxPerTenant: MAX_WEBHOOK_ENDPOINTS,
  columns: [
    column<WebhookEndpointRecord>('created_at', 'text', { field: 'createdAt' }),
    column<WebhookEndpointRecord>('version', 'bigint', { field: 'version' }),
  ],
  list: { order: [{ column: 'created_at', descending: true }] },
})
