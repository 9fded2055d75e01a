/**
 * The events feed part of the store port (docs/extensions.md, section 3): the query a store
 * answers, the page it returns, and the part itself ({@link EventFeedPort}).
 */
import type { Event, EventType } from '../model/events.js'

/**
 * The default byte budget of a page of the feed: 1 MiB of event JSON (docs/extensions.md, section 3).
 *
 * @example
 * createPublicApi({ store, keyResolver, maxEventsPageBytes: DEFAULT_EVENTS_PAGE_BYTES })
 */
export const DEFAULT_EVENTS_PAGE_BYTES = 1024 * 1024

/** What `store.listEvents` is asked for (validated by the operation). */
export interface EventQuery {
  /** The position of the event named by `after`, or null from the start (asc) or the end (desc). */
  after: number | null
  /** `asc`: oldest first, positions above `after`; `desc`: newest first, positions below `after`. */
  order: 'asc' | 'desc'
  /** Only these types; null for every type. */
  types: readonly EventType[] | null
  /** At most this many events. */
  limit: number
  /**
   * The page's byte budget: it stops before the UTF-8 bytes of its events' JSON (as `JSON.stringify`
   * writes each) would pass this, and always holds at least one event. A store stops reading there:
   * it never reads `limit` events to cut the page afterwards (bounded memory, whatever their size).
   * Default {@link DEFAULT_EVENTS_PAGE_BYTES}.
   */
  maxBytes?: number
}

/** What `store.listEvents` found. */
export type EventPage =
  /**
   * The events (at most `limit`, within `maxBytes`), whether more match (true for a page cut short by
   * the budget), and the tenant's last position (0 before any event).
   */
  | { state: 'ok'; events: Event[]; hasNextPage: boolean; lastPosition: number }
  /** Events the walk from `after` needs were pruned (answered 410 `CURSOR_EXPIRED`). */
  | { state: 'expired' }

/**
 * The events feed part of the store port: the feed's pages. The records part records the events (every
 * write, `seed` unless told not to, and `remove`, in the transaction of the change), so a store whose
 * records are its own records its events too; this part only reads them.
 *
 * @example
 * const page = await store.listEvents(tenantId, { after: null, order: 'asc', types: null, limit: 25 })
 */
export interface EventFeedPort {
  /**
   * A page of the tenant's events. Every write of the records part, `seed` (records it creates or
   * changes, unless `events: false`) and `remove` record their events in the same transaction as the
   * change, with the actor and request of its `WriteContext` (the host's sync when omitted), at the
   * tenant's next positions in commit order. Events older than the store's `eventRetentionMs` are
   * pruned by the store. A page holds at most `query.limit` events and stops before their JSON passes
   * `query.maxBytes` (always at least one event), reading no further than that: events can be
   * megabytes each.
   */
  listEvents(tenantId: string, query: EventQuery): Promise<EventPage>
}
