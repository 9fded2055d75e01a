/**
 * The SQL store's generic record writes (src/ports/records.ts), each derived from the collection's
 * definition and recording its events in the same transaction: `patch` (the record's row locked, its
 * children read under the lock, so the event and the answer agree with what is stored), `addChild`
 * (the parent's row locked, the child appended after its siblings), `delete` (with its children),
 * and `findNames`. Nothing here names a collection.
 */
import { sql } from 'kysely'
import { type CountNeed, type GetView, viewOfGet } from '../../model/collection.js'
import { changeOf, type EventDraft, type EventResourceType } from '../../model/events.js'
import { COLLECTIONS } from '../../model/index.js'
import { checkPatch, checkSeeded, parentOf, touchedBy } from '../../model/record-writes.js'
import type { RecordsPort } from '../../ports/records.js'
import { syncChange } from '../event-views.js'
import { type Doc, definitionOf, docOf, type ErasedDefinition as Definition, shownOf } from '../typed-records.js'
import {
  type CompiledStatement,
  counterOfTenant,
  type Exec,
  insertOfTenant,
  json,
  ofTenant,
  parse,
  quote,
  type SqlContext,
} from './context.js'
import type { SqlEvents } from './events.js'
import { generationTable, rowColumns } from './schema.js'
import { rowBuilder } from './seeding.js'

/** The writes of this file. */
export type RecordWrites = Pick<RecordsPort, 'patch' | 'addChild' | 'delete' | 'findNames'>

/** The statements of one collection, compiled once per store ({@link SqlContext.compiled}). */
interface Statements {
  /** The document of a record (tenant, id), locked until the transaction ends. */
  locked: CompiledStatement
  /** The document's values of the row (its columns, their folded copies, `doc`) from a document. */
  values: (tenantId: string, record: Doc) => unknown[]
  /** As a child: the values of its row after its key (columns, folded copies, `doc`, parts) from a record. */
  childValues: (tenantId: string, record: Doc) => unknown[]
  /** The update of a record's document and columns: the values, then tenant and id. */
  update: CompiledStatement
  /** The delete of a record (tenant, id), returning its id. */
  remove: CompiledStatement
  /** Per child collection: its field in the seeded record, its documents under a parent, and their delete. */
  children: readonly { field: string; read: CompiledStatement; remove: CompiledStatement }[]
  /** As a child: its append after its siblings (tenant, parent id, then the row's values after its key). */
  append: CompiledStatement | null
  /** The bump of the tenant's generation of the table, when its counts are cached under one. */
  bump: CompiledStatement | null
}

/**
 * The statements of `definition` on `ctx`: its row's document values are those of `rowColumns`
 * after the key and before the parts (which a patch does not change).
 *
 * @example
 * const { locked } = statementsOf(ctx, budgets)
 */
function statementsOf(ctx: SqlContext, definition: Definition): Statements {
  const { engine } = ctx
  const table = ctx.table(definition.table)
  const skip = 1 + definition.key.length
  const all = rowColumns(definition)
  const columns = all.slice(skip, all.length - Object.keys(definition.parts).length)
  const row = rowBuilder(definition, engine)
  const children = COLLECTIONS.filter((c) => c.parent?.collection === definition.name).map((c) => {
    const child = definitionOf(c)
    const [by, ...rest] = child.key.map((k) => sql.raw(quote(k.name)))
    const order = sql.join(rest)
    return {
      field: child.parent!.field,
      read: ctx.compiled(
        2,
        ([tenant, id]) =>
          sql`SELECT doc FROM ${ctx.table(child.table)} WHERE ${ofTenant(tenant)} AND ${by} = ${id} ORDER BY ${order}`,
      ),
      remove: ctx.compiled(
        2,
        ([tenant, id]) => sql`DELETE FROM ${ctx.table(child.table)} WHERE ${ofTenant(tenant)} AND ${by} = ${id}`,
      ),
    }
  })
  const generations = generationTable(definition)
  return {
    locked: ctx.compiled(
      2,
      ([tenant, id]) =>
        sql`SELECT doc FROM ${table} WHERE ${ofTenant(tenant)} AND id = ${id}${sql.raw(engine.fragments.forUpdate)}`,
    ),
    values: (tenantId, record) => row(tenantId, [record.id], record).slice(skip, skip + columns.length),
    // The key's values are the append's own (the parent's id, the next sequence number): none here.
    childValues: (tenantId, record) => row(tenantId, [], record).slice(1),
    update: ctx.compiled(columns.length + 2, (values) => {
      const set = columns.map((column, i) => sql`${sql.raw(quote(column))} = ${values[i]}`)
      const [tenant, id] = values.slice(columns.length)
      return sql`UPDATE ${table} SET ${sql.join(set)} WHERE ${ofTenant(tenant!)} AND id = ${id}`
    }),
    remove: ctx.compiled(
      2,
      ([tenant, id]) => sql`DELETE FROM ${table} WHERE ${ofTenant(tenant)} AND id = ${id} RETURNING id`,
    ),
    children,
    append: definition.parent === null ? null : appendOf(ctx, definition),
    bump:
      generations === null
        ? null
        : ctx.compiled(1, ([tenant]) =>
            counterOfTenant(ctx.table(generations), 'generation', sql`VALUES (${tenant}, 1)`),
          ),
  }
}

