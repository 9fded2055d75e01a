/**
 * Webhook endpoints, self-service like Stripe's (docs/extensions.md section 4). A secret is shown
 * only by create and rotate-secret; every other answer leaves it out.
 */
import * as v from 'valibot'
import { ApiError, validationError } from '../http/errors.js'
import { defineOperation, type OperationContext } from '../http/operation.js'
import { missingReadScopes, mayReadEventType } from '../model/events.js'
import { dataEnvelope, listEnvelope, MessageSchema } from '../model/shared.js'
import { updateVersioned } from '../model/versioning.js'
import {
  CreateWebhookEndpointSchema,
  MAX_WEBHOOK_ENDPOINTS,
  newWebhookSecret,
  publicEndpoint,
  SECRET_ROTATION_OVERLAP_MS,
  UpdateWebhookEndpointSchema,
  WebhookDeliveryListQuerySchema,
  WebhookDeliverySchema,
  WebhookEndpointListQuerySchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  type WebhookEndpointRecord,
} from '../model/webhook-endpoints.js'
import { webhookUrlProblem } from '../model/webhook-urls.js'
import { column, type OrderTerm } from '../model/collection.js'
import { compareKeysets, keysetOf } from '../model/keyset.js'
import { orderBy } from '../model/ordering.js'
import { listPage } from './list-pages.js'
import { found, notFound, ok, UuidIdParams } from './results.js'

type AnyContext = OperationContext<unknown, unknown, unknown>

const AREA = 'Webhooks'
const WHAT = 'Webhook endpoint'

/** 400 on `url` when it is not a safe webhook URL (see `webhookUrlProblem`). */
function checkUrl(context: AnyContext, url: string): void {
  const problem = webhookUrlProblem(url, context.webhooks.allowInsecureUrls)
  if (problem !== null) throw validationError([{ in: 'body', path: 'url', message: problem }])
}

/**
 * 403 unless the key may read every type it names. `["*"]` names none: it means the types this key
 * may read, whichever they are (none, for a key with webhook scopes only), so it is always allowed.
 */
function checkEvents(context: AnyContext, events: readonly string[]): void {
  if (events[0] === '*') return
  const unreadable = events.filter((type) => !mayReadEventType(context.principal.scopes, type))
  if (unreadable.length === 0) return
  const requiredScopes = missingReadScopes(context.principal.scopes, unreadable)
  throw new ApiError(
    'INSUFFICIENT_SCOPE',
    `This key may not subscribe to ${unreadable.slice(0, 5).join(', ')}${unreadable.length > 5 ? ', …' : ''}`,
    { requiredScopes },
  )
}

export const createWebhookEndpoint = defineOperation({
  id: 'createWebhookEndpoint',
  method: 'POST',
  path: '/webhook-endpoints',
  area: AREA,
  summary: 'Create a webhook endpoint',
  description:
    'Subscribes an `https` URL to event types (1..50, or `["*"]` for every type this key may read; ' +
    'a type the key may not read is a 403). Answers with the signing `secret`, shown only here and by ' +
    'rotate-secret. At most 20 endpoints per tenant.',
  scope: 'webhooks.write',
  body: CreateWebhookEndpointSchema,
  response: dataEnvelope(WebhookEndpointWithSecretSchema),
  successStatus: 201,
  responseHeaders: { Location: 'The new endpoint.' },
  errors: [],
  handle: async (context) => {
    const { store, tenantId, body, now, basePath, principal } = context
    checkUrl(context, body.url)
    checkEvents(context, body.events)
    const timestamp = now.toISOString()
    const secret = newWebhookSecret()
    const record: WebhookEndpointRecord = {
      id: crypto.randomUUID(),
      url: body.url,
      events: body.events,
      description: body.description ?? null,
      status: 'enabled',
      disabledReason: null,
      createdAt: timestamp,
      updatedAt: timestamp,
      secrets: [{ secret, expiresAt: null }],
      eventScopes: [...principal.scopes],
      version: 1,
    }
    if (!(await store.insertWebhookEndpoint(tenantId, record, MAX_WEBHOOK_ENDPOINTS))) {
      throw validationError([
        { in: 'body', path: '', message: `A tenant may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints` },
      ])
    }
    return {
      status: 201,
      body: { data: { ...publicEndpoint(record), secret } },
      headers: { location: `${basePath}/webhook-endpoints/${record.id}` },
    }
  },
})

/** Endpoints list newest first (ties by id), by page or by cursor like every other list. */
const ENDPOINT_ORDER: readonly OrderTerm[] = [{ column: 'created_at', descending: true }]
const ENDPOINT_ORDER_SPEC = {
  name: 'webhookEndpoints',
  columns: [column<{ createdAt: string }>('created_at', 'text', { field: 'createdAt' })],
}

export const listWebhookEndpoints = defineOperation({
  id: 'listWebhookEndpoints',
  method: 'GET',
  path: '/webhook-endpoints',
  area: AREA,
  summary: 'List webhook endpoints',
  description: 'Newest first. Secrets are never listed.',
  scope: 'webhooks.read',
  query: WebhookEndpointListQuerySchema,
  response: listEnvelope(WebhookEndpointSchema),
  successStatus: 200,
  errors: [],
  handle: ({ store, tenantId, query, url }) =>
    listPage(url, query, {
      operationId: 'listWebhookEndpoints',
      spec: ENDPOINT_ORDER_SPEC,
      terms: () => ENDPOINT_ORDER,
      // At most MAX_WEBHOOK_ENDPOINTS per tenant: pages and cursors are cut here rather than in each store.
      list: async (q) => {
        const all = (await store.listWebhookEndpoints(tenantId)).map(publicEndpoint)
        all.sort(orderBy((endpoint) => endpoint.createdAt, true))
        const after = q.after
        const start =
          after === undefined
            ? (q.page - 1) * q.limit
            : all.filter(
                (endpoint) =>
                  compareKeysets(ENDPOINT_ORDER, keysetOf(ENDPOINT_ORDER_SPEC, ENDPOINT_ORDER, endpoint), after) <= 0,
              ).length
        return { items: all.slice(start, start + q.limit), totalCount: all.length }
      },
    }),
})

