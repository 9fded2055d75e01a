/**
 * Writing records as rows, derived from the collection definitions: each row is the tenant, the key,
 * the collection's columns, their folded copies, the document and its parts (`rowColumns`, schema.ts).
 * A seed upserts every collection in one write transaction, each with the children its records carry
 * (a budget's line items: `childTables`), and bumps the tenant's generation of every collection that
 * keeps one; a load at least as big as its table, on an engine that rebuilds indexes, drops the table's
 * indexes and rebuilds them afterwards (one sort per index instead of a million random inserts into each).
 */
import { sql } from 'kysely'
import { SEEDED_COLLECTIONS } from '../../model/index.js'
import { type CollectionDefinition, foldedValue } from '../../model/collection.js'
import type { EventDraft } from '../../model/events.js'
import { SEED_KEYS, type SeedKey } from '../../model/removal.js'
import type { SeedOptions } from '../../ports/store.js'
import { normalizeSeedRecords, type SeedData } from '../../model/seed.js'
import { definitionOf, type ErasedDefinition } from '../typed-records.js'
import type { SqlEvents } from './events.js'
import type { StoredState } from '../event-views.js'
import type { Engine } from './engine.js'
import { type CompiledStatement, type Exec, insertOfTenant, type SqlContext } from './context.js'
import { bumpGeneration, deleteIds } from './removing.js'
import { childTables, indexRebuild, rowColumns } from './schema.js'

/** What rows are built from. */
type RowDefinition<D, S> = Pick<CollectionDefinition<D, S>, 'key' | 'columns' | 'document' | 'parts'>
/** Builds a row: `(tenantId, key values, seeded record)` → the values of {@link rowColumns}. */
type RowBuilder<S> = (tenantId: string, key: readonly unknown[], record: S) => unknown[]
/** What the shape of rows is read from. */
type TableShape = Pick<CollectionDefinition<never, never>, 'table' | 'key' | 'columns' | 'parts'>

/** A seeded collection, keyed by id; the list is heterogeneous, so its record type is erased. */
type SeededDefinition = ErasedDefinition

/** Every seeded collection, in the order seeds write them (`COLLECTIONS`'). */
const SEEDED: readonly SeededDefinition[] = SEEDED_COLLECTIONS.map(definitionOf)

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
      row.push(booleans[i] ? engine.fragments.bool(value as boolean) : value)
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
  const key = collection.key.map((k) => k.name)
  // The row's columns after its tenant's (`rowColumns` puts the tenant first), and those after its key.
  const own = columns.slice(1)
  const update = own.filter((c) => !key.includes(c)).map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`)
  const set = update.length > 0 ? sql.join(update) : null
  const width = columns.length
  return ctx.compiled(count * width, (values) => {
    const tuples = Array.from({ length: count }, (_, i) => sql`(${sql.join(values.slice(i * width, (i + 1) * width))})`)
    return insertOfTenant(ctx.table(collection.table), own, sql`VALUES ${sql.join(tuples)}`, { key, set })
  })
}

/** Loads at least this big, where the engine rebuilds indexes, drop the table's first (when not smaller than it). */
const REBUILD_INDEXES_FROM = 50_000
/**
 * Loads bigger than this run with the engine's bulk-load settings, and a table a seed writes more rows to
 * is analysed where the engine plans from statistics (`EngineCapabilities.plansFromStatistics`).
 */
const BULK_LOAD_FROM = 10_000

/** A seeded record, as far as the seed reads it: its id, and its children's lists by field. */
type SeededRecord = { id: string } & Readonly<Record<string, unknown>>

/**
 * Whether a load of `count` rows into `collection` drops and rebuilds its indexes: where the engine says
 * so (engine.ts), for a load at least as big as the table.
 */
async function rebuilds(ctx: SqlContext, ex: Exec, collection: SeededDefinition, count: number): Promise<boolean> {
  if (!ctx.engine.capabilities.rebuildsIndexes || count < REBUILD_INDEXES_FROM || collection.indexes.length === 0)
    return false
  const existing = await ctx.one<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${ctx.table(collection.table)}`, ex)
  return count >= Number(existing?.n ?? 0)
}

