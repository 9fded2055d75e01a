/**
 * Webhook endpoints, self-service like Stripe's (docs/extensions.md section 4). A secret is shown
 * only by create and rotate-secret; every other answer leaves it out.
 */
import * as v from 'valibot'
import { ApiError, validationError } from '../http/errors.js'
import { defineOperation, type OperationContext } from '../http/operation.js'
import { EVENT_TYPES, mayReadEventType, missingReadScopes } from '../model/events.js'
import { dataEnvelope, listEnvelope, MessageSchema } from '../model/shared.js'
import { updateVersioned } from '../model/versioning.js'
import {
  CreateWebhookEndpointSchema,
  endpointWantsEvent,
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
  webhookEndpoints,
} from '../model/webhook-endpoints.js'
import { webhookUrlProblem } from '../model/webhook-urls.js'
import { pageOf } from './list-pages.js'
import { found, notFound, ok, UuidIdParams } from './results.js'

type AnyContext = OperationContext<unknown, unknown, unknown>

const AREA = 'Webhooks'
const WHAT = 'Webhook endpoint'

/** 400 on `url` when it is not a safe webhook URL (see `webhookUrlProblem`). */
function checkUrl(context: AnyContext, url: string): void {
  const problem = webhookUrlProblem(url, context.webhooks.allowInsecureUrls)
  if (problem !== null) throw validationError([{ in: 'body', path: 'url', message: problem }])
}

/** The types an endpoint delivers now: its `events` (`["*"]`: every type) that its bound scopes may read. */
function deliveredTypes(endpoint: Pick<WebhookEndpointRecord, 'events' | 'eventScopes'>): string[] {
  return EVENT_TYPES.filter((type) => endpointWantsEvent(endpoint, type))
}

/** The types `events` of a body name; `["*"]` names none, it means whatever the calling key may read. */
const namedTypes = (events: readonly string[]) => (events[0] === '*' ? [] : events)

/**
 * 403 `INSUFFICIENT_SCOPE` naming the read scopes the key lacks unless it may read every type of
 * `types`: the endpoint binding of docs/webhooks.md (`what` says whose types they are).
 */
function requireReadable(context: AnyContext, types: readonly string[], what: string): void {
  const unreadable = types.filter((type) => !mayReadEventType(context.principal.scopes, type))
  if (unreadable.length === 0) return
  const named = `${unreadable.slice(0, 5).join(', ')}${unreadable.length > 5 ? ', …' : ''}`
  throw new ApiError('INSUFFICIENT_SCOPE', `${what} ${named}, which this key may not read`, {
    requiredScopes: missingReadScopes(context.principal.scopes, unreadable),
  })
}

/** The binding rule for new `events`, before any store call. */
const checkEvents = (context: AnyContext, events: readonly string[]) =>
  requireReadable(context, namedTypes(events), 'The endpoint would deliver')

/** The binding rule for a change that keeps `events`: the key must read all the endpoint delivers now. */
const checkDelivered = (context: AnyContext, current: WebhookEndpointRecord) =>
  requireReadable(context, deliveredTypes(current), 'This endpoint delivers')

/** What `description` of the operations says of the binding (docs/webhooks.md, endpoint binding). */
const BINDING =
  'The endpoint is bound to the scopes of the key that creates it, changes its `url`, `events` or `status` or ' +
  'rotates its secret; each of those needs a key that may read every event type the endpoint would deliver ' +
  '(else 403 `INSUFFICIENT_SCOPE`, `details.requiredScopes` naming the scopes it lacks). '

