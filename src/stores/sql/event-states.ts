/**
 * Records as change detection sees them (docs/extensions.md, section 3): a write reads the stored
 * state of what it changes before and after, and the difference is its events. A state is the
 * record's stored text (equal text, no change: its document, its parts and its children's documents,
 * as the definitions say, like the memory store's) and its event view, with what the view names (a
 * company's or report type's name, a course's enrollment count) read in the same transaction. No
 * collection is named here: parts come from `parts`, children from `childTables` (schema.ts).
 */
import { sql } from 'kysely'
import { type CountNeed, namedIds, type Names, type NamesNeed, type ViewNeed } from '../../model/collection.js'
import type { EventDraft } from '../../model/events.js'
import { SEEDED_COLLECTIONS, type SeededCollection } from '../../model/index.js'
import type { SeedKey } from '../../model/removal.js'
import { EVENT_RESOURCE_OF, eventView, type StoredState, syncChange, type ViewLookups } from '../event-views.js'
import { type Exec, ofTenant, parse, quote, type SqlContext } from './context.js'
import { childTables } from './schema.js'

/** The seeded collection of each seed key. */
const BY_KEY = new Map<SeedKey, SeededCollection>(SEEDED_COLLECTIONS.map((c) => [c.name, c]))

/** Ids per statement: well under SQLite's 32,766 bound parameters. */
export const IDS_PER_STATEMENT = 500

/** A record in hand, as change detection reads it: its document and its stored text. */
export interface StoredDoc {
  doc: Record<string, unknown>
  /** The stored text (document and parts): equal text, no change. */
  text: string
}

type Doc = Record<string, unknown>

/** How the SQL store reads records' states and turns their changes into event drafts. */
export interface SqlEventStates {
  /** The stored states of `ids` of `key` (absent ids are missing from the map). */
  states(ex: Exec, tenantId: string, key: SeedKey, ids: readonly string[]): Promise<Map<string, StoredState>>
  /** The drafts of the changes of `ids` of `key` from `before` to what `ex` sees now. */
  changes(
    ex: Exec,
    tenantId: string,
    key: SeedKey,
    ids: readonly string[],
    before: Map<string, StoredState>,
  ): Promise<EventDraft[]>
  /**
   * The states of records in hand of `key` (in order; the same id may come twice, before and
   * after), reading only what their views name (companies, report types, enrollments).
   */
  describe(ex: Exec, tenantId: string, key: SeedKey, records: readonly StoredDoc[]): Promise<StoredState[]>
}

