/**
 * The webhook part of the store port (docs/extensions.md section 4): endpoints, with the secrets
 * that sign their deliveries, and the delivery attempts. Every method is tenant-scoped, like the
 * rest of {@link Store}; the core validates and builds the records.
 */
import type { WebhookDelivery, WebhookEndpointRecord } from '../model/webhook-endpoints.js'

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
 * The webhook methods every store implements.
 *
 * @example
 * const inserted = await store.insertWebhookEndpoint(tenantId, record, MAX_WEBHOOK_ENDPOINTS)
 */
export interface WebhookStore {
  /**
   * Adds the endpoint unless the tenant already has `maxPerTenant` endpoints (then false). The
   * count and the insert are one atomic step, so concurrent creates never exceed the limit. The
   * endpoint's dispatch position starts at the tenant's last event position: it gets later events.
   */
  insertWebhookEndpoint(tenantId: string, record: WebhookEndpointRecord, maxPerTenant: number): Promise<boolean>
  getWebhookEndpoint(tenantId: string, id: string): Promise<WebhookEndpointRecord | null>
  /** Every endpoint of the tenant (at most a few dozen), newest `createdAt` first, ties by id. */
  listWebhookEndpoints(tenantId: string): Promise<WebhookEndpointRecord[]>
  /** Compare-and-set: replaces the endpoint only if its stored `version` is `expectedVersion`. */
  replaceWebhookEndpoint(tenantId: string, record: WebhookEndpointRecord, expectedVersion: number): Promise<boolean>
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