export const createWebhookEndpoint = defineOperation({
  id: 'createWebhookEndpoint',
  method: 'POST',
  path: '/webhook-endpoints',
  area: AREA,
  summary: 'Create a webhook endpoint',
  description:
    'Subscribes an `https` URL to event types (1..50, or `["*"]` for every type this key may read; ' +
    'a type the key may not read is a 403). ' +
    BINDING +
    'Answers with the signing `secret`, shown only here and by rotate-secret. At most 20 endpoints per tenant.',
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
    // The insert of a new record refuses it past the collection's `maxPerTenant`.
    if (!(await store.replaceVersioned(webhookEndpoints, tenantId, record, null))) {
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
  // A list of the collection in its order, shown without secrets.
  handle: (context) =>
    pageOf(context, webhookEndpoints, async (request) => {
      const page = await context.store.list(webhookEndpoints, context.tenantId, request)
      return { items: page.items.map(publicEndpoint), totalCount: page.totalCount }
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
    ok(publicEndpoint(await found(store.get(webhookEndpoints, tenantId, params.id), WHAT))),
})

export const updateWebhookEndpoint = defineOperation({
  id: 'updateWebhookEndpoint',
  method: 'PATCH',
  path: '/webhook-endpoints/:id',
  area: AREA,
  summary: 'Update a webhook endpoint',
  description:
    'Only the supplied fields change; `description: null` clears it. `status: "disabled"` stops deliveries ' +
    '(`disabledReason: "manual"`), `"enabled"` resumes them. ' +
    BINDING +
    'A change that keeps `events` (`url`, `status`, even to its current value) needs every type the endpoint ' +
    'delivers now (`["*"]`: ' +
    'what its bound scopes read), so no key narrows or takes over what it cannot read; new `events` need ' +
    'the types they name (`["*"]`: what this key reads). A `description`-only change keeps the binding.',
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
    // Supplying `url`, `events` or `status` (even its current value) re-binds; `description` alone does not.
    const rebinds = body.url !== undefined || body.events !== undefined || body.status !== undefined
    const saved = await updateVersioned<WebhookEndpointRecord>({
      what: WHAT,
      ifMatch: null,
      load: () => store.get(webhookEndpoints, tenantId, params.id),
      change: (current) => {
        // Checked on the record this round read, so a concurrent change cannot slip past it.
        if (rebinds && body.events === undefined) checkDelivered(context, current)
        return {
          ...current,
          ...(body.url === undefined ? {} : { url: body.url }),
          ...(body.events === undefined ? {} : { events: body.events }),
          ...(rebinds ? { eventScopes: [...principal.scopes] } : {}),
          ...(body.description === undefined ? {} : { description: body.description }),
          ...(body.status === undefined || body.status === current.status
            ? {}
            : { status: body.status, disabledReason: body.status === 'disabled' ? ('manual' as const) : null }),
          updatedAt: now.toISOString(),
        }
      },
      save: (next, expected) => store.replaceVersioned(webhookEndpoints, tenantId, next, expected),
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
    '(one `webhook-signature` entry each), so receivers can switch without losing a delivery. ' +
    BINDING +
    'Rotating keeps `events`: the key must read every type the endpoint delivers now (`["*"]`: what its ' +
    'bound scopes read).',
  scope: 'webhooks.write',
  params: UuidIdParams,
  response: dataEnvelope(WebhookEndpointWithSecretSchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async (context) => {
    const { store, tenantId, params, now, principal } = context
    const secret = newWebhookSecret()
    const at = now.toISOString()
    const overlapEnd = new Date(now.getTime() + SECRET_ROTATION_OVERLAP_MS).toISOString()
    const saved = await updateVersioned<WebhookEndpointRecord>({
      what: WHAT,
      ifMatch: null,
      load: () => store.get(webhookEndpoints, tenantId, params.id),
      change: (current) => {
        checkDelivered(context, current)
        return {
          ...current,
          eventScopes: [...principal.scopes],
          // The current secret signs for 24 h more; older ones keep their own (earlier) end.
          secrets: [
            { secret, expiresAt: null },
            ...current.secrets
              .map((old) => ({ secret: old.secret, expiresAt: old.expiresAt ?? overlapEnd }))
              .filter((old) => old.expiresAt > at),
          ],
          updatedAt: at,
        }
      },
      save: (next, expected) => store.replaceVersioned(webhookEndpoints, tenantId, next, expected),
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
    await found(store.get(webhookEndpoints, tenantId, params.id), WHAT)
    const deliveries = await store.listWebhookDeliveries(tenantId, params.id, query.limit)
    return ok(deliveries.map(({ endpointId: _endpoint, ...delivery }) => delivery))
  },
})
