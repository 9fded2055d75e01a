/**
 * The events feed on SQL (docs/extensions.md, section 3), one part per concept: reading records as
 * change detection sees them (`event-states.ts`), appending events inside the writing transaction
 * (`event-writes.ts`) and pruning expired ones with it (`event-pruning.ts`), and pages of the feed
 * (`event-pages.ts`).
 */
import type { EventPage, EventQuery } from '../../ports/event-feed.js'
import type { SqlContext } from './context.js'
import { sqlEventPages } from './event-pages.js'
import { type SqlEventStates, sqlEventStates } from './event-states.js'
import { type SqlEventWrites, sqlEventWrites } from './event-writes.js'

export type { StoredDoc } from './event-states.js'

/** The events part of a SQL store. */
export interface SqlEvents extends SqlEventStates, SqlEventWrites {
  listEvents(tenantId: string, query: EventQuery): Promise<EventPage>
}

/**
 * The events part of the store on `ctx`, keeping events for `retentionMs`.
 *
 * @example
 * const events = sqlEvents(ctx, EVENT_RETENTION_MS)
 */
export function sqlEvents(ctx: SqlContext, retentionMs: number): SqlEvents {
  return { ...sqlEventStates(ctx), ...sqlEventWrites(ctx, retentionMs), listEvents: sqlEventPages(ctx) }
}
