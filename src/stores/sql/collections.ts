/**
 * The SQL store's reads and writes of the collections: `get` (records.ts) and `list` (queries.ts)
 * derived from the collection definitions, compare-and-set of versioned records (versioned.ts), and
 * the named domain writes (domain-writes.ts). Nothing here names a collection.
 */
import type { Store } from '../../ports/store.js'
import type { SqlContext } from './context.js'
import { domainWrites } from './domain-writes.js'
import type { SqlEvents } from './events.js'
import type { Pages } from './queries.js'
import { recordReader } from './records.js'
import { type InsertCompanions, knownTexts, versionedReplace } from './versioned.js'

/** The store methods of this file. */
export type CollectionMethods = Pick<
  Store,
  | 'get'
  | 'list'
  | 'replaceVersioned'
  | 'updateBudget'
  | 'addBudgetLineItem'
  | 'deleteTrainingEnrollment'
  | 'findCompanies'
>

/**
 * The store's collection methods over `ctx`, listing through `pages`, recording events through `events`,
 * inserting with `companions` (a webhook endpoint's dispatch row).
 *
 * @example
 * const store = { ...collectionMethods(ctx, createPages(ctx), sqlEvents(ctx, EVENT_RETENTION_MS)), ... }
 */
export function collectionMethods(
  ctx: SqlContext,
  pages: Pages,
  events: SqlEvents,
  companions: InsertCompanions = {},
): CollectionMethods {
  // Shared: `get` remembers the texts of the versioned records it hands out, `replaceVersioned` guards by them.
  const known = knownTexts()
  return {
    get: recordReader(ctx, known),
    list: (collection, tenantId, request) => pages.list(collection, tenantId, request),
    replaceVersioned: versionedReplace(ctx, events, known, companions),
    ...domainWrites(ctx, events),
  }
}
