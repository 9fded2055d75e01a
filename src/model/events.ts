/**
 * The events feed's model (docs/extensions.md, section 3): what an event is, who caused it, how
 * its id names its position in the tenant's feed, and what changed between two versions of a
 * resource. Stores record events in the same transaction as the change; nothing here reads a store.
 */
import * as v from 'valibot'
import { EVENTED_COLLECTIONS, type EventedCollection } from './index.js'
import { hasScope, type Scope } from './scopes.js'
import { sameJson } from './same-json.js'
import { DateTimeSchema, JsonObjectSchema } from './shared.js'

/** A resource type of the events feed, e.g. `'ticket'`: each collection's `event.resource`. */
export type EventResourceType = EventedCollection['event']['resource']

/**
 * Every resource type an event can be about, in the order of `COLLECTIONS`.
 *
 * @example
 * EVENT_RESOURCE_TYPES.includes('ticket') // true
 */
export const EVENT_RESOURCE_TYPES: readonly EventResourceType[] = EVENTED_COLLECTIONS.map((c) => c.event.resource)

/** What happened to the resource. */
export type EventAction = 'created' | 'updated' | 'deleted'

/** An event type, `<resource>.<created|updated|deleted>`. */
export type EventType = `${EventResourceType}.${EventAction}`

/**
 * Every event type, resource by resource.
 *
 * @example
 * EVENT_TYPES.includes('budget_line_item.created') // true
 */
export const EVENT_TYPES: readonly EventType[] = EVENT_RESOURCE_TYPES.flatMap((resource) =>
  (['created', 'updated', 'deleted'] as const).map((action): EventType => `${resource}.${action}`),
)

/**
 * The scope that reads each resource's events (docs/extensions.md section 3), from each collection's
 * `event.readScope`: the scope of the resource's own reads, or its area's `.write` where the area
 * has no read scope (budgets, automation). Typed against the one scope table, so every scope a 403
 * names can be granted.
 *
 * @example
 * EVENT_READ_SCOPES.budget_line_item // 'budgets.write'
 */
export const EVENT_READ_SCOPES = Object.fromEntries(
  EVENTED_COLLECTIONS.map((c) => [c.event.resource, c.event.readScope]),
) as { readonly [C in EventedCollection as C['event']['resource']]: C['event']['readScope'] }

/**
 * The scope that reads events of `type`; undefined for an unknown type.
 *
 * @example
 * eventReadScope('budget_line_item.created') // 'budgets.write'
 */
export function eventReadScope(type: string): Scope | undefined {
  const resource = type.slice(0, type.lastIndexOf('.'))
  return Object.hasOwn(EVENT_READ_SCOPES, resource) ? EVENT_READ_SCOPES[resource as EventResourceType] : undefined
}

/**
 * Whether a key with `scopes` may read events of `type` (`X.write` grants `X.read`).
 *
 * @example
 * mayReadEventType(['budgets.write'], 'budget_line_item.created') // true
 */
export function mayReadEventType(scopes: readonly string[], type: string): boolean {
  const scope = eventReadScope(type)
  return scope !== undefined && hasScope(scopes, scope)
}

/**
 * The scopes a key lacks to read every one of `types`, once each, in the order the types name them:
 * what a 403 `INSUFFICIENT_SCOPE` names in `requiredScopes`. Unknown types name none.
 *
 * @example
 * missingReadScopes(['tickets.read'], ['ticket.created', 'user.created']) // ['users.read']
 */
export function missingReadScopes(scopes: readonly string[], types: readonly string[]): Scope[] {
  const missing = new Set<Scope>()
  for (const type of types) {
    const scope = eventReadScope(type)
    if (scope !== undefined && !hasScope(scopes, scope)) missing.add(scope)
  }
  return [...missing]
}

/**
 * Who made a change: a key through the API, or the host's sync (`seed`, `remove`).
 *
 * @example
 * const actor: EventActor = { type: 'api_key', keyId: 'key-1', id: 'user-1', name: 'Ada' }
 */
