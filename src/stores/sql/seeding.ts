/**
 * Writing records as rows, derived from the collection definitions: each row is `tenant_id`, the key,
 * the collection's columns, their folded copies, the document and its parts. A seed upserts every
 * collection in one write transaction; a big ticket load on SQLite drops the tickets' indexes and
 * rebuilds them afterwards (one sort per index instead of a million random inserts into each).
 */
import { sql } from 'kysely'
import { budgetLineItems, budgets, SEEDED_COLLECTIONS, tickets } from '../../model/index.js'
import { type CollectionDefinition, foldedName, foldedValue } from '../../model/collection.js'
import type { EventDraft } from '../../model/events.js'
import { SEED_KEYS, type SeedKey } from '../../model/removal.js'
import type { SeedOptions } from '../../ports/store.js'
import { normalizeSeed, type SeedData } from '../../model/seed.js'
import { SYNC_TABLES } from './event-states.js'
import type { SqlEvents } from './events.js'
import type { StoredState } from '../event-views.js'
import type { Engine } from './engine.js'
import { type CompiledStatement, type Exec, ofTenant, type SqlContext } from './context.js'
import { CURRENT } from './migrations/index.js'

/** What rows are built from. */
type RowDefinition<D, S> = Pick<CollectionDefinition<D, S>, 'key' | 'columns' | 'document' | 'parts'>
/** Builds a row: `(tenantId, key values, seeded record)` → the values of {@link rowColumns}. */
type RowBuilder<S> = (tenantId: string, key: readonly unknown[], record: S) => unknown[]
/** What the shape of rows is read from. */
type TableShape = Pick<CollectionDefinition<never, never>, 'table' | 'key' | 'columns' | 'parts'>

/** A collection upserted as it is, keyed by id; the list is heterogeneous, so its record type is erased. */
type PlainDefinition = RowDefinition<unknown, { id: string }> & TableShape & { readonly name: SeedKey }

/** The collections upserted as they are: all but tickets and budgets, loaded apart below. */
const PLAIN_COLLECTIONS = SEEDED_COLLECTIONS.filter(
  (collection) => collection !== tickets && collection !== budgets,
) as unknown as readonly PlainDefinition[]

/**
 * The columns of `collection`'s rows, in row order.
 *
 * @example
 * rowColumns(companies) // ['tenant_id', 'id', 'name', 'created_at', 'updated_at', 'doc']
 */
export function rowColumns(collection: Omit<TableShape, 'table'>): string[] {
  return [
    'tenant_id',
    ...collection.key.map((k) => k.name),
    ...collection.columns.map((c) => c.name),
    ...collection.columns.filter((c) => c.folded).map((c) => foldedName(c.name)),
    'doc',
    ...Object.keys(collection.parts),
  ]
}

/**
 * The row builder of `collection` on `engine`.
 *
 * @example
 * const row = rowBuilder(companies, sqliteEngine)(tenantId, [company.id], company)
 */
export function rowBuilder<D, S>(collection: RowDefinition<D, S>, engine: Engine): RowBuilder<S> {
  const columns = collection.columns
  const booleans = columns.map((c) => c.type === 'boolean')
  const folded = columns.filter((c) => c.folded)
  const parts = Object.values(collection.parts)
  return (tenantId, key, record) => {
    const document = collection.document(record)
    const row: unknown[] = [tenantId, ...key]
    for (let i = 0; i < columns.length; i++) {
      const value = columns[i]!.read(document)
      row.push(booleans[i] ? engine.bool(value as boolean) : value)
    }
    for (const column of folded) row.push(foldedValue(column.read(document)))
    row.push(JSON.stringify(document))
    for (const part of parts) row.push(JSON.stringify(part.read(record)))
    return row
  }
}

/** Rows to write: an array, or a length and a way to build row `i` (a million tickets are not built at once). */
type Rows = unknown[][] | { length: number; at: (i: number) => unknown[] }

/** The upserts compiled for each store, by table and row count: at most {@link MAX_UPSERTS}, then forgotten. */
const upserts = new WeakMap<SqlContext, Map<string, CompiledStatement>>()
/** The upsert statements a store keeps: a full batch's (30,000 values) compiles in tens of ms. */
const MAX_UPSERTS = 64

/**
 * Multi-row upserts of `collection`'s rows in batches (one statement per batch size, compiled once per
 * store: a batch holds up to 30,000 values); a row whose key exists replaces it.
 *
 * @example
 * await upsert(ctx, ex, companies, [row])
 */
export async function upsert(ctx: SqlContext, ex: Exec, collection: TableShape, rows: Rows): Promise<void> {
  if (rows.length === 0) return
  const columns = rowColumns(collection)
  const at = Array.isArray(rows) ? (i: number) => rows[i]! : rows.at
  const perBatch = Math.max(1, Math.floor(30_000 / columns.length))
  let statements = upserts.get(ctx)
  if (statements === undefined) upserts.set(ctx, (statements = new Map()))
  for (let start = 0; start < rows.length; start += perBatch) {
    const batch = Array.from({ length: Math.min(perBatch, rows.length - start) }, (_, i) => at(start + i))
    const key = `${collection.table} ${batch.length}`
    let statement = statements.get(key)
    if (statement === undefined) {
      if (statements.size >= MAX_UPSERTS) statements.clear()
      statements.set(key, (statement = upsertOf(ctx, collection, columns, batch.length)))
    }
    await statement.rows(batch.flat(), ex)
  }
}

