/**
 * The SQL store's records part (src/ports/records.ts): `get` (records.ts) and `list` (queries.ts)
 * derived from the collection definitions, the generic writes (record-writes.ts), compare-and-set of
 * versioned records (versioned.ts), `seed` (seeding.ts) and `remove` (removing.ts). Nothing here
 * names a collection.
 */
import type { RecordsPort } from '../../ports/records.js'
import type { SqlContext } from './context.js'
import type { SqlEvents } from './events.js'
import { pageOf } from '../typed-records.js'
import type { Pages } from './queries.js'
import { recordWrites } from './record-writes.js'
import { recordReader } from './records.js'
import { createRemover } from './removing.js'
import { createSeeder } from './seeding.js'
import { type InsertCompanions, knownTexts, versionedReplace } from './versioned.js'

/**
 * The store's records part over `ctx`, listing through `pages`, recording events through `events`,
 * inserting with `companions` (a webhook endpoint's dispatch row).
 *
 * @example
 * const store = { ...sqlRecords(ctx, createPages(ctx), sqlEvents(ctx, EVENT_RETENTION_MS)), ... }
 */
export function sqlRecords(
  ctx: SqlContext,
  pages: Pages,
  events: SqlEvents,
  companions: InsertCompanions = {},
): RecordsPort {
  // Shared: `get` remembers the texts of the versioned records it hands out, `replaceVersioned` guards by them.
  const known = knownTexts()
  return {
    get: recordReader(ctx, known),
    list: async (collection, tenantId, request) => pageOf(collection, await pages.list(collection, tenantId, request)),
    ...recordWrites(ctx, events),
    replaceVersioned: versionedReplace(ctx, events, known, companions),
    seed: createSeeder(ctx, events),
    remove: createRemover(ctx, events),
  }
}