export const EventActorSchema = v.variant('type', [
  v.strictObject({ type: v.literal('api_key'), keyId: v.string(), id: v.string(), name: v.string() }),
  v.strictObject({ type: v.literal('sync') }),
])
/** Who made a change. */
export type EventActor = v.InferOutput<typeof EventActorSchema>

/**
 * An event of the feed. `data.object` is the resource as its GET (or, without a GET, its write or
 * list) returns it, null on `deleted`; `data.previous` holds the old values of the fields that
 * changed on `updated`, else null.
 *
 * @example
 * v.is(EventSchema, body.data[0])
 */
export const EventSchema = v.strictObject({
  id: v.string(),
  type: v.picklist(EVENT_TYPES as [EventType, ...EventType[]]),
  createdAt: DateTimeSchema,
  resource: v.strictObject({ type: v.picklist(EVENT_RESOURCE_TYPES), id: v.string() }),
  data: v.strictObject({ object: v.nullable(JsonObjectSchema), previous: v.nullable(JsonObjectSchema) }),
  actor: EventActorSchema,
  requestId: v.nullable(v.string()),
})
/** An event of the feed. */
export type Event = v.InferOutput<typeof EventSchema>

/**
 * Who is writing and in which request: passed by operations to every store write, so that the
 * store records the event with the change. Omitted, the write is recorded as the host's sync.
 *
 * @example
 * await store.patch(budgets, tenantId, id, patch, now, { actor, requestId })
 */
export interface WriteContext {
  actor: Extract<EventActor, { type: 'api_key' }>
  requestId: string
}

/**
 * The sync actor, for `seed`, `remove` and writes without a {@link WriteContext}.
 *
 * @example
 * SYNC_ACTOR.type // 'sync'
 */
export const SYNC_ACTOR: EventActor = Object.freeze({ type: 'sync' })

/** One change a store is about to record: everything of an event but its id, time and actor. */
export interface EventDraft {
  type: EventType
  resource: { type: EventResourceType; id: string }
  object: Record<string, unknown> | null
  previous: Record<string, unknown> | null
}

const ID_PREFIX = 'evt_'
const ID_DIGITS = 12

/**
 * The id of the event at `position` of its tenant's feed: ids sort as positions do, and a cursor
 * names a position even after its event was pruned (so it can be answered 410, not 400).
 *
 * @example
 * eventId(42) // 'evt_000000000042'
 */
export function eventId(position: number): string {
  return `${ID_PREFIX}${String(position).padStart(ID_DIGITS, '0')}`
}

/**
 * The position an event id names, or null when it is not an event id.
 *
 * @example
 * eventPosition('evt_000000000042') // 42
 */
export function eventPosition(id: string): number | null {
  if (!id.startsWith(ID_PREFIX) || id.length !== ID_PREFIX.length + ID_DIGITS) return null
  const digits = id.slice(ID_PREFIX.length)
  if (!/^\d+$/.test(digits)) return null
  const position = Number(digits)
  return position >= 1 ? position : null
}

/**
 * The draft of a change from `before` to `after` (either null: created or deleted), or null when
 * nothing changed. `previous` holds the old values of the top-level fields that differ.
 *
 * @example
 * changeOf('company', id, { name: 'A' }, { name: 'B' })?.previous // { name: 'A' }
 */
export function changeOf(
  type: EventResourceType,
  id: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): EventDraft | null {
  const resource = { type, id }
  if (before === null && after === null) return null
  if (before === null) return { type: `${type}.created`, resource, object: after, previous: null }
  if (after === null) return { type: `${type}.deleted`, resource, object: null, previous: null }
  const previous: Record<string, unknown> = {}
  let changed = false
  // Every key of either side once, in the order of `before` then the keys only `after` has.
  for (const key in before) {
    if (!Object.hasOwn(before, key) || sameJson(before[key], after[key])) continue
    previous[key] = before[key] ?? null
    changed = true
  }
  for (const key in after) {
    if (!Object.hasOwn(after, key) || Object.hasOwn(before, key) || sameJson(undefined, after[key])) continue
    previous[key] = null
    changed = true
  }
  return changed ? { type: `${type}.updated`, resource, object: after, previous } : null
}

