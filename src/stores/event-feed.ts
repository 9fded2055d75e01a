/**
 * The events feed as stores keep it (docs/extensions.md, section 3): what stores share to answer
 * the port's query (`src/ports/event-feed.ts`), and the in-process log the memory store keeps per
 * tenant. Positions are per tenant, from 1, without gaps, in commit order; pruning removes a prefix
 * (the oldest events).
 */
import {
  type Event,
  type EventActor,
  type EventDraft,
  eventId,
  SYNC_ACTOR,
  type WriteContext,
} from '../model/events.js'
import { deepFreeze } from '../model/frozen-records.js'
import { DEFAULT_EVENTS_PAGE_BYTES, type EventPage, type EventQuery } from '../ports/event-feed.js'

/**
 * How long stores keep events by default: 30 days.
 *
 * @example
 * createMemoryStore({ eventRetentionMs: EVENT_RETENTION_MS })
 */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000

/**
 * Whether a walk from `after` needs pruned events: ascending, when an event after it is gone;
 * descending, when every older event is gone (positions below `prunedBefore` are pruned).
 *
 * @example
 * isExpired({ after: 3, order: 'asc' }, 10) // true
 */
export function isExpired(query: Pick<EventQuery, 'after' | 'order'>, prunedBefore: number): boolean {
  if (query.after === null) return false
  return query.order === 'asc' ? query.after + 1 < prunedBefore : query.after >= 2 && query.after - 1 < prunedBefore
}

/**
 * The UTF-8 length of `text` in bytes, without encoding it (the feed's events can be megabytes).
 * `JSON.stringify` writes no lone surrogate, so a surrogate here is always half of a pair.
 *
 * @example
 * utf8Length('é€') // 5
 */
export function utf8Length(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    // Two bytes up to U+07FF, three to U+FFFF; a pair (two UTF-16 units) is four.
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2
  }
  return bytes
}

/** Each event's UTF-8 JSON size, computed once, when a page first needs it. */
const eventSizes = new WeakMap<Event, number>()

/**
 * The bytes of `event`'s JSON as a page sends it.
 *
 * @example
 * eventBytes(event) // 312
 */
export function eventBytes(event: Event): number {
  let size = eventSizes.get(event)
  if (size === undefined) eventSizes.set(event, (size = utf8Length(JSON.stringify(event))))
  return size
}

/**
 * The actor and request of a write: the key's, or the host's sync when there is no context.
 *
 * @example
 * const { actor, requestId } = authorOf(write)
 */
export function authorOf(write: WriteContext | undefined): { actor: EventActor; requestId: string | null } {
  return write === undefined
    ? { actor: SYNC_ACTOR, requestId: null }
    : { actor: write.actor, requestId: write.requestId }
}

/**
 * The complete event of a draft at `position`.
 *
 * @example
 * const event = eventOf(draft, 7, new Date().toISOString(), authorOf(write))
 */
export function eventOf(
  draft: EventDraft,
  position: number,
  createdAt: string,
  author: { actor: EventActor; requestId: string | null },
): Event {
  return {
    id: eventId(position),
    type: draft.type,
    createdAt,
    resource: draft.resource,
    data: { object: draft.object, previous: draft.previous },
    actor: author.actor,
    requestId: author.requestId,
  }
}

/**
 * One tenant's feed in memory: events in position order from `prunedBefore`, so the event at
 * position p is `events[p - prunedBefore]`.
 *
 * @example
 * const log = new EventLog(); log.append([draft], authorOf(undefined), new Date(), EVENT_RETENTION_MS)
 */
export class EventLog {
  private events: Event[] = []
  private position = 0
  private prunedBefore = 1

  /**
   * A copy of this log that either can append to and prune without the other seeing it. The events
   * themselves are shared, so they are frozen first (once: a frozen event is passed over), all but
   * the actor, which is the writer's (the key resolver's principal) and may be shared beyond the log.
   */
  fork(): EventLog {
    const copy = new EventLog()
    for (const event of this.events) freezeEvent(event)
    copy.events = [...this.events]
    copy.position = this.position
    copy.prunedBefore = this.prunedBefore
    return copy
  }

  /** The position of the tenant's last event (0 before any). */
  get lastPosition(): number {
    return this.position
  }

  /** Records `drafts` in order and prunes events older than `retentionMs`. */
  append(
    drafts: readonly EventDraft[],
    author: { actor: EventActor; requestId: string | null },
    now: Date,
    retentionMs: number,
  ): void {
    const createdAt = now.toISOString()
    for (const draft of drafts) this.events.push(eventOf(draft, ++this.position, createdAt, author))
    this.prune(now, retentionMs)
  }

  /** Drops the events created before `now - retentionMs` (a prefix: times never go down along positions). */
  prune(now: Date, retentionMs: number): void {
    const cutoff = new Date(now.getTime() - retentionMs).toISOString()
    let drop = 0
    while (drop < this.events.length && this.events[drop]!.createdAt < cutoff) drop += 1
    if (drop === 0) return
    this.events.splice(0, drop)
    this.prunedBefore += drop
  }

  /** A page of the feed for `query`. */
  page(query: EventQuery): EventPage {
    if (isExpired(query, this.prunedBefore)) return { state: 'expired' }
    const types = query.types === null ? null : new Set<string>(query.types)
    const out: Event[] = []
    const budget = query.maxBytes ?? DEFAULT_EVENTS_PAGE_BYTES
    let bytes = 0
    let hasNextPage = false
    const step = query.order === 'asc' ? 1 : -1
    const from = query.order === 'asc' ? (query.after ?? 0) + 1 : (query.after ?? this.position + 1) - 1
    const start = query.order === 'asc' ? Math.max(from, this.prunedBefore) : Math.min(from, this.position)
    for (let p = start; p >= this.prunedBefore && p <= this.position; p += step) {
      const event = this.events[p - this.prunedBefore]!
      if (types !== null && !types.has(event.type)) continue
      // Sized only while the page may still take it: a page reads at most one event past its budget.
      if (out.length === query.limit || (out.length > 0 && (bytes += eventBytes(event)) > budget)) {
        hasNextPage = true
        break
      }
      if (out.length === 0) bytes = eventBytes(event)
      out.push(event)
    }
    return { state: 'ok', events: out, hasNextPage, lastPosition: this.position }
  }
}

/** Freezes what of `event` the log made (all but its actor); a frozen event is passed over. */
function freezeEvent(event: Event): void {
  if (Object.isFrozen(event)) return
  deepFreeze(event.data)
  Object.freeze(event.resource)
  Object.freeze(event)
}