/**
 * The append of a child record: keyed by its parent's id and the next sequence number under it. The
 * parent is locked by the write, so no sibling commits between this insert's MAX and its commit.
 */
function appendOf(ctx: SqlContext, child: Definition): CompiledStatement {
  if (child.key.length !== 2)
    throw new TypeError(`${child.name}: a child collection is keyed by its parent's id and a sequence number`)
  const columns = rowColumns(child)
  const [by, seq] = child.key.map((k) => sql.raw(quote(k.name)))
  const width = columns.length - 3
  const table = ctx.table(child.table)
  return ctx.compiled(width + 2, (values) => {
    const [tenant, parentId] = values.slice(width)
    const next = sql`SELECT ${tenant}, ${parentId}, COALESCE(MAX(${seq}), 0) + 1, ${sql.join(values.slice(0, width))}`
    // `columns` leads with the tenant's, which insertOfTenant names itself.
    return insertOfTenant(
      table,
      columns.slice(1),
      sql`${next} FROM ${table} WHERE ${ofTenant(tenant!)} AND ${by} = ${parentId}`,
    )
  })
}

/**
 * The store's generic record writes over `ctx`, recording events through `events`.
 *
 * @example
 * const store = { ...recordWrites(ctx, sqlEvents(ctx, EVENT_RETENTION_MS)), ... }
 */
