/**
 * Webhook endpoints and their deliveries (docs/extensions.md section 4): the shapes the API
 * answers with, the bodies it accepts, the record a store keeps (secrets included, which sign and
 * so must be kept as they are) and which event types a key may subscribe to.
 */
import * as v from 'valibot'
import { EVENT_TYPES, mayReadEventType } from './events.js'
import { DateTimeSchema, integerParam, paginationQuery } from './shared.js'
import { MAX_WEBHOOK_URL_LENGTH } from './webhook-urls.js'

/**
 * Whether an endpoint subscribed to `events` by a key with `eventScopes` gets an event of `type`.
 *
 * @example
 * endpointWantsEvent({ events: ['*'], eventScopes: ['tickets.read'] }, 'ticket.created') // true
 */
export function endpointWantsEvent(
  endpoint: Pick<WebhookEndpointRecord, 'events' | 'eventScopes'>,
  type: string,
): boolean {
  return (endpoint.events[0] === '*' || endpoint.events.includes(type)) && mayReadEventType(endpoint.eventScopes, type)
}

export { MAX_WEBHOOK_ENDPOINTS, webhookEndpoints } from './webhook-endpoint-collection.js'
/** An endpoint subscribes to at most this many event types (or `["*"]`). */
const MAX_WEBHOOK_EVENTS = 50
/** The old secret keeps signing this long after `rotate-secret`: 24 hours. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

// A picklist, so that the OpenAPI document lists the types (and the reference's example is valid).
const EventTypeSchema = v.picklist(['*', ...EVENT_TYPES], 'Unknown event type')

/**
 * `events` of a create or update body: `["*"]` alone, or 1..50 known types. A type named twice is
 * kept once (repeats are dropped, not refused: a list of types is a set, as scopes of a key are).
 */
const EventsSchema = v.pipe(
  v.array(EventTypeSchema),
  v.minLength(1, 'At least one event type'),
  v.maxLength(MAX_WEBHOOK_EVENTS, `At most ${MAX_WEBHOOK_EVENTS} event types`),
  v.check((events) => !events.includes('*') || events.length === 1, '"*" stands alone'),
  // The check above, as the OpenAPI document states it.
  v.metadata({
    description: '`["*"]` alone (every type the key may read), or known event types; a repeated type is kept once.',
    oneOf: [{ const: ['*'] }, { items: { not: { const: '*' } } }],
  }),
  v.transform((events) => [...new Set(events)]),
)

const UrlSchema = v.pipe(
  v.string(),
  v.url('Must be an absolute URL'),
  v.maxLength(MAX_WEBHOOK_URL_LENGTH, `At most ${MAX_WEBHOOK_URL_LENGTH} characters`),
)
const DescriptionSchema = v.pipe(v.string(), v.maxLength(500, 'At most 500 characters'))

/**
 * The body of `POST /webhook-endpoints`. The URL's safety is checked by the operation (it depends
 * on `allowInsecureUrls`).
 *
 * @example
 * v.parse(CreateWebhookEndpointSchema, { url: 'https://hooks.example.com/in', events: ['ticket.created'] })
 */
export const CreateWebhookEndpointSchema = v.strictObject({
  url: UrlSchema,
  events: EventsSchema,
  description: v.optional(v.nullable(DescriptionSchema)),
})

/**
 * The body of `PATCH /webhook-endpoints/{id}`: only the supplied fields change; `description:
 * null` clears it; `status: "disabled"` disables it by hand (`disabledReason: "manual"`).
 *
 * @example
 * v.parse(UpdateWebhookEndpointSchema, { status: 'disabled' })
 */
export const UpdateWebhookEndpointSchema = v.pipe(
  v.strictObject({
    url: v.optional(UrlSchema),
    events: v.optional(EventsSchema),
    description: v.optional(v.nullable(DescriptionSchema)),
    status: v.optional(v.picklist(['enabled', 'disabled'])),
  }),
  // `minEntries` rather than a check: the OpenAPI document shows it as `minProperties: 1`.
  v.minEntries(1, 'Send at least one field'),
)

/**
 * A webhook endpoint as the API returns it (never with a secret, except on create and rotate).
 *
 * @example
 * // GET /webhook-endpoints/{id}
 * const { data } = v.parse(v.object({ data: WebhookEndpointSchema }), await response.json())
 * if (data.disabledReason === 'failing') alertOwner(data.url)
 */
