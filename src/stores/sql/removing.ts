/**
 * The SQL store's `remove`: deletes the given records of one tenant in one write transaction, with
 * their children (a budget's line items: `childTables`, schema.ts), and bumps the tenant's generation
 * of each collection that keeps one (as `seed` does), so that no instance serves a cached count that
 * still includes them.
 */
import { sql } from 'kysely'
import { SEEDED_COLLECTIONS } from '../../model/index.js'
import type { EventDraft } from '../../model/events.js'
import { EVENT_RESOURCE_OF } from '../event-views.js'
import { normalizeRemoval, type RemoveIds } from '../../model/removal.js'
import type { CollectionDefinition } from '../../model/collection.js'
import { counterOfTenant, type Exec, ofTenant, type SqlContext } from './context.js'
import { IDS_PER_STATEMENT } from './event-states.js'
import type { SqlEvents } from './events.js'
import { childTables, generationTable } from './schema.js'

/**
 * Deletes `ids` of `table` for the tenant, in batches; `column` names the key (`budget_id` for line items).
 *
 * @example
 * await deleteIds(ctx, ex, 'users', 'id', tenantId, ['u1'])
 */
export async function deleteIds(
  ctx: SqlContext,
  ex: Exec,
  table: string,
  column: string,
  tenantId: string,
  ids: readonly string[],
): Promise<void> {
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
    const batch = ids.slice(start, start + IDS_PER_STATEMENT)
    await sql`DELETE FROM ${ctx.table(table)} WHERE ${ofTenant(tenantId)}
              AND ${sql.ref(column)} IN (${sql.join(batch)})`.execute(ex)
  }
}

/**
 * Bumps the tenant's generation of `collection`'s rows where the schema keeps one (schema.ts), so that no
 * instance serves a cached count from before a seed or removal.
 *
 * @example
 * await bumpGeneration(ctx, ex, tickets, tenantId)
 */
export async function bumpGeneration(
  ctx: SqlContext,
  ex: Exec,
  collection: Pick<CollectionDefinition<never, never>, 'table'>,
  tenantId: string,
): Promise<void> {
  const table = generationTable(collection)
  if (table !== null) await counterOfTenant(ctx.table(table), 'generation', sql`VALUES (${tenantId}, 1)`).execute(ex)
}

/**
 * The store's `remove`.
 *
 * @example
 * const remove = createRemover(ctx, sqlEvents(ctx, EVENT_RETENTION_MS))
 * await remove(tenantId, { users: ['u1'] })
 */
export function createRemover(ctx: SqlContext, events: SqlEvents): (tenantId: string, ids: RemoveIds) => Promise<void> {
  return async (tenantId, ids) => {
    const removal = normalizeRemoval(ids)
    if (Object.values(removal).every((list) => list.length === 0)) return
    await ctx.writes.transaction(ctx.bulk, async (ex) => {
      const drafts: EventDraft[] = []
      for (const collection of SEEDED_COLLECTIONS) {
        const ids = removal[collection.name]
        const type = EVENT_RESOURCE_OF[collection.name]
        if (type !== null)
          for (const id of (await events.states(ex, tenantId, collection.name, ids)).keys())
            drafts.push({ type: `${type}.deleted`, resource: { type, id }, object: null, previous: null })
        await deleteIds(ctx, ex, collection.table, 'id', tenantId, ids)
      }
      await events.append(ex, tenantId, drafts)
      for (const collection of SEEDED_COLLECTIONS) {
        const ids = removal[collection.name]
        if (ids.length === 0) continue
        for (const child of childTables(collection))
          await deleteIds(ctx, ex, child.collection.table, child.parentColumn, tenantId, ids)
        await bumpGeneration(ctx, ex, collection, tenantId)
      }
    })
  }
}
