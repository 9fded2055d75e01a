/**
 * The webhook part of the memory store: what deleting an endpoint takes with it, the start of a new
 * endpoint's dispatch, and delivery attempts. The endpoints are records of the tenant like any other
 * collection's (`webhookEndpoints`, read and written by records.ts). Attempts are copied and frozen
 * when written, like every record of the memory store, so a caller's later mutation cannot reach them.
 */
import { deepFreeze } from '../../model/frozen-records.js'
import { compareCodePoints } from '../../model/ordering.js'
import { webhookEndpoints } from '../../model/webhook-endpoint-collection.js'
import type { WebhookDispatchPort } from '../../ports/webhook-dispatch.js'
import type { WebhookDeliveryRecord, WebhookStore } from '../../ports/webhook-store.js'
import type { InsertCompanions } from './records.js'
import type { TenantData } from './tenant.js'
import { memoryWebhookDispatch } from './webhook-dispatch.js'

/**
 * The memory store's webhook and dispatch methods, and `clear` for its `close()`; `lastEventPosition`
 * reads the tenant's feed (a new endpoint starts there), `tenants` the endpoints (kept with the
 * tenant's other records: `webhookEndpoints`). `companions` starts a new endpoint's dispatch, in the
 * step of its insert (`replaceVersioned`).
 *
 * @example
 * const webhooks = memoryWebhookMethods((tenantId) => 0, tenants)
 * const store = { ...webhooks.methods, ...memoryRecords(tenants, tenant, ms, webhooks.companions), ... }
 */
export function memoryWebhookMethods(
  lastEventPosition: (tenantId: string) => number,
  tenants: ReadonlyMap<string, TenantData>,
): {
  methods: WebhookStore & WebhookDispatchPort
  companions: InsertCompanions
  clear: () => void
} {
  /** Delivery attempts by tenant, then id. */
  const deliveries = new Map<string, Map<string, WebhookDeliveryRecord>>()
  const dispatch = memoryWebhookDispatch(lastEventPosition, (tenantId, delivery) =>
    of(tenantId).set(delivery.id, frozen(delivery)),
  )
  const of = (tenantId: string): Map<string, WebhookDeliveryRecord> => {
    let found = deliveries.get(tenantId)
    if (found === undefined) deliveries.set(tenantId, (found = new Map()))
    return found
  }
  const frozen = <T>(value: T): T => deepFreeze(structuredClone(value))

  const methods: WebhookStore & WebhookDispatchPort = {
    ...dispatch.methods,
    async deleteWebhookEndpoint(tenantId, id) {
      if (!(tenants.get(tenantId)?.collection(webhookEndpoints).delete(id) ?? false)) return false
      dispatch.removeEndpoint(tenantId, id)
      const found = deliveries.get(tenantId)
      for (const [key, delivery] of found ?? []) if (delivery.endpointId === id) found!.delete(key)
      return true
    },
    async saveWebhookDelivery(tenantId, delivery) {
      of(tenantId).set(delivery.id, frozen(delivery))
    },
    async listWebhookDeliveries(tenantId, endpointId, limit) {
      const all = [...(deliveries.get(tenantId)?.values() ?? [])].filter((d) => d.endpointId === endpointId)
      return all
        .sort((a, b) => compareCodePoints(b.createdAt, a.createdAt) || compareCodePoints(b.id, a.id))
        .slice(0, limit)
    },
  }
  return {
    methods,
    companions: { [webhookEndpoints.name]: (tenantId, id) => dispatch.addEndpoint(tenantId, id) },
    clear: () => {
      deliveries.clear()
      dispatch.clear()
    },
  }
}