/** Upserts `records` of `collection` for the tenant, rebuilding its indexes around a load that calls for it. */
async function load(
  ctx: SqlContext,
  ex: Exec,
  collection: SeededDefinition,
  row: RowBuilder<SeededRecord>,
  tenantId: string,
  records: readonly SeededRecord[],
): Promise<void> {
  const rebuild = (await rebuilds(ctx, ex, collection, records.length))
    ? indexRebuild(collection, ctx.engine, ctx.tableName)
    : null
  if (rebuild !== null) for (const statement of rebuild.drop) await sql.raw(statement).execute(ex)
  await upsert(ctx, ex, collection, { length: records.length, at: (i) => row(tenantId, [records[i]!.id], records[i]!) })
  if (rebuild !== null) for (const statement of rebuild.create) await sql.raw(statement).execute(ex)
}

/**
 * Replaces the children of the seeded `parents` (a budget's line items): each child collection's rows
 * of those parents are deleted, then its records, from the parents' field, inserted in order.
 */
async function loadChildren(
  ctx: SqlContext,
  ex: Exec,
  collection: SeededDefinition,
  rowOf: (definition: object) => RowBuilder<SeededRecord>,
  tenantId: string,
  parents: readonly SeededRecord[],
): Promise<void> {
  for (const child of childTables(collection)) {
    const table = child.collection.table
    await deleteIds(
      ctx,
      ex,
      table,
      child.parentColumn,
      tenantId,
      parents.map((parent) => parent.id),
    )
    const row = rowOf(child.collection)
    const rows = parents.flatMap((parent) =>
      ((parent[child.field] ?? []) as readonly SeededRecord[]).map((item, i) =>
        row(tenantId, [parent.id, i + 1], item),
      ),
    )
    await upsert(ctx, ex, child.collection, rows)
  }
}

/**
 * The store's `seed`: validates and normalises `data`, then upserts every collection and its children in
 * one write transaction and bumps the tenant's generation of each that keeps one.
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
  const builders = new Map<object, RowBuilder<SeededRecord>>()
  const rowOf = (definition: object) => {
    let row = builders.get(definition)
    if (row === undefined)
      builders.set(definition, (row = rowBuilder(definition as RowDefinition<unknown, SeededRecord>, engine)))
    return row
  }

  return async (tenantId, data, options) => {
    const r: Readonly<Record<SeedKey, readonly SeededRecord[]>> = normalizeSeedRecords(data)
    const recordEvents = options?.events ?? true
    await ctx.writes.transaction(ctx.bulk, async (ex) => {
      // With events, what each seeded record was before (none of this with events: false, a bulk load's choice).
      const before = new Map<SeedKey, Map<string, StoredState>>()
      const idsOf = (key: SeedKey) => r[key].map((record) => record.id)
      if (recordEvents) for (const key of SEED_KEYS) before.set(key, await events.states(ex, tenantId, key, idsOf(key)))
      const bulk = SEEDED.some((collection) => r[collection.name].length > BULK_LOAD_FROM)
      if (bulk) for (const statement of engine.fragments.bulkLoad.before) await sql.raw(statement).execute(ex)
      for (const collection of SEEDED) {
        const records = r[collection.name]
        if (records.length === 0) continue
        await load(ctx, ex, collection, rowOf(collection), tenantId, records)
        await loadChildren(ctx, ex, collection, rowOf, tenantId, records)
        await bumpGeneration(ctx, ex, collection, tenantId)
      }
      if (bulk) for (const statement of engine.fragments.bulkLoad.after) await sql.raw(statement).execute(ex)
      if (engine.capabilities.plansFromStatistics) {
        // Before the read-back below and the pages after: a big load on stale statistics is planned as small.
        for (const collection of SEEDED)
          if (r[collection.name].length > BULK_LOAD_FROM) await sql`ANALYZE ${t(collection.table)}`.execute(ex)
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