export const WebhookEndpointSchema = v.strictObject({
  id: v.string(),
  url: v.string(),
  events: v.array(v.string()),
  description: v.nullable(v.string()),
  status: v.picklist(['enabled', 'disabled']),
  disabledReason: v.nullable(v.picklist(['manual', 'failing'])),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
})
export type WebhookEndpoint = v.InferOutput<typeof WebhookEndpointSchema>

/**
 * The endpoint with its signing secret: the answer of create and rotate-secret only.
 *
 * @example
 * // POST /webhook-endpoints: the only answer (with rotate-secret) that carries the secret
 * const { data } = v.parse(v.object({ data: WebhookEndpointWithSecretSchema }), await response.json())
 * await secrets.put(data.id, data.secret)
 */
export const WebhookEndpointWithSecretSchema = v.strictObject({ ...WebhookEndpointSchema.entries, secret: v.string() })

/**
 * A signing secret and when it stops signing (null: the current one).
 *
 * @example
 * const current: WebhookSecret = { secret: newWebhookSecret(), expiresAt: null }
 */
export interface WebhookSecret {
  secret: string
  expiresAt: string | null
}

/**
 * What a store keeps of an endpoint: the endpoint, its secrets (newest first; an old one until
 * its `expiresAt`), `eventScopes`, the scopes of the key that last created it, changed its `url`,
 * `events` or `status` or rotated its secret (its binding: an endpoint never receives a type that
 * key could not read; docs/webhooks.md), and a version for compare-and-set.
 *
 * @example
 * const record = await store.get(webhookEndpoints, tenantId, id) // WebhookEndpointRecord | null
 */
export interface WebhookEndpointRecord extends WebhookEndpoint {
  secrets: WebhookSecret[]
  eventScopes: string[]
  version: number
}

/**
 * The endpoint as the API shows it: the record without its secrets, scopes and version.
 *
 * @example
 * ok(publicEndpoint(record))
 */
export function publicEndpoint(record: WebhookEndpointRecord): WebhookEndpoint {
  const { secrets: _secrets, eventScopes: _scopes, version: _version, ...endpoint } = record
  return endpoint
}

/**
 * The secrets that sign at `now`: the current one and any old one still within its overlap.
 *
 * @example
 * const signing = signingSecrets(record, new Date())
 */
export function signingSecrets(record: Pick<WebhookEndpointRecord, 'secrets'>, now: Date): string[] {
  const at = now.toISOString()
  return record.secrets.filter((s) => s.expiresAt === null || s.expiresAt > at).map((s) => s.secret)
}

/**
 * A new signing secret: `whsec_` + base64 of 24 random bytes (the Standard Webhooks format).
 *
 * @example
 * newWebhookSecret() // 'whsec_...'
 */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  return `whsec_${btoa(String.fromCharCode(...bytes))}`
}

/**
 * One delivery attempt of an event to an endpoint.
 *
 * @example
 * // GET /webhook-endpoints/{id}/deliveries
 * const { data } = v.parse(v.object({ data: v.array(WebhookDeliverySchema) }), await response.json())
 * const failed = data.filter((delivery) => delivery.status === 'failed')
 */
export const WebhookDeliverySchema = v.strictObject({
  id: v.string(),
  eventId: v.string(),
  eventType: v.string(),
  attempt: v.number(),
  status: v.picklist(['pending', 'succeeded', 'failed']),
  responseStatus: v.nullable(v.number()),
  durationMs: v.nullable(v.number()),
  error: v.pipe(
    v.nullable(v.string()),
    v.metadata({
      description:
        'Why the attempt failed, null when it succeeded: the URL’s host and a short reason, e.g. ' +
        '`hooks.example.com: status 503`, `hooks.example.com: TLS handshake failed`; never a library’s message.',
    }),
  ),
  createdAt: DateTimeSchema,
  nextAttemptAt: v.nullable(DateTimeSchema),
})
export type WebhookDelivery = v.InferOutput<typeof WebhookDeliverySchema>

/**
 * The query of the endpoint list: `page` and `limit` like every list.
 *
 * @example
 * v.parse(WebhookEndpointListQuerySchema, { page: '1', limit: '25' })
 */
export const WebhookEndpointListQuerySchema = v.strictObject({ ...paginationQuery })

/**
 * The query of the deliveries list: the newest `limit` attempts (1..100, default 25).
 *
 * @example
 * v.parse(WebhookDeliveryListQuerySchema, { limit: '10' })
 */
export const WebhookDeliveryListQuerySchema = v.strictObject({
  limit: v.optional(integerParam(1, 100, 'Attempts to return, newest first, 1..100.'), '25'),
})
