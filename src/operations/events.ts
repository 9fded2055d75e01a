/**
 * `GET /events`: the tenant's events feed (docs/extensions.md, section 3). A key sees only the
 * events of the resources it may read; naming a type it may not read is a 403.
 */
import { ApiError, validationError } from '../http/errors.js'
import { defineOperation } from '../http/operation.js'
import {
  EVENT_TYPES,
  type EventType,
  EventListQuerySchema,
  EventListSchema,
  eventPosition,
  eventReadScope,
  missingReadScopes,
} from '../model/events.js'
import { grantingScopes } from '../model/scopes.js'

/** The scopes that grant reading each event type (`mayReadEventType`'s), written once rather than per request. */
const GRANTING_SCOPES: ReadonlyArray<readonly [EventType, readonly string[]]> = EVENT_TYPES.map((type) => [
  type,
  grantingScopes(eventReadScope(type)!),
])

/**
 * The event types `scopes` may read (a write scope grants its read, as everywhere), as
 * `mayReadEventType` decides.
 *
 * @example
 * readableEventTypes(['tickets.read']) // ['ticket.created', 'ticket.updated', 'ticket.deleted']
 */
export function readableEventTypes(scopes: readonly string[]): EventType[] {
  const granted = new Set(scopes)
  const readable: EventType[] = []
  for (const [type, granting] of GRANTING_SCOPES) {
    for (const scope of granting) {
      if (granted.has(scope)) {
        readable.push(type)
        break
      }
    }
  }
  return readable
}

export const listEvents = defineOperation({
  id: 'listEvents',
  method: 'GET',
  path: '/events',
  area: 'Events',
  summary: 'List events',
  description:
    'The tenant’s changes in commit order, from API writes and from the host’s sync. Follow the feed with ' +
    '`after=nextCursor`: every event is seen exactly once. Only events of resources the key may read are shown; ' +
    '`types` naming another is a 403. An `after` whose following events were pruned (kept 30 days by default) ' +
    'is a 410 `CURSOR_EXPIRED`: resynchronise from the lists. A page holds at most `limit` events and stops ' +
    'before their JSON passes the API’s byte budget (`maxEventsPageBytes`, default 1 MiB), always holding at ' +
    'least one event: a short page is not the end of the feed, only an empty one is.',
  scope: 'events.read',
  query: EventListQuerySchema,
  response: EventListSchema,
  successStatus: 200,
  errors: ['CURSOR_EXPIRED'],
  handle: async ({ store, tenantId, query, principal, maxEventsPageBytes }) => {
    const readable = readableEventTypes(principal.scopes)
    if (query.types !== undefined) {
      const denied = query.types.filter((type) => !readable.includes(type))
      if (denied.length > 0) {
        const requiredScopes = missingReadScopes(principal.scopes, denied)
        throw new ApiError('INSUFFICIENT_SCOPE', `This key may not read ${denied.join(', ')}`, { requiredScopes })
      }
    }
    const types = query.types ?? (readable.length === EVENT_TYPES.length ? null : readable)
    const after = query.after === undefined ? null : eventPosition(query.after)
    const page =
      types !== null && types.length === 0
        ? null
        : await store.listEvents(tenantId, {
            after,
            order: query.order,
            types,
            limit: query.limit,
            maxBytes: maxEventsPageBytes,
          })
    if (page?.state === 'expired')
      throw new ApiError('CURSOR_EXPIRED', 'Events after this cursor have been pruned: resynchronise from the lists')
    if (page !== null && after !== null && after > page.lastPosition)
      throw validationError([{ in: 'query', path: 'after', message: 'No such event' }])
    const data = page?.events ?? []
    const last = data.at(-1)
    return {
      status: 200,
      body: {
        data,
        pagination: { limit: query.limit, hasNextPage: page?.hasNextPage ?? false, nextCursor: last?.id ?? null },
      },
    }
  },
})