export function recordWrites(ctx: SqlContext, events: SqlEvents): RecordWrites {
  const { db, writes } = ctx
  const made = new Map<string, Statements>()
  const statements = (definition: Definition) => {
    let found = made.get(definition.name)
    if (found === undefined) made.set(definition.name, (found = statementsOf(ctx, definition)))
    return found
  }

  return {
    async patch(collection, tenantId, id, patch, updatedAt, write) {
      const definition = definitionOf(collection)
      checkPatch(definition, patch)
      const s = statements(definition)
      return writes.transaction(db, async (ex) => {
        const [row] = await s.locked.rows<{ doc: string }>([tenantId, id], ex)
        if (row === undefined) return null
        // Its children, read under the lock, are the same before and after: the states for the event
        // and the answer are built from them and the record in hand, nothing is read back.
        // One after another: a transaction is one connection, which runs one statement at a time.
        const children: { doc: string }[][] = []
        for (const child of s.children) children.push(await child.read.rows<{ doc: string }>([tenantId, id], ex))
        const kept: Record<string, unknown> = {}
        for (const [i, child] of s.children.entries()) kept[child.field] = children[i]!.map((r) => parse<Doc>(r.doc))
        const keptText = children.flatMap((rows) => rows.map((r) => r.doc)).join('')
        const next = { ...parse<Doc>(row.doc), ...patch, updatedAt }
        const nextText = json(next)
        const [before, after] = await events.describe(ex, tenantId, definition.name, [
          { doc: { ...parse<Doc>(row.doc), ...kept }, text: `${row.doc}${keptText}` },
          { doc: { ...parse<Doc>(nextText), ...kept }, text: `${nextText}${keptText}` },
        ])
        const type = resourceOf(definition)
        const draft = type === null ? null : syncChange(type, id, before!, after!)
        const writes = [s.update.sql([...s.values(tenantId, next), tenantId, id]), ...bumped(s, tenantId)]
        await events.append(ex, tenantId, draft === null ? [] : [draft], write, writes)
        return shownOf(collection, await shown(ctx, ex, definition, tenantId, parse<Doc>(nextText), kept))
      })
    },

    async addChild(child, tenantId, parentId, item, write) {
      const definition = definitionOf(child)
      const parent = parentOf(definition)
      const s = statements(definitionOf(COLLECTIONS.find((c) => c.name === parent.collection)!))
      const append = statements(definition).append!
      const doc = docOf(child, item)
      return writes.transaction(db, async (ex) => {
        const [row] = await s.locked.rows<{ doc: string }>([tenantId, parentId], ex)
        if (row === undefined) return false
        const touched = touchedBy(parent, doc)
        const writes = []
        if (Object.keys(touched).length > 0) {
          const next = { ...parse<Doc>(row.doc), ...touched }
          writes.push(s.update.sql([...s.values(tenantId, next), tenantId, parentId]), ...bumped(s, tenantId))
        }
        writes.push(append.sql([...statements(definition).childValues(tenantId, doc), tenantId, parentId]))
        const type = resourceOf(definition)
        const draft = type === null ? null : changeOf(type, doc.id, null, doc)
        await events.append(ex, tenantId, draft === null ? [] : [draft], write, writes)
        return true
      })
    },

    async delete(collection, tenantId, id, write) {
      const definition = definitionOf(collection)
      checkSeeded(definition, 'delete')
      const s = statements(definition)
      return writes.transaction(db, async (ex) => {
        const deleted = await s.remove.rows([tenantId, id], ex)
        if (deleted.length === 0) return false
        const type = resourceOf(definition)
        const drafts: EventDraft[] =
          type === null ? [] : [{ type: `${type}.deleted`, resource: { type, id }, object: null, previous: null }]
        const writes = [...s.children.map((child) => child.remove.sql([tenantId, id])), ...bumped(s, tenantId)]
        await events.append(ex, tenantId, drafts, write, writes)
        return true
      })
    },

    async findNames(collection, tenantId, ids) {
      const definition = definitionOf(collection)
      checkSeeded(definition, 'findNames')
      if (ids.length === 0) return []
      // The column that copies `name`, when the definition keeps one; else the document's field.
      const column = definition.columns.find((c) => c.field === 'name')
      const name = column === undefined ? sql`doc` : sql.raw(quote(column.name))
      const found = await ctx.rows<{ id: string; name: unknown }>(
        sql`SELECT id, ${name} AS name FROM ${ctx.table(definition.table)}
            WHERE ${ofTenant(tenantId)} AND id IN (${sql.join([...new Set(ids)])})`,
      )
      const byId = new Map(
        found.map((r) => [
          r.id,
          (column === undefined ? parse<{ name?: string | null }>(r.name).name : r.name) ?? null,
        ]),
      )
      return ids.flatMap((id) => (byId.has(id) ? [{ id, name: (byId.get(id) as string | null) ?? null }] : []))
    },
  }
}

/** The resource type of a collection's events, or null when the feed has none. */
const resourceOf = (definition: Definition) => (definition.event?.resource ?? null) as EventResourceType | null

/** The generation bump of a write to a table whose counts are cached under one (none else). */
const bumped = (s: Statements, tenantId: string) => (s.bump === null ? [] : [s.bump.sql([tenantId])])

/**
 * The record as `get` shows it after a write: its get-view over the children in hand (`kept`, by the
 * field each fills) and the counts it needs, read in the write's transaction; the record when none.
 */
async function shown(
  ctx: SqlContext,
  ex: Exec,
  definition: Definition,
  tenantId: string,
  record: Doc,
  kept: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  const view: GetView | null = viewOfGet(definition.view)
  if (view === null) return record
  const needs: Record<string, unknown> = {}
  for (const [name, need] of Object.entries(view.needs))
    needs[name] =
      'children' in need ? kept[need.children.parent!.field] : await countOf(ctx, ex, need, tenantId, record.id)
  return view.show(record, needs)
}

/** How many records of the need's collection have its column equal to `id`. */
async function countOf(ctx: SqlContext, ex: Exec, need: CountNeed, tenantId: string, id: string): Promise<number> {
  const by = sql.raw(quote(need.by))
  const found = await ctx.one<{ n: unknown }>(
    sql`SELECT count(*) AS n FROM ${ctx.table(need.count.table)} WHERE ${ofTenant(tenantId)} AND ${by} = ${id}`,
    ex,
  )
  return Number(found?.n ?? 0)
}
