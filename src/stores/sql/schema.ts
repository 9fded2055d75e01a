/**
 * The SQL schema as the store reads it, in one place: each collection's table and row columns, its
 * child collections and the key column that points at their parent, which tables keep a per-tenant
 * generation counter, SQLite's FTS5 tables, and the index statements a bulk load drops and rebuilds.
 * Derived from `COLLECTIONS`; the two facts only a frozen migration states (which table has a
 * generation counter, the name of 0001's FTS table) are stated here once, and
 * test/stores/migrations.test.ts checks every fact against a migrated database. The runtime reads this
 * module, never `migrations/` (only the migrator runs those).
 */
import { type CollectionDefinition, foldedName } from '../../model/collection.js'
import { COLLECTIONS } from '../../model/index.js'
import { quote, TENANT_COLUMN, type TableNamer } from './context.js'
import type { Engine, FtsTable } from './engine.js'

/** What the schema reads of a definition. */
type SchemaDefinition = Pick<CollectionDefinition<never, never>, 'name' | 'table' | 'key' | 'columns' | 'parts'>

/**
 * The tables that keep a per-tenant generation counter (`(tenant_id, generation)`), by the table they
 * count: every seed or removal of the counted table's rows bumps the tenant's generation, so a list's
 * count is cached under it (queries.ts). Migration 0001 made the one there is.
 */
const GENERATION_TABLES: Readonly<Record<string, string>> = { tickets: 'ticket_generations' }

/** The FTS5 tables migrations named otherwise than `<table>_fts`, by the table they index (0001's). */
const FTS_TABLE_NAMES: Readonly<Record<string, string>> = { tickets: 'ticket_fts' }

/**
 * The table of `collection`'s per-tenant generation counter, or null when its counts are not cached.
 *
 * @example
 * generationTable(tickets) // 'ticket_generations'
 */
export function generationTable(collection: Pick<SchemaDefinition, 'table'>): string | null {
  return GENERATION_TABLES[collection.table] ?? null
}

/**
 * The SQLite FTS5 table over `collection`'s trigram search (external content, kept by triggers), or null
 * when it has none: one per collection whose search is trigram, over its first searched column's folded
 * copy (Postgres serves the same search with a pg_trgm index on that column).
 *
 * @example
 * ftsOf(tickets) // { table: 'ticket_fts', column: 'title_f' }
 */
export function ftsOf(collection: Pick<CollectionDefinition<never, never>, 'table' | 'search'>): FtsTable | null {
  const search = collection.search
  const first = search?.columns[0]
  if (search === null || !search.trigram || first === undefined) return null
  return { table: FTS_TABLE_NAMES[collection.table] ?? `${collection.table}_fts`, column: foldedName(first) }
}

/**
 * The columns of `collection`'s rows, in row order: the tenant, the key, the columns, their folded copies,
 * the document, the parts.
 *
 * @example
 * rowColumns(companies) // ['tenant_id', 'id', 'name', 'created_at', 'updated_at', 'doc']
 */
export function rowColumns(collection: Pick<SchemaDefinition, 'key' | 'columns' | 'parts'>): string[] {
  return [
    TENANT_COLUMN,
    ...collection.key.map((k) => k.name),
    ...collection.columns.map((c) => c.name),
    ...collection.columns.filter((c) => c.folded).map((c) => foldedName(c.name)),
    'doc',
    ...Object.keys(collection.parts),
  ]
}

/**
 * The primary key of `collection`'s rows: the tenant, then its key.
 *
 * @example
 * primaryKey(budgetLineItems) // ['tenant_id', 'budget_id', 'seq']
 */
export function primaryKey(collection: Pick<SchemaDefinition, 'key'>): string[] {
  return [TENANT_COLUMN, ...collection.key.map((k) => k.name)]
}

/** Any collection. */
type Collection = (typeof COLLECTIONS)[number]

/**
 * A collection kept under another's records (its `parent`), as its rows hold it: the first key column
 * is its parent's id, the rest its order among its parent's children (a line item's `seq`, from 1).
 */
export interface ChildTable {
  readonly collection: Extract<Collection, { readonly parent: { readonly field: string } }>
  /** The parent record's field that carries the children in seeds and event objects. */
  readonly field: string
  /** The key column that holds the parent's id. */
  readonly parentColumn: string
  /** The key columns that order a parent's children. */
  readonly order: readonly string[]
}

const CHILDREN = new Map<string, ChildTable[]>()
for (const collection of COLLECTIONS) {
  if (collection.parent === null) continue
  const [parentKey, ...order] = collection.key.map((k) => k.name)
  if (parentKey === undefined || order.length === 0)
    throw new TypeError(`${collection.name}: a child's key is its parent's id, then its order`)
  const child: ChildTable = {
    collection: collection as ChildTable['collection'],
    field: collection.parent.field,
    parentColumn: parentKey,
    order,
  }
  const siblings = CHILDREN.get(collection.parent.collection) ?? []
  CHILDREN.set(collection.parent.collection, [...siblings, child])
}

/**
 * The child collections kept under `collection`'s records (a budget's line items), in `COLLECTIONS` order.
 *
 * @example
 * childTables(budgets) // [{ collection: budgetLineItems, field: 'lineItems', parentColumn: 'budget_id', ... }]
 */
export function childTables(collection: Pick<SchemaDefinition, 'name'>): readonly ChildTable[] {
  return CHILDREN.get(collection.name) ?? []
}

/**
 * The statements that drop `collection`'s secondary indexes (and stop its FTS table's insert trigger)
 * before a bulk load, and make them again after it, named and written as the migrations name and write
 * them (`<table>_<columns>`, `_desc` for a descending column). Only engines that rebuild indexes run
 * them (`EngineCapabilities.rebuildsIndexes`).
 *
 * @example
 * const { drop, create } = indexRebuild(tickets, sqliteEngine, ctx.tableName)
 */
export function indexRebuild(
  collection: Pick<CollectionDefinition<never, never>, 'table' | 'key' | 'indexes' | 'search'>,
  engine: Engine,
  table: TableNamer,
): { drop: string[]; create: string[] } {
  const keys = new Set(primaryKey(collection))
  const indexes = collection.indexes.map((index) => {
    const name = `${collection.table}_${index.map((c) => c.replace(' DESC', '_desc')).join('_')}`
    const terms = index.map((c) => engine.fragments.indexTerm(c, keys.has(c.split(' ')[0]!)))
    return {
      name,
      create: `CREATE INDEX IF NOT EXISTS ${quote(name)} ON ${table(collection.table)} (${terms.join(', ')})`,
    }
  })
  const fts = ftsOf(collection)
  const search = fts === null ? { drop: [], create: [] } : engine.fragments.ftsRebuild(collection.table, fts)
  return {
    drop: [...indexes.map((i) => `DROP INDEX IF EXISTS ${quote(i.name)}`), ...search.drop],
    create: [...indexes.map((i) => i.create), ...search.create],
  }
}
