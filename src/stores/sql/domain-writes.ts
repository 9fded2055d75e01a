/**
 * The SQL store's named domain writes, each with its event in the same transaction: a budget's
 * update and a line item added to it (the budget row locked, so its items and the event agree), an
 * enrollment deleted; and `findCompanies`, the one named read the domain needs. Every other read or
 * write is derived from the collection definitions (`records.ts`, `queries.ts`, `versioned.ts`).
 */
import { sql } from 'kysely'
import { type BudgetLineItem, type BudgetRecord, budgetLineItems, budgets } from '../../model/budgets.js'
import { companies } from '../../model/companies.js'
import { trainingEnrollments } from '../../model/training.js'
import type { Store } from '../../ports/store.js'
import { syncChange } from '../event-views.js'
import { type Exec, json, parse, type SqlContext } from './context.js'
import type { SqlEvents } from './events.js'

/** The named writes and reads of this file. */
export type DomainMethods = Pick<
  Store,
  'updateBudget' | 'addBudgetLineItem' | 'deleteTrainingEnrollment' | 'findCompanies'
>

/**
 * The store's named domain writes over `ctx`, recording events through `events`.
 *
 * @example
 * const store = { ...domainWrites(ctx, sqlEvents(ctx, EVENT_RETENTION_MS)), ... }
 */
export function domainWrites(ctx: SqlContext, events: SqlEvents): DomainMethods {
  const { db, engine, table: t, rows, one } = ctx

  /** The budget's document, locked until the transaction `ex` ends. */
  const budgetForUpdate = (ex: Exec, tenantId: string, id: string) =>
    one<{ doc: string }>(
      sql`SELECT doc FROM ${t(budgets.table)} WHERE tenant_id = ${tenantId} AND id = ${id}${sql.raw(engine.forUpdate)}`,
      ex,
    )

  const setBudgetDoc = (tenantId: string, id: string, doc: BudgetRecord) =>
    sql`UPDATE ${t(budgets.table)} SET doc = ${json(doc)} WHERE tenant_id = ${tenantId} AND id = ${id}`

  return {
    async updateBudget(tenantId, id, patch, updatedAt, write) {
      return engine.writeTransaction(db, async (ex) => {
        const row = await budgetForUpdate(ex, tenantId, id)
        if (row === undefined) return null
        // Its items, read under the budget's lock, are the same before and after: the states for the
        // event and the answer are built from them and the record in hand, nothing is read back.
        const items = await rows<{ doc: string }>(
          sql`SELECT doc FROM ${t(budgetLineItems.table)}
              WHERE tenant_id = ${tenantId} AND budget_id = ${id} ORDER BY seq`,
          ex,
        )
        const lineItems = items.map((item) => parse<BudgetLineItem>(item.doc))
        const itemsText = items.map((item) => item.doc).join('')
        const next = { ...parse<BudgetRecord>(row.doc), ...patch, updatedAt }
        const nextText = json(next)
        const [before, after] = await events.describe(ex, tenantId, budgets.name, [
          { doc: { ...parse<Record<string, unknown>>(row.doc), lineItems }, text: `${row.doc}${itemsText}` },
          { doc: { ...parse<Record<string, unknown>>(nextText), lineItems }, text: `${nextText}${itemsText}` },
        ])
        const draft = syncChange(budgets.event.resource, id, before!, after!)
        await events.append(ex, tenantId, draft === null ? [] : [draft], write, [setBudgetDoc(tenantId, id, next)])
        return budgets.view.show(parse<BudgetRecord>(nextText), { lineItems })
      })
    },

    async addBudgetLineItem(tenantId, budgetId, item, write) {
      return engine.writeTransaction(db, async (ex) => {
        const row = await budgetForUpdate(ex, tenantId, budgetId)
        if (row === undefined) return false
        const next = { ...parse<BudgetRecord>(row.doc), updatedAt: item.createdAt }
        const items = t(budgetLineItems.table)
        // The budget is locked: no other item of it commits between this insert's MAX(seq) and its commit.
        const insert = sql`INSERT INTO ${items} (tenant_id, budget_id, seq, doc)
                  SELECT ${tenantId}, ${budgetId}, COALESCE(MAX(seq), 0) + 1, ${json(item)} FROM ${items}
                  WHERE tenant_id = ${tenantId} AND budget_id = ${budgetId}`
        const resource = { type: budgetLineItems.event.resource, id: item.id }
        const object = item as unknown as Record<string, unknown>
        await events.append(
          ex,
          tenantId,
          [{ type: 'budget_line_item.created', resource, object, previous: null }],
          write,
          [setBudgetDoc(tenantId, budgetId, next), insert],
        )
        return true
      })
    },

    async deleteTrainingEnrollment(tenantId, id, write) {
      return engine.writeTransaction(db, async (ex) => {
        const deleted = await rows(
          sql`DELETE FROM ${t(trainingEnrollments.table)} WHERE tenant_id = ${tenantId} AND id = ${id} RETURNING id`,
          ex,
        )
        if (deleted.length === 0) return false
        const resource = { type: trainingEnrollments.event.resource, id }
        await events.append(
          ex,
          tenantId,
          [{ type: 'training_enrollment.deleted', resource, object: null, previous: null }],
          write,
        )
        return true
      })
    },

    async findCompanies(tenantId, ids) {
      if (ids.length === 0) return []
      const found = await rows<{ id: string; name: string }>(
        sql`SELECT id, "name" AS name FROM ${t(companies.table)}
            WHERE tenant_id = ${tenantId} AND id IN (${sql.join([...new Set(ids)])})`,
      )
      const byId = new Map(found.map((c) => [c.id, c.name]))
      return ids.flatMap((id) => (byId.has(id) ? [{ id, name: byId.get(id) ?? null }] : []))
    },
  }
}
