/**
 * Compare-and-set on the SQL store (`replaceVersioned`): the records of a collection with a `version`
 * column (automation rules, reports) are replaced only while their stored version is the one
 * expected, each with its event in the same transaction. The statements are derived from the
 * collection's definition; the stored text of the records this store last read or wrote is kept
 * (`KnownTexts`), so that a replace of a record it handed out needs no locked read.
 */
import { type RawBuilder, sql } from 'kysely'
import type { CollectionDefinition } from '../../model/collection.js'
import type { WriteContext } from '../../model/events.js'
import type { Store } from '../../ports/store.js'
import { EVENT_RESOURCE_OF, syncChange } from '../event-views.js'
import { type Doc, definitionOf, docOf, type ErasedDefinition } from '../typed-records.js'
import { type CompiledStatement, type Exec, json, ofTenant, parse, quote, type SqlContext } from './context.js'
import type { SqlEvents, StoredDoc } from './events.js'
import { rowColumns } from './schema.js'
import { rowBuilder, upsert } from './seeding.js'

/** How many versioned records' texts a store remembers for its compare-and-set (see {@link KnownTexts}). */
const MAX_KNOWN_TEXTS = 2_000

/** The column that holds a versioned record's `version` (the port's `VersionedCollection`). */
const VERSION_COLUMN = 'version'

/** A versioned record: what compare-and-set reads of it (the port's `VersionedCollection` says it has one). */
type Versioned = Doc & { readonly version: number }

/** A versioned collection, its record type erased. */
type VersionedDefinition = ErasedDefinition

/**
 * What another part of the store does in the transaction that inserts a record of a collection (a
 * webhook endpoint's: src/stores/sql/webhooks.ts).
 */
export interface InsertCompanion {
  /**
   * Runs first, and serialises the inserts of one tenant, so that counting the tenant's records against
   * the definition's `maxPerTenant` and inserting are one atomic step on Postgres too (SQLite's `BEGIN
   * IMMEDIATE` already serialises writers): a collection with a maximum needs one.
   */
  lock(ex: Exec, tenantId: string): Promise<void>
  /** Runs after the insert. */
  inserted(ex: Exec, tenantId: string, id: string): Promise<void>
}

/** The insert companions of a store, by collection name. */
export type InsertCompanions = Readonly<Partial<Record<string, InsertCompanion>>>

/**
 * Whether `definition`'s records are replaced by compare-and-set: they keep their `version` in a column.
 *
 * @example
 * isVersioned(automationRules) // true
 */
export function isVersioned(definition: Pick<CollectionDefinition<never, never>, 'columns'>): boolean {
  return definition.columns.some((c) => c.name === VERSION_COLUMN)
}

/**
 * The stored text and version of the versioned records this store last read or wrote, by table,
 * tenant and id, for the compare-and-set guarded by that text (no locked read of the row). At most
 * {@link MAX_KNOWN_TEXTS} entries (like `parseDoc`'s cache, sharing its strings), forgotten all at
 * once when full. An entry may be stale (another process wrote the row): the guarded update then
 * changes nothing and the locked transaction decides.
 */
export interface KnownTexts {
  know(table: string, tenantId: string, id: string, version: number, text: string): void
  forget(table: string, tenantId: string, id: string): void
  get(table: string, tenantId: string, id: string): { version: number; text: string } | undefined
}

/**
 * An empty {@link KnownTexts}.
 *
 * @example
 * const known = knownTexts()
 * known.know('reports', tenantId, id, 3, text)
 */
export function knownTexts(): KnownTexts {
  const texts = new Map<string, { version: number; text: string }>()
  const keyOf = (table: string, tenantId: string, id: string) => `${table}\u0000${tenantId}\u0000${id}`
  return {
    know(table, tenantId, id, version, text) {
      const key = keyOf(table, tenantId, id)
      if (texts.size >= MAX_KNOWN_TEXTS && !texts.has(key)) texts.clear()
      texts.set(key, { version, text })
    },
    forget: (table, tenantId, id) => void texts.delete(keyOf(table, tenantId, id)),
    get: (table, tenantId, id) => texts.get(keyOf(table, tenantId, id)),
  }
}

/** The statements of one versioned collection and how its rows are built. */
interface VersionedStatements {
  /** The row of a record: the values of `rowColumns`. */
  row: (tenantId: string, key: readonly unknown[], record: Versioned) => unknown[]
  /** How many leading values of a row (tenant and key) the updates leave out. */
  skip: number
  /** Where the row's `doc` is among the updated values. */
  docIndex: number
  /** The version and doc of a record (tenant, id), locked until the transaction ends. */
  readLocked: CompiledStatement
  /** The update of a record: the updated values, then tenant and id. */
  update: CompiledStatement
  /** The update guarded by version and text: the updated values, tenant, id, version and stored text. */
  guarded: CompiledStatement
  /** The update guarded by version alone (a collection without events): the updated values, tenant, id, version. */
  swap: CompiledStatement
  /** How many records the tenant has (against `maxPerTenant`). */
  count: CompiledStatement
}

