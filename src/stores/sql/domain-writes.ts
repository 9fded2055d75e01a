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
import { type Exec, insertOfTenant, json, ofTenant, parse, type SqlContext } from './context.js'
import type { SqlEvents } from './events.js'

/** The named writes and reads of this file. */
export type DomainMethods = Pick<
  Store,
  'updateBudget' | 'addBudgetLineItem' | 'deleteTrainingEnrollment' | 'findCompanies'
>

/**
 * The statements of the named writes, compiled once (`ctx.compiled`): a budget's document locked,
 * its items, its document replaced, an item appended, an enrollment deleted.
 *
 * @example
 * const { budgetItems } = domainStatements(ctx)
 * const items = await budgetItems.rows([tenantId, budgetId], ex)
 */
function domainStatements(ctx: SqlContext) {
  const { engine, table: t } = ctx
  const forUpdate = sql.raw(engine.fragments.forUpdate)
  const budget = ctx.compiled(
    2,
    ([tenant, id]) => sql`SELECT doc FROM ${t(budgets.table)} WHERE ${ofTenant(tenant)} AND id = ${id}${forUpdate}`,
  )
  const budgetItems = ctx.compiled(
    2,
    ([tenant, id]) =>
      sql`SELECT doc FROM ${t(budgetLineItems.table)} WHERE ${ofTenant(tenant)} AND budget_id = ${id} ORDER BY seq`,
  )
  const budgetUpdate = ctx.compiled(
    3,
    ([tenant, id, doc]) => sql`UPDATE ${t(budgets.table)} SET doc = ${doc} WHERE ${ofTenant(tenant)} AND id = ${id}`,
  )
  // The budget is locked: no other item of it commits between this insert's MAX(seq) and its commit.
  const itemInsert = ctx.compiled(3, ([tenant, id, doc]) => {
    const items = t(budgetLineItems.table)
    const next = sql`SELECT ${tenant}, ${id}, COALESCE(MAX(seq), 0) + 1, ${doc} FROM ${items}`
    return insertOfTenant(
      items,
      ['budget_id', 'seq', 'doc'],
      sql`${next} WHERE ${ofTenant(tenant)} AND budget_id = ${id}`,
    )
  })
  const enrollmentDelete = ctx.compiled(
    2,
    ([tenant, id]) =>
      sql`DELETE FROM ${t(trainingEnrollments.table)} WHERE ${ofTenant(tenant)} AND id = ${id} RETURNING id`,
  )
  return { budget, budgetItems, budgetUpdate, itemInsert, enrollmentDelete }
}

/**
 * The store's named domain writes over `ctx`, recording events through `events`.
 *
 * @example
 * const store = { ...domainWrites(ctx, sqlEvents(ctx, EVENT_RETENTION_MS)), ... }
 */
export function domainWrites(ctx: SqlContext, events: SqlEvents): DomainMethods {
  const { db, writes, table: t, rows } = ctx
  const { budget, budgetItems, budgetUpdate, itemInsert, enrollmentDelete } = domainStatements(ctx)

  /** The budget's document, locked until the transaction `ex` ends. */
  const budgetForUpdate = async (ex: Exec, tenantId: string, id: string) =>
    (await budget.rows<{ doc: string }>([tenantId, id], ex))[0]

  const setBudgetDoc = (tenantId: string, id: string, doc: BudgetRecord) => budgetUpdate.sql([tenantId, id, json(doc)])

  return {
    async updateBudget(tenantId, id, patch, updatedAt, write) {
      return writes.transaction(db, async (ex) => {
        const row = await budgetForUpdate(ex, tenantId, id)
        if (row === undefined) return null
        // Its items, read under the budget's lock, are the same before and after: the states for the
        // event and the answer are built from them and the record in hand, nothing is read back.
        const items = await budgetItems.rows<{ doc: string }>([tenantId, id], ex)
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
      return writes.transaction(db, async (ex) => {
        const row = await budgetForUpdate(ex, tenantId, budgetId)
        if (row === undefined) return false
        const next = { ...parse<BudgetRecord>(row.doc), updatedAt: item.createdAt }
        const insert = itemInsert.sql([tenantId, budgetId, json(item)])
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
      return writes.transaction(db, async (ex) => {
        const deleted = await enrollmentDelete.rows([tenantId, id], ex)
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
            WHERE ${ofTenant(tenantId)} AND id IN (${sql.join([...new Set(ids)])})`,
      )
      const byId = new Map(found.map((c) => [c.id, c.name]))
      return ids.flatMap((id) => (byId.has(id) ? [{ id, name: byId.get(id) ?? null }] : []))
    },
  }
}