/** Runs `query` on `ids` in batches and concatenates the rows. */
async function batched<R>(ids: readonly string[], query: (batch: readonly string[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = []
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT)
    out.push(...(await query(ids.slice(start, start + IDS_PER_STATEMENT))))
  return out
}

/** `{ id → name }` of the tenant's rows of `table` among `ids` (companies, report types). */
async function names(
  ctx: SqlContext,
  ex: Exec,
  tenantId: string,
  table: string,
  ids: Set<string>,
): Promise<Map<string, string | null>> {
  const found = await batched([...ids], (batch) =>
    ctx.rows<{ id: string; doc: string }>(
      sql`SELECT id, doc FROM ${ctx.table(table)} WHERE ${ofTenant(tenantId)} AND id IN (${sql.join(batch)})`,
      ex,
    ),
  )
  return new Map(found.map((row) => [row.id, parse<{ name: string | null }>(row.doc).name]))
}

/**
 * The stored records of `ids` of `key`, by id: each its document, with its children's lists in the
 * fields its child collections name (a budget's `lineItems`), and its stored text (the document, its
 * parts, its children's documents).
 */
async function records(ctx: SqlContext, ex: Exec, tenantId: string, key: SeedKey, ids: readonly string[]) {
  const { table: t, rows } = ctx
  const collection = BY_KEY.get(key)!
  const parts = Object.keys(collection.parts).map((column, i) => sql`, ${sql.ref(column)} AS ${sql.raw(`p${i}`)}`)
  const found = await batched([...new Set(ids)], (batch) =>
    rows<Record<string, string>>(
      sql`SELECT id, doc${sql.join(parts, sql``)} FROM ${t(collection.table)}
          WHERE ${ofTenant(tenantId)} AND id IN (${sql.join(batch)})`,
      ex,
    ),
  )
  const byId = new Map<string, StoredDoc>(
    found.map((row) => [
      row.id!,
      { doc: parse<Doc>(row.doc), text: parts.reduce((text, _, i) => text + (row[`p${i}`] ?? ''), row.doc!) },
    ]),
  )
  for (const child of childTables(collection)) {
    if (byId.size === 0) break
    const parent = sql.ref(child.parentColumn)
    const order = sql.join([child.parentColumn, ...child.order].map((column) => sql.ref(column)))
    const items = await batched([...byId.keys()], (batch) =>
      rows<{ parent: string; doc: string }>(
        sql`SELECT ${parent} AS parent, doc FROM ${t(child.collection.table)}
            WHERE ${ofTenant(tenantId)} AND ${parent} IN (${sql.join(batch)}) ORDER BY ${order}`,
        ex,
      ),
    )
    for (const record of byId.values()) record.doc = { ...record.doc, [child.field]: [] }
    for (const item of items) {
      const record = byId.get(item.parent)!
      ;(record.doc[child.field] as Doc[]).push(parse<Doc>(item.doc))
      record.text += item.doc
    }
  }
  return byId
}

/** `SqlEventStates.describe` on `ctx`: the needs of the key's view, read for all of `records` at once. */
async function describe(
  ctx: SqlContext,
  ex: Exec,
  tenantId: string,
  key: SeedKey,
  records: readonly StoredDoc[],
): Promise<StoredState[]> {
  const collection = BY_KEY.get(key)!
  const named = new Map<NamesNeed, Names>()
  const counted = new Map<CountNeed, Map<string, number>>()
  for (const need of Object.values<ViewNeed>(collection.view?.needs ?? {})) {
    if ('names' in need) {
      const ids = new Set(records.flatMap(({ doc }) => namedIds(need, doc)))
      named.set(need, ids.size > 0 ? await names(ctx, ex, tenantId, need.names.table, ids) : new Map())
    } else if ('count' in need) {
      const by = sql.raw(quote(need.by))
      const found = await batched([...new Set(records.map((r) => r.doc.id as string))], (batch) =>
        ctx.rows<{ id: string; n: unknown }>(
          sql`SELECT ${by} AS id, count(*) AS n FROM ${ctx.table(need.count.table)}
              WHERE ${ofTenant(tenantId)} AND ${by} IN (${sql.join(batch)}) GROUP BY ${by}`,
          ex,
        ),
      )
      counted.set(need, new Map(found.map((row) => [row.id, Number(row.n)])))
    }
  }
  const lookups: ViewLookups = {
    count: (need, id) => counted.get(need)?.get(id) ?? 0,
    names: (need) => named.get(need) ?? new Map(),
  }
  return records.map(({ doc, text }) => ({ fingerprint: text, view: eventView(key, doc, lookups) }))
}

/** `SqlEventStates.states` on `ctx`. */
async function states(ctx: SqlContext, ex: Exec, tenantId: string, key: SeedKey, ids: readonly string[]) {
  const out = new Map<string, StoredState>()
  if (ids.length === 0 || EVENT_RESOURCE_OF[key] === null) return out
  const found = await records(ctx, ex, tenantId, key, ids)
  if (found.size === 0) return out
  const described = await describe(ctx, ex, tenantId, key, [...found.values()])
  let i = 0
  for (const id of found.keys()) out.set(id, described[i++]!)
  return out
}

/**
 * The state reads of the store on `ctx`.
 *
 * @example
 * const before = await sqlEventStates(ctx).states(ex, tenantId, 'companies', [id])
 */
export function sqlEventStates(ctx: SqlContext): SqlEventStates {
  return {
    states: (ex, tenantId, key, ids) => states(ctx, ex, tenantId, key, ids),
    describe: (ex, tenantId, key, found) => describe(ctx, ex, tenantId, key, found),
    async changes(ex, tenantId, key, ids, before) {
      const type = EVENT_RESOURCE_OF[key]
      if (type === null || ids.length === 0) return []
      const after = await states(ctx, ex, tenantId, key, ids)
      const drafts: EventDraft[] = []
      for (const id of new Set(ids)) {
        const draft = syncChange(type, id, before.get(id) ?? null, after.get(id) ?? null)
        if (draft !== null) drafts.push(draft)
      }
      return drafts
    },
  }
}