/**
 * The statements of a versioned collection, compiled once (`ctx.compiled`): its read locked until the
 * transaction ends, and its update (to the columns after the key, in `rowColumns` order) plain and
 * guarded by version and stored text.
 *
 * @example
 * const { readLocked } = versionedStatements(ctx, reports)
 * const [current] = await readLocked.rows([tenantId, id], ex)
 */
function versionedStatements(ctx: SqlContext, definition: VersionedDefinition): VersionedStatements {
  const table = ctx.table(definition.table)
  const skip = 1 + definition.key.length
  const columns = rowColumns(definition).slice(skip)
  const version = sql.raw(VERSION_COLUMN)
  /** The update of `values` (one per column, then tenant and id). */
  const update = (values: readonly RawBuilder<unknown>[]) => {
    const set = columns.map((column, i) => sql`${sql.raw(quote(column))} = ${values[i]}`)
    const [tenant, id] = values.slice(columns.length)
    return sql`UPDATE ${table} SET ${sql.join(set)} WHERE ${ofTenant(tenant!)} AND id = ${id}`
  }
  return {
    row: rowBuilder(definition, ctx.engine),
    skip,
    docIndex: columns.indexOf('doc'),
    readLocked: ctx.compiled(
      2,
      ([tenant, id]) =>
        sql`SELECT ${version}, doc FROM ${table}
            WHERE ${ofTenant(tenant)} AND id = ${id}${sql.raw(ctx.engine.fragments.forUpdate)}`,
    ),
    update: ctx.compiled(columns.length + 2, update),
    guarded: ctx.compiled(columns.length + 4, (values) => {
      const [expected, text] = values.slice(columns.length + 2)
      return sql`${update(values)} AND ${version} = ${expected} AND doc = ${text} RETURNING id`
    }),
    swap: ctx.compiled(
      columns.length + 3,
      (values) => sql`${update(values)} AND ${version} = ${values[columns.length + 2]} RETURNING id`,
    ),
    count: ctx.compiled(1, ([tenant]) => sql`SELECT count(*) AS n FROM ${table} WHERE ${ofTenant(tenant)}`),
  }
}

/**
 * A new record: upserted (with its event, where its collection has events), its row built by
 * `statements`, and what `companion` does with it; false, inserting nothing, when the tenant has
 * the definition's `maxPerTenant` records already.
 *
 * @example
 * await insertVersioned(ctx, events, versionedStatements(ctx, reports), reports, tenantId, report, write)
 */
async function insertVersioned(
  ctx: SqlContext,
  events: SqlEvents,
  statements: VersionedStatements,
  definition: VersionedDefinition,
  tenantId: string,
  record: Versioned,
  write: WriteContext | undefined,
  companion: InsertCompanion | undefined,
): Promise<boolean> {
  const row = statements.row(tenantId, [record.id], record)
  return ctx.writes.transaction(ctx.db, async (ex) => {
    await companion?.lock(ex, tenantId)
    if (definition.maxPerTenant !== null) {
      const [counted] = await statements.count.rows<{ n: unknown }>([tenantId], ex)
      if (Number(counted?.n ?? 0) >= definition.maxPerTenant) return false
    }
    if (definition.event === null) await upsert(ctx, ex, definition, [row])
    else await insertWithEvent(ctx, events, ex, definition, tenantId, record, row, write)
    await companion?.inserted(ex, tenantId, record.id)
    return true
  })
}

/** The insert of `row` on `ex` with its event (the state before is whatever the id held: nothing, for a fresh id). */
async function insertWithEvent(
  ctx: SqlContext,
  events: SqlEvents,
  ex: Exec,
  definition: VersionedDefinition,
  tenantId: string,
  record: Versioned,
  row: unknown[],
  write: WriteContext | undefined,
): Promise<void> {
  const before = await events.states(ex, tenantId, definition.name, [record.id])
  await upsert(ctx, ex, definition, [row])
  // The state after is the record in hand (the row's `doc` is its document's JSON).
  const text = json(definition.document(record))
  const [after] = await events.describe(ex, tenantId, definition.name, [{ doc: parse(text), text }])
  const draft = syncChange(EVENT_RESOURCE_OF[definition.name]!, record.id, before.get(record.id) ?? null, after!)
  await events.append(ex, tenantId, draft === null ? [] : [draft], write)
}