/** The upsert of `count` rows of `collection` (`columns` in row order, values row after row). */
function upsertOf(
  ctx: SqlContext,
  collection: TableShape,
  columns: readonly string[],
  count: number,
): CompiledStatement {
  const keys = ['tenant_id', ...collection.key.map((k) => k.name)]
  const refs = (names: readonly string[]) => sql.join(names.map((name) => sql.ref(name)))
  const update = columns.filter((c) => !keys.includes(c)).map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`)
  const onConflict = update.length > 0 ? sql`DO UPDATE SET ${sql.join(update)}` : sql`DO NOTHING`
  const width = columns.length
  return ctx.compiled(count * width, (values) => {
    const tuples = Array.from({ length: count }, (_, i) => sql`(${sql.join(values.slice(i * width, (i + 1) * width))})`)
    return sql`INSERT INTO ${ctx.table(collection.table)} (${refs(columns)}) VALUES ${sql.join(tuples)}
               ON CONFLICT (${refs(keys)}) ${onConflict}`
  })
}

/** Ticket loads at least this big on SQLite drop the ticket indexes first (when not smaller than the table). */
const REBUILD_INDEXES_FROM = 50_000
/**
 * Ticket loads bigger than this run with the engine's bulk-load settings, and a table a seed writes
 * more rows to is analysed where the engine plans from statistics (`Engine.bulkLoad.analyze`).
 */
const BULK_LOAD_FROM = 10_000

/**
 * The store's `seed`: validates and normalises `data`, then upserts every collection in one write
 * transaction and bumps the tenant's ticket generation when tickets were given.
 *
 * @example
 * const seed = createSeeder(ctx, sqlEvents(ctx, EVENT_RETENTION_MS))
 * await seed(tenantId, { companies: [...] })
 */
export function createSeeder(
  ctx: SqlContext,
  events: SqlEvents,
): (tenantId: string, data: SeedData, options?: SeedOptions) => Promise<void> {
  const { engine, table: t } = ctx
  const build = {
    tickets: rowBuilder(tickets, engine),
    budgets: rowBuilder(budgets, engine),
    budgetLineItems: rowBuilder(budgetLineItems, engine),
  }
  const builders = new Map<object, RowBuilder<never>>()

  return async (tenantId, data, options) => {
    const r = normalizeSeed(data)
    const recordEvents = options?.events ?? true
    await engine.writeTransaction(ctx.bulk, async (ex) => {
      // With events, what each seeded record was before (none of this with events: false, a bulk load's choice).
      const before = new Map<SeedKey, Map<string, StoredState>>()
      const idsOf = (key: SeedKey) => r[key].map((record) => record.id)
      if (recordEvents) for (const key of SEED_KEYS) before.set(key, await events.states(ex, tenantId, key, idsOf(key)))
      /** Upserts records keyed by their id. */
      const all = <D, S extends { id: string }>(
        collection: RowDefinition<D, S> & TableShape,
        records: readonly S[],
      ) => {
        let row = builders.get(collection) as RowBuilder<S> | undefined
        if (row === undefined) builders.set(collection, (row = rowBuilder<D, S>(collection, engine)))
        return upsert(
          ctx,
          ex,
          collection,
          records.map((record) => row(tenantId, [record.id], record)),
        )
      }
      const bulk = r.tickets.length > BULK_LOAD_FROM
      if (bulk) for (const statement of engine.bulkLoad.before) await sql.raw(statement).execute(ex)
      // A load at least as big as the table, where the engine says so (engine.ts), rebuilds the indexes after.
      let rebuild = false
      if (engine.bulkLoad.rebuildIndexes && r.tickets.length >= REBUILD_INDEXES_FROM) {
        const existing = Number(
          (await ctx.one<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${t('tickets')}`, ex))?.n ?? 0,
        )
        rebuild = r.tickets.length >= existing
      }
      const indexes = CURRENT.ticketIndexStatements(engine.name, ctx.tableName)
      if (rebuild) for (const statement of indexes.drop) await sql.raw(statement).execute(ex)
      if (r.tickets.length > 0) {
        await upsert(ctx, ex, tickets, {
          length: r.tickets.length,
          at: (i) => build.tickets(tenantId, [r.tickets[i]!.id], r.tickets[i]!),
        })
        if (rebuild) for (const statement of indexes.create) await sql.raw(statement).execute(ex)
        await sql`INSERT INTO ${t('ticket_generations')} AS cur (tenant_id, generation) VALUES (${tenantId}, 1)
                  ON CONFLICT (tenant_id) DO UPDATE SET generation = cur.generation + 1`.execute(ex)
      }
      if (bulk) for (const statement of engine.bulkLoad.after) await sql.raw(statement).execute(ex)
      for (const budget of r.budgets) {
        await upsert(ctx, ex, budgets, [build.budgets(tenantId, [budget.id], budget)])
        await sql`DELETE FROM ${t(budgetLineItems.table)}
                  WHERE ${ofTenant(tenantId)} AND budget_id = ${budget.id}`.execute(ex)
        await upsert(
          ctx,
          ex,
          budgetLineItems,
          budget.lineItems.map((item, i) => build.budgetLineItems(tenantId, [budget.id, i + 1], item)),
        )
      }
      for (const collection of PLAIN_COLLECTIONS) await all<unknown, { id: string }>(collection, r[collection.name])
      if (engine.bulkLoad.analyze) {
        // Before the read-back below and the pages after: a big load on stale statistics is planned as small.
        for (const key of SEED_KEYS)
          if (r[key].length > BULK_LOAD_FROM) await sql`ANALYZE ${t(SYNC_TABLES[key])}`.execute(ex)
      }
      if (recordEvents) {
        const drafts: EventDraft[] = []
        // One push per draft: spreading a seed's worth of drafts as arguments overflows the stack.
        for (const [key, states] of before)
          for (const draft of await events.changes(ex, tenantId, key, idsOf(key), states)) drafts.push(draft)
        await events.append(ex, tenantId, drafts)
      }
    })
  }
}
