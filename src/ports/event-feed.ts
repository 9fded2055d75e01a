/**
 * The events feed part of the store port (docs/extensions.md, section 3): the query a store
 * answers and the page it returns.
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