/**
 * The store's `replaceVersioned` over `ctx`, recording events through `events`, its compare-and-set
 * guarded by the texts in `known` (which `get` fills as it hands versioned records out).
 *
 * @example
 * const replaceVersioned = versionedReplace(ctx, events, known)
 * await replaceVersioned(reports, tenantId, next, current.version)
 */
export function versionedReplace(
  ctx: SqlContext,
  events: SqlEvents,
  known: KnownTexts,
  companions: InsertCompanions = {},
): Store['replaceVersioned'] {
  const { db, writes } = ctx
  const made = new Map<string, VersionedStatements>()
  const statementsOf = (definition: VersionedDefinition) => {
    let found = made.get(definition.table)
    if (found === undefined) {
      if (definition.maxPerTenant !== null && companions[definition.name] === undefined)
        throw new TypeError(`${definition.name}: a maximum per tenant needs an insert companion's lock`)
      made.set(definition.table, (found = versionedStatements(ctx, definition)))
    }
    return found
  }

  /**
   * Compare-and-set: rewrites the record's row only while its stored `version` is `expected`, and
   * records its event (the state before is the stored document replaced, the state after the
   * record in hand). When the store knows the row's text at `expected` (it handed the record out,
   * `known`), the update is guarded by that text, so the state it replaces needs no read: on
   * Postgres the guarded update and its event are one autocommit statement; on SQLite the guarded
   * update comes first in the write transaction. Otherwise, or when the guard misses (another
   * writer, a seed, a stale entry), the transaction reads the row locked and decides.
   */
  async function replace(
    definition: VersionedDefinition,
    tenantId: string,
    record: Versioned,
    expected: number,
    write: WriteContext | undefined,
  ): Promise<boolean> {
    const statements = statementsOf(definition)
    const values = statements.row(tenantId, [record.id], record).slice(statements.skip)
    // No events: the update guarded by the version is the whole compare-and-set.
    if (definition.event === null)
      return (await statements.swap.rows([...values, tenantId, record.id, expected])).length > 0
    // The row's new `doc`, stringified once. Change detection reads the document itself as the state
    // after, not its text parsed again: a record is plain JSON data, and it compares values as their
    // JSON (`sameJson`), so both give the same event.
    const text = values[statements.docIndex] as string
    const after: StoredDoc = { doc: definition.document(record), text }
    /** The draft of the change from the stored document `stored` to the record, read through `ex`. */
    const draftFrom = async (ex: Exec, stored: string) => {
      const [before, now] = await events.describe(ex, tenantId, definition.name, [
        { doc: parse(stored), text: stored },
        after,
      ])
      const draft = syncChange(EVENT_RESOURCE_OF[definition.name]!, record.id, before!, now!)
      return draft === null ? [] : [draft]
    }
    const held = known.get(definition.table, tenantId, record.id)
    const guard = held?.version === expected ? [...values, tenantId, record.id, expected, held.text] : undefined
    if (guard !== undefined && writes.guarded !== null) {
      // Company and report type names are read first, outside any transaction, as the locked path
      // reads them (unlocked, under READ COMMITTED): an event names what they were at the write.
      const drafts = await draftFrom(db, held!.text)
      if (await events.appendIf(tenantId, drafts, write, { name: 'changed', write: statements.guarded.sql(guard) })) {
        known.know(definition.table, tenantId, record.id, record.version, text)
        return true
      }
      known.forget(definition.table, tenantId, record.id)
    }
    const done = await writes.transaction(db, async (ex) => {
      if (guard !== undefined && writes.guarded === null && (await statements.guarded.rows(guard, ex)).length > 0) {
        // SQLite holds the write lock from BEGIN: the guarded update changed the row, so the state it
        // replaced is the remembered text.
        await events.append(ex, tenantId, await draftFrom(ex, held!.text), write)
        return true
      }
      // Locked, so the document read is the state this update replaces.
      const [current] = await statements.readLocked.rows<{ version: unknown; doc: string }>([tenantId, record.id], ex)
      if (current === undefined || Number(current.version) !== expected) return false
      const update = statements.update.sql([...values, tenantId, record.id])
      await events.append(ex, tenantId, await draftFrom(ex, current.doc), write, [update])
      return true
    })
    if (done) known.know(definition.table, tenantId, record.id, record.version, text)
    else known.forget(definition.table, tenantId, record.id)
    return done
  }

  return (collection, tenantId, record, expectedVersion, write) => {
    const definition = definitionOf(collection)
    // A `VersionedCollection`'s documents carry a numeric `version` (src/ports/records.ts).
    const versioned = docOf(collection, record) as Versioned
    return expectedVersion === null
      ? insertVersioned(
          ctx,
          events,
          statementsOf(definition),
          definition,
          tenantId,
          versioned,
          write,
          companions[definition.name],
        )
      : replace(definition, tenantId, versioned, expectedVersion, write)
  }
}