export const getWebhookEndpoint = defineOperation({
  id: 'getWebhookEndpoint',
  method: 'GET',
  path: '/webhook-endpoints/:id',
  area: AREA,
  summary: 'Get a webhook endpoint',
  scope: 'webhooks.read',
  params: UuidIdParams,
  response: dataEnvelope(WebhookEndpointSchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async ({ store, tenantId, params }) =>
    ok(publicEndpoint(await found(store.getWebhookEndpoint(tenantId, params.id), WHAT))),
})

export const updateWebhookEndpoint = defineOperation({
  id: 'updateWebhookEndpoint',
  method: 'PATCH',
  path: '/webhook-endpoints/:id',
  area: AREA,
  summary: 'Update a webhook endpoint',
  description:
    'Only the supplied fields change; `description: null` clears it. `status: "disabled"` stops deliveries ' +
    '(`disabledReason: "manual"`), `"enabled"` resumes them. New `events` are checked against this key’s scopes.',
  scope: 'webhooks.write',
  params: UuidIdParams,
  body: UpdateWebhookEndpointSchema,
  response: dataEnvelope(WebhookEndpointSchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async (context) => {
    const { store, tenantId, params, body, now, principal } = context
    if (body.url !== undefined) checkUrl(context, body.url)
    if (body.events !== undefined) checkEvents(context, body.events)
    const saved = await updateVersioned<WebhookEndpointRecord>({
      what: WHAT,
      ifMatch: null,
      load: () => store.getWebhookEndpoint(tenantId, params.id),
      change: (current) => ({
        ...current,
        ...(body.url === undefined ? {} : { url: body.url }),
        ...(body.events === undefined ? {} : { events: body.events, eventScopes: [...principal.scopes] }),
        ...(body.description === undefined ? {} : { description: body.description }),
        ...(body.status === undefined || body.status === current.status
          ? {}
          : { status: body.status, disabledReason: body.status === 'disabled' ? ('manual' as const) : null }),
        updatedAt: now.toISOString(),
      }),
      save: (next, expected) => store.replaceWebhookEndpoint(tenantId, next, expected),
    })
    return ok(publicEndpoint(saved))
  },
})

export const deleteWebhookEndpoint = defineOperation({
  id: 'deleteWebhookEndpoint',
  method: 'DELETE',
  path: '/webhook-endpoints/:id',
  area: AREA,
  summary: 'Delete a webhook endpoint',
  description: 'Deliveries stop at once; its delivery attempts are deleted with it.',
  scope: 'webhooks.write',
  params: UuidIdParams,
  response: MessageSchema,
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async ({ store, tenantId, params }) => {
    if (!(await store.deleteWebhookEndpoint(tenantId, params.id))) throw notFound(WHAT)
    return { status: 200, body: { message: 'Webhook endpoint deleted' } }
  },
})

export const rotateWebhookEndpointSecret = defineOperation({
  id: 'rotateWebhookEndpointSecret',
  method: 'POST',
  path: '/webhook-endpoints/:id/rotate-secret',
  area: AREA,
  summary: 'Rotate a webhook endpoint’s secret',
  description:
    'Answers with a new `secret`. For 24 hours deliveries are signed with both the new and the old secret ' +
    '(one `webhook-signature` entry each), so receivers can switch without losing a delivery.',
  scope: 'webhooks.write',
  params: UuidIdParams,
  response: dataEnvelope(WebhookEndpointWithSecretSchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async ({ store, tenantId, params, now }) => {
    const secret = newWebhookSecret()
    const at = now.toISOString()
    const overlapEnd = new Date(now.getTime() + SECRET_ROTATION_OVERLAP_MS).toISOString()
    const saved = await updateVersioned<WebhookEndpointRecord>({
      what: WHAT,
      ifMatch: null,
      load: () => store.getWebhookEndpoint(tenantId, params.id),
      change: (current) => ({
        ...current,
        // The current secret signs for 24 h more; older ones keep their own (earlier) end.
        secrets: [
          { secret, expiresAt: null },
          ...current.secrets
            .map((old) => ({ secret: old.secret, expiresAt: old.expiresAt ?? overlapEnd }))
            .filter((old) => old.expiresAt > at),
        ],
        updatedAt: at,
      }),
      save: (next, expected) => store.replaceWebhookEndpoint(tenantId, next, expected),
    })
    return ok({ ...publicEndpoint(saved), secret })
  },
})

export const listWebhookDeliveries = defineOperation({
  id: 'listWebhookDeliveries',
  method: 'GET',
  path: '/webhook-endpoints/:id/deliveries',
  area: AREA,
  summary: 'List a webhook endpoint’s recent delivery attempts',
  description: 'The newest `limit` attempts (default 25, at most 100), newest first.',
  scope: 'webhooks.read',
  params: UuidIdParams,
  query: WebhookDeliveryListQuerySchema,
  response: dataEnvelope(v.array(WebhookDeliverySchema)),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async ({ store, tenantId, params, query }) => {
    await found(store.getWebhookEndpoint(tenantId, params.id), WHAT)
    const deliveries = await store.listWebhookDeliveries(tenantId, params.id, query.limit)
    return ok(deliveries.map(({ endpointId: _endpoint, ...delivery }) => delivery))
  },
})
