/**
 * Compare-and-set on the SQL store (`replaceVersioned`): the records of a collection with a `version`
 * column (automation rules, reports) are replaced only while their stored version is the one
 * expected, each with its event in the same transaction. The statements are derived from the
 * collection's definition; the stored text of the records this store last read or wrote is kept
 * (`KnownTexts`), so that a replace of a record it handed out needs no locked read.
 */
import type { CollectionSpec } from '../../model/collection.js'
import type { WriteContext } from '../../model/events.js'
import type { SyncCollection } from '../../model/removal.js'
import type { Store } from '../../ports/store.js'
import { EVENT_RESOURCE_OF, syncChange } from '../event-views.js'
import { type Exec, json, PARAM, parse, type SqlContext, template } from './context.js'
import type { SqlEvents, StoredDoc } from './events.js'
import { quote } from './migrations/index.js'
import { rowBuilder, rowColumns, upsert } from './seeding.js'

/** How many versioned records' texts a store remembers for its compare-and-set (see {@link KnownTexts}). */
const MAX_KNOWN_TEXTS = 2_000

/** The column that holds a versioned record's `version` (the port's `VersionedCollection`). */
const VERSION_COLUMN = 'version'

/** A versioned record: what compare-and-set reads of it. */
type Versioned = { id: string; version: number }

/** A versioned collection, its record type erased. */
type VersionedSpec = CollectionSpec<Versioned, Versioned, SyncCollection>

/**
 * Whether `spec`'s records are replaced by compare-and-set: they keep their `version` in a column.
 *
 * @example
 * isVersioned(automationRules) // true
 */
export function isVersioned(spec: Pick<CollectionSpec<never, never>, 'columns'>): boolean {
  return spec.columns.some((c) => c.name === VERSION_COLUMN)
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
  readLocked: ReturnType<typeof template>
  update: ReturnType<typeof template>
  guarded: ReturnType<typeof template>
}

/**
 * The statements of a versioned collection, written once (`template`): its read locked until the
 * transaction ends, and its update (to the columns after the key, in `rowColumns` order) plain and
 * guarded by version and stored text.
 */
function versionedStatements(ctx: SqlContext, spec: VersionedSpec): VersionedStatements {
  const table = ctx.tableName(spec.table)
  const skip = 1 + spec.key.length
  const columns = rowColumns(spec).slice(skip)
  const set = columns.map((column) => `${quote(column)} = ${PARAM}`).join(', ')
  const byKey = `tenant_id = ${PARAM} AND id = ${PARAM}`
  const update = `UPDATE ${table} SET ${set} WHERE ${byKey}`
  return {
    row: rowBuilder(spec, ctx.engine),
    skip,
    docIndex: columns.indexOf('doc'),
    readLocked: template(`SELECT ${VERSION_COLUMN}, doc FROM ${table} WHERE ${byKey}${ctx.engine.forUpdate}`),
    update: template(update),
    guarded: template(`${update} AND ${VERSION_COLUMN} = ${PARAM} AND doc = ${PARAM} RETURNING id`),
  }
}

/**
 * The store's `replaceVersioned` over `ctx`, recording events through `events`, its compare-and-set
 * guarded by the texts in `known` (which `get` fills as it hands versioned records out).
 *
 * @example
 * const replaceVersioned = versionedReplace(ctx, events, known)
 * await replaceVersioned(reports, tenantId, next, current.version)
 */
export function versionedReplace(ctx: SqlContext, events: SqlEvents, known: KnownTexts): Store['replaceVersioned'] {
  const { db, engine, rows, one } = ctx
  const made = new Map<string, VersionedStatements>()

  function statementsOf(spec: VersionedSpec): VersionedStatements {
    let found = made.get(spec.table)
    if (found === undefined) made.set(spec.table, (found = versionedStatements(ctx, spec)))
    return found
  }

  /** A new record: upserted with its event (the state before is whatever the id held: nothing, for a fresh id). */
  async function insert(spec: VersionedSpec, tenantId: string, record: Versioned, write: WriteContext | undefined) {
    const row = statementsOf(spec).row(tenantId, [record.id], record)
    await engine.writeTransaction(db, async (ex) => {
      const before = await events.states(ex, tenantId, spec.name, [record.id])
      await upsert(ctx, ex, spec, [row])
      // The state after is the record in hand (the row's `doc` is its document's JSON).
      const text = json(spec.document(record))
      const [after] = await events.describe(ex, tenantId, spec.name, [{ doc: parse(text), text }])
      const draft = syncChange(EVENT_RESOURCE_OF[spec.name]!, record.id, before.get(record.id) ?? null, after!)
      await events.append(ex, tenantId, draft === null ? [] : [draft], write)
    })
    return true
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
    spec: VersionedSpec,
    tenantId: string,
    record: Versioned,
    expected: number,
    write: WriteContext | undefined,
  ): Promise<boolean> {
    const statements = statementsOf(spec)
    const values = statements.row(tenantId, [record.id], record).slice(statements.skip)
    // The row's new `doc`, stringified once. Change detection reads the document itself as the state
    // after, not its text parsed again: a record is plain JSON data, and it compares values as their
    // JSON (`sameJson`), so both give the same event.
    const text = values[statements.docIndex] as string
    const after: StoredDoc = { doc: spec.document(record) as unknown as Record<string, unknown>, text }
    /** The draft of the change from the stored document `stored` to the record, read through `ex`. */
    const draftFrom = async (ex: Exec, stored: string) => {
      const [before, now] = await events.describe(ex, tenantId, spec.name, [
        { doc: parse(stored), text: stored },
        after,
      ])
      const draft = syncChange(EVENT_RESOURCE_OF[spec.name]!, record.id, before!, now!)
      return draft === null ? [] : [draft]
    }
    const held = known.get(spec.table, tenantId, record.id)
    const guard =
      held?.version === expected ? statements.guarded(...values, tenantId, record.id, expected, held.text) : undefined
    if (guard !== undefined && engine.guardedWrites !== null) {
      // Company and report type names are read first, outside any transaction, as the locked path
      // reads them (unlocked, under READ COMMITTED): an event names what they were at the write.
      const drafts = await draftFrom(db, held!.text)
      if (await events.appendIf(tenantId, drafts, write, { name: 'changed', write: guard })) {
        known.know(spec.table, tenantId, record.id, record.version, text)
        return true
      }
      known.forget(spec.table, tenantId, record.id)
    }
    const done = await engine.writeTransaction(db, async (ex) => {
      if (guard !== undefined && engine.guardedWrites === null && (await rows(guard, ex)).length > 0) {
        // SQLite holds the write lock from BEGIN: the guarded update changed the row, so the state it
        // replaced is the remembered text.
        await events.append(ex, tenantId, await draftFrom(ex, held!.text), write)
        return true
      }
      // Locked, so the document read is the state this update replaces.
      const current = await one<{ version: unknown; doc: string }>(statements.readLocked(tenantId, record.id), ex)
      if (current === undefined || Number(current.version) !== expected) return false
      const update = statements.update(...values, tenantId, record.id)
      await events.append(ex, tenantId, await draftFrom(ex, current.doc), write, [update])
      return true
    })
    if (done) known.know(spec.table, tenantId, record.id, record.version, text)
    else known.forget(spec.table, tenantId, record.id)
    return done
  }

  return (collection, tenantId, record, expectedVersion, write) => {
    const spec = collection as unknown as VersionedSpec
    const versioned = record as unknown as Versioned
    return expectedVersion === null
      ? insert(spec, tenantId, versioned, write)
      : replace(spec, tenantId, versioned, expectedVersion, write)
  }
}
