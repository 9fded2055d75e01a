/**
 * The webhook part of the store port (docs/extensions.md section 4): what deleting an endpoint
 * takes with it, and the delivery attempts. Every method is tenant-scoped, like the
 * rest of {@link Store}; the core validates and builds the records.
 */
import type { WebhookDelivery } from '../model/webhook-endpoints.js'

/**
 * What a store keeps of one delivery attempt: the attempt and the endpoint it went to.
 *
 * @example
 * await store.saveWebhookDelivery(tenantId, { ...attempt, endpointId })
 */
export interface WebhookDeliveryRecord extends WebhookDelivery {
  endpointId: string
}

/**
 * The webhook methods every store implements. Endpoints themselves are a collection
 * (`webhookEndpoints`, src/model/webhook-endpoint-collection.ts), read and written through the
 * record methods of the port: `get`, `list`, and `replaceVersioned`, which also inserts one (within
 * the definition's `maxPerTenant`), its dispatch position starting at the tenant's last event
 * position in the same atomic step, so that it gets later events (src/ports/webhook-dispatch.ts).
 * What stays here is what no other collection has: a deletion that takes the endpoint's delivery
 * attempts, dispatch row and pending jobs with it, and the attempts themselves.
 *
 * @example
 * const deleted = await store.deleteWebhookEndpoint(tenantId, id)
 */
export interface WebhookStore {
  /**
   * Deletes the endpoint, its delivery attempts, its dispatch row and its pending jobs; false when
   * there was no such endpoint.
   */
  deleteWebhookEndpoint(tenantId: string, id: string): Promise<boolean>
  /** Adds a delivery attempt, or replaces the one with its id (an attempt's outcome arrives later). */
  saveWebhookDelivery(tenantId: string, delivery: WebhookDeliveryRecord): Promise<void>
  /** The endpoint's newest `limit` attempts: newest `createdAt` first, ties by id descending. */
  listWebhookDeliveries(tenantId: string, endpointId: string, limit: number): Promise<WebhookDeliveryRecord[]>
}
