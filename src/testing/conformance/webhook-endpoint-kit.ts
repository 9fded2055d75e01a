/**
 * What the webhook endpoint tests share (webhooks.ts and its siblings): the shapes answers must
 * match, delivery records to store, and a fresh tenant with a key, and a create call, bound to a context.
 */
import type { Scope } from '../../http/auth.js'
import type { WebhookDeliveryRecord } from '../../ports/webhook-store.js'
import type { Harness, Reply } from '../harness.js'
import type { ConformanceContext } from './context.js'

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
export const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/
export const URL_OK = 'https://hooks.example.com/in'
export const DAY_MS = 24 * 60 * 60 * 1000

/** Every key of a response body, at any depth, with every string value. */
export function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(texts)
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, inner]) => [key, ...texts(inner)])
  return []
}

export function delivery(endpointId: string, n: number, createdAt: string): WebhookDeliveryRecord {
  return {
    id: `dlv_${String(n).padStart(3, '0')}`,
    endpointId,
    eventId: `evt_${n}`,
    eventType: 'ticket.created',
    attempt: 1,
    status: n % 2 === 0 ? 'succeeded' : 'failed',
    responseStatus: n % 2 === 0 ? 200 : 500,
    durationMs: 12,
    error: n % 2 === 0 ? null : 'hooks.example.com: status 500',
    createdAt,
    nextAttemptAt: null,
  }
}

/**
 * A fresh tenant with a key of the given scopes, and a create call with a valid body to override, bound to `ctx`.
 *
 * @example
 * const { tenant, create } = endpointKit(ctx)
 * const { h } = await tenant()
 * const created = await create(h, { description: "CRM sync" })
 */
export function endpointKit(ctx: ConformanceContext) {
  const tenant = async (scopes: readonly Scope[] | '*' = '*') => {
    const { tenantId } = await ctx.fresh({})
    return { tenantId, h: ctx.client(tenantId, scopes) }
  }
  const create = (h: Harness, body: Record<string, unknown> = {}) =>
    h.call<Reply<'createWebhookEndpoint'>>('POST', '/webhook-endpoints', {
      body: { url: URL_OK, events: ['ticket.created'], ...body },
    })
  return { tenant, create }
}
