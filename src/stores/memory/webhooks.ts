/**
 * Webhook endpoints and delivery attempts in memory. Records are copied and frozen when written,
 * like every record of the memory store, so a caller's later mutation cannot reach them.
 */
import { deepFreeze } from '../../model/frozen-records.js'
import { compareCodePoints } from '../../model/ordering.js'
import type { WebhookEndpointRecord } from '../../model/webhook-endpoints.js'
import type { WebhookDispatchPort } from '../../ports/webhook-dispatch.js'
import type { WebhookDeliveryRecord, WebhookStore } from '../../ports/webhook-store.js'
import { memoryWebhookDispatch } from './webhook-dispatch.js'

interface TenantWebhooks {
  endpoints: Map<string, WebhookEndpointRecord>
  deliveries: Map<string, WebhookDeliveryRecord>
}

/**
 * The memory store's webhook and dispatch methods, and `clear` for its `close()`;
 * `lastEventPosition` reads the tenant's feed (a new endpoint starts there).
 *
 * @example
 * const store = { ...memoryWebhookMethods((tenantId) => 0).methods, ... }
 */
export function memoryWebhookMethods(lastEventPosition: (tenantId: string) => number): {
  methods: WebhookStore & WebhookDispatchPort
  clear: () => void
} {
  const tenants = new Map<string, TenantWebhooks>()
  const dispatch = memoryWebhookDispatch(lastEventPosition, (tenantId, delivery) =>
    of(tenantId).deliveries.set(delivery.id, frozen(delivery)),
  )
  const of = (tenantId: string): TenantWebhooks => {
    let found = tenants.get(tenantId)
    if (found === undefined) {
      found = { endpoints: new Map(), deliveries: new Map() }
      tenants.set(tenantId, found)
    }
    return found
  }
  const frozen = <T>(value: T): T => deepFreeze(structuredClone(value))
  const newestFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
    compareCodePoints(b.createdAt, a.createdAt) || compareCodePoints(a.id, b.id)

  const methods: WebhookStore & WebhookDispatchPort = {
    ...dispatch.methods,
    async insertWebhookEndpoint(tenantId, record, maxPerTenant) {
      const { endpoints } = of(tenantId)
      if (endpoints.size >= maxPerTenant) return false
      endpoints.set(record.id, frozen(record))
      dispatch.addEndpoint(tenantId, record.id)
      return true
    },
    async getWebhookEndpoint(tenantId, id) {
      return tenants.get(tenantId)?.endpoints.get(id) ?? null
    },
    async listWebhookEndpoints(tenantId) {
      return [...(tenants.get(tenantId)?.endpoints.values() ?? [])].sort(newestFirst)
    },
    async replaceWebhookEndpoint(tenantId, record, expectedVersion) {
      const endpoints = tenants.get(tenantId)?.endpoints
      if (endpoints?.get(record.id)?.version !== expectedVersion) return false
      endpoints.set(record.id, frozen(record))
      return true
    },
    async deleteWebhookEndpoint(tenantId, id) {
      const found = tenants.get(tenantId)
      if (found === undefined || !found.endpoints.delete(id)) return false
      dispatch.removeEndpoint(tenantId, id)
      for (const [key, delivery] of found.deliveries) if (delivery.endpointId === id) found.deliveries.delete(key)
      return true
    },
    async saveWebhookDelivery(tenantId, delivery) {
      of(tenantId).deliveries.set(delivery.id, frozen(delivery))
    },
    async listWebhookDeliveries(tenantId, endpointId, limit) {
      const all = [...(tenants.get(tenantId)?.deliveries.values() ?? [])].filter((d) => d.endpointId === endpointId)
      return all
        .sort((a, b) => compareCodePoints(b.createdAt, a.createdAt) || compareCodePoints(b.id, a.id))
        .slice(0, limit)
    },
  }
  return {
    methods,
    clear: () => {
      tenants.clear()
      dispatch.clear()
    },
  }
}