/** The most event types one `types` parameter may name. */
export const MAX_EVENT_TYPES_PER_QUERY = 20

const KNOWN_TYPES = new Set<string>(EVENT_TYPES)

/**
 * The query of `GET /events`: `after` (an event id), `order`, `types`
 * (comma-separated, at most 20, each a known type) and `limit` (1..100, default 25).
 *
 * @example
 * v.parse(EventListQuerySchema, { after: 'evt_000000000007', types: 'ticket.created' })
 */
export const EventListQuerySchema = v.strictObject({
  after: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (id) => eventPosition(id) !== null,
        `Must be an event id: ${ID_PREFIX} and ${ID_DIGITS} digits, from ${eventId(1)}`,
      ),
      // The check above, as the OpenAPI document states it (positions start at 1).
      v.metadata({
        param: { type: 'string', pattern: `^${ID_PREFIX}\\d{${ID_DIGITS}}$`, not: { const: eventId(0) } },
      }),
      v.description('An event id: events after it (asc) or before it (desc).'),
    ),
  ),
  order: v.optional(
    v.pipe(
      v.string(),
      v.picklist(['asc', 'desc'], 'Must be one of: asc, desc'),
      v.metadata({ param: { type: 'string', enum: ['asc', 'desc'] } }),
      v.description('asc: oldest first; desc: newest first.'),
    ),
    'asc',
  ),
  types: v.optional(
    v.pipe(
      v.string(),
      v.transform((text) => text.split(',')),
      v.maxLength(MAX_EVENT_TYPES_PER_QUERY, `Must name at most ${MAX_EVENT_TYPES_PER_QUERY} event types`),
      v.check(
        (types) => types.every((type) => KNOWN_TYPES.has(type)),
        (issue) =>
          `Unknown event type: ${(issue.input as string[]).find((type) => !KNOWN_TYPES.has(type)) ?? ''}`.slice(0, 200),
      ),
      v.transform((types) => [...new Set(types)] as EventType[]),
      // The checks above, as the OpenAPI document states them: a comma-separated (`style: form`,
      // `explode: false`) array of known types.
      v.metadata({
        param: { type: 'array', items: { enum: [...EVENT_TYPES] }, minItems: 1, maxItems: MAX_EVENT_TYPES_PER_QUERY },
      }),
      v.description(
        `Comma-separated event types (at most ${MAX_EVENT_TYPES_PER_QUERY}), e.g. ticket.created,ticket.updated; ` +
          'a repeated type is kept once.',
      ),
    ),
  ),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,16}$/, 'Must be a whole number written with digits only'),
      v.transform((digits: string) => Number(digits)),
      v.minValue(1, 'Must be at least 1'),
      v.maxValue(100, 'Must be at most 100'),
      v.metadata({ param: { type: 'integer', minimum: 1, maximum: 100 } }),
      v.description('Events per page at most, 1..100: a page also stops at its byte budget.'),
    ),
    '25',
  ),
})
/** The validated query of `GET /events`. */
export type EventListQuery = v.InferOutput<typeof EventListQuerySchema>

/**
 * The response of `GET /events`.
 *
 * @example
 * v.is(EventListSchema, body)
 */
export const EventListSchema = v.strictObject({
  data: v.array(EventSchema),
  pagination: v.strictObject({ limit: v.number(), hasNextPage: v.boolean(), nextCursor: v.nullable(v.string()) }),
})
/** The response of `GET /events`. */
export type EventList = v.InferOutput<typeof EventListSchema>
