/**
 * The SQL store's `remove`: deletes the given records of one tenant in one write transaction.
 * Removing a budget deletes its line items; removing tickets bumps the tenant's ticket generation
 * (as `seed` does), so that no instance serves a cached count that still includes them.
 */
import { sql } from 'kysely'
import { budgetLineItems } from '../../model/index.js'
import type { EventDraft } from '../../model/events.js'
import { EVENT_RESOURCE_OF } from '../event-views.js'
import { normalizeRemoval, type RemoveIds, type SeedKey } from '../../model/removal.js'
import { type Exec, ofTenant, type SqlContext } from './context.js'
import { IDS_PER_STATEMENT, SYNC_TABLES } from './event-states.js'
import type { SqlEvents } from './events.js'

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
    await ctx.engine.writeTransaction(ctx.bulk, async (ex) => {
      const drafts: EventDraft[] = []
      for (const [key, table] of Object.entries(SYNC_TABLES) as [SeedKey, string][]) {
        const type = EVENT_RESOURCE_OF[key]
        if (type !== null)
          for (const id of (await events.states(ex, tenantId, key, removal[key])).keys())
            drafts.push({ type: `${type}.deleted`, resource: { type, id }, object: null, previous: null })
        await deleteIds(ctx, ex, table, 'id', tenantId, removal[key])
      }
      await events.append(ex, tenantId, drafts)
      await deleteIds(ctx, ex, budgetLineItems.table, 'budget_id', tenantId, removal.budgets)
      if (removal.tickets.length > 0)
        await sql`INSERT INTO ${ctx.table('ticket_generations')} AS cur (tenant_id, generation) VALUES (${tenantId}, 1)
                  ON CONFLICT (tenant_id) DO UPDATE SET generation = cur.generation + 1`.execute(ex)
    })
  }
}
