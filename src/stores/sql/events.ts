/**
 * The events feed on SQL (docs/extensions.md, section 3): reading records as change detection
 * sees them, appending events inside the writing transaction, and pages of the feed.
 *
 * A write takes its positions by upserting the tenant's `event_positions` row (the row lock
 * serialises a tenant's writers until commit, so positions commit in order and without gaps),
 * then inserts its events, and now and then prunes the tenant's events older than the retention
 * (see `PRUNE_EVERY_MS`). On Postgres the change's own statements, the counter, the events and a
 * due prune travel as one statement (`Engine.chainWrites`), SQL splicing each event's id into its
 * text; on SQLite they run in turn, and the events are written with the ids the counter's returned
 * position gives.
 */
import { type RawBuilder, sql } from 'kysely'
import { type Event, type EventDraft, eventId, type WriteContext } from '../../model/events.js'
import { budgetLineItems, companies, reportTypes, SEEDED_COLLECTIONS, trainingEnrollments } from '../../model/index.js'
import { DEFAULT_EVENTS_PAGE_BYTES, type EventPage, type EventQuery } from '../../ports/event-feed.js'
import { authorOf, eventOf, isExpired, utf8Length } from '../event-feed.js'
import { EVENT_RESOURCE_OF, eventView, type StoredState, syncChange } from '../event-views.js'
import type { SyncCollection } from '../../model/removal.js'
import { type Exec, json, parse, type SqlContext } from './context.js'
import type { NamedWrite } from './engine.js'

/** The table of each seed key. */
export const SYNC_TABLES = Object.fromEntries(SEEDED_COLLECTIONS.map((c) => [c.name, c.table])) as Readonly<
  Record<SyncCollection, string>
>

/** Ids per statement: well under SQLite's 32,766 bound parameters. */
export const IDS_PER_STATEMENT = 500

/** Events per insert statement. */
const EVENTS_PER_INSERT = 100

/**
 * A store prunes a tenant's expired events at most once per this interval (per process): one
 * minute, or a hundredth of a shorter retention. Pruning on every write cost every write a
 * statement; an expired event now stays listed at most this much longer (and, as before, until
 * the tenant's next write).
 */
export const PRUNE_EVERY_MS = 60_000

/** The tenants whose last prune time this process remembers; beyond that it forgets them all. */
const PRUNED_TENANTS = 10_000

/** A record in hand, as change detection reads it: its document and its stored text. */
export interface StoredDoc {
  doc: Record<string, unknown>
  /** The stored text (document and parts): equal text, no change. */
  text: string
}

type Doc = Record<string, unknown>

/** The events part of a SQL store. */
export interface SqlEvents {
  /** The stored states of `ids` of `key` (absent ids are missing from the map). */
  states(ex: Exec, tenantId: string, key: SyncCollection, ids: readonly string[]): Promise<Map<string, StoredState>>
  /** The drafts of the changes of `ids` of `key` from `before` to what `ex` sees now. */
  changes(
    ex: Exec,
    tenantId: string,
    key: SyncCollection,
    ids: readonly string[],
    before: Map<string, StoredState>,
  ): Promise<EventDraft[]>
  /**
   * The states of records in hand of `key` (in order; the same id may come twice, before and
   * after), reading only what their views name (companies, report types, enrollments).
   */
  describe(ex: Exec, tenantId: string, key: SyncCollection, records: readonly StoredDoc[]): Promise<StoredState[]>
  /**
   * Runs `writes` (the change's data-modifying statements, their results unused), then records
   * `drafts` at the tenant's next positions, in the transaction `ex` (one statement on Postgres).
   */
  append(
    ex: Exec,
    tenantId: string,
    drafts: readonly EventDraft[],
    write?: WriteContext,
    writes?: readonly RawBuilder<unknown>[],
  ): Promise<void>
  /**
   * Runs `guard` (a data-modifying statement with RETURNING) and, only when it changed a row,
   * records `drafts` (at most 100) at the tenant's next positions: one autocommit statement
   * (`Engine.guardedWrites`, Postgres only). Resolves to whether the guard changed a row; when it
   * did not, nothing was counted or recorded. A due prune is part of the statement and runs either
   * way (deleting expired events needs no change of its own), so it is never skipped.
   */
  appendIf(
    tenantId: string,
    drafts: readonly EventDraft[],
    write: WriteContext | undefined,
    guard: NamedWrite,
  ): Promise<boolean>
  listEvents(tenantId: string, query: EventQuery): Promise<EventPage>
}

/**
 * The events part of the store on `ctx`, keeping events for `retentionMs`.
 *
 * @example
 * const events = sqlEvents(ctx, EVENT_RETENTION_MS)
 */
export function sqlEvents(ctx: SqlContext, retentionMs: number): SqlEvents {
  const { table: t, rows } = ctx
  const pruneEveryMs = Math.min(PRUNE_EVERY_MS, retentionMs / 100)
  const lastPruned = new Map<string, number>()

  /** Whether this write prunes the tenant's events (then it counts as pruned from `nowMs`). */
  function pruneDue(tenantId: string, nowMs: number): boolean {
    const last = lastPruned.get(tenantId)
    if (last !== undefined && nowMs - last < pruneEveryMs && nowMs >= last) return false
    if (last === undefined && lastPruned.size >= PRUNED_TENANTS) lastPruned.clear()
    lastPruned.set(tenantId, nowMs)
    return true
  }

  // An event's stored text is its JSON with the id first; the id is spliced in by SQL from the
  // position the counter returns, so the insert needs no round trip of its own.
  const zeroId = eventId(0)
  const idPrefix = zeroId.replace(/0+$/, '')
  const idDigits = zeroId.length - idPrefix.length
  const idHead = `{"id":"${zeroId}"`
  const idBound = 10 ** idDigits
  /** The event id of position `p` (a SQL expression), as `eventId` writes it, on both engines. */
  const idSql = (p: RawBuilder<unknown>) =>
    sql`${idPrefix} || CASE WHEN ${p} < ${sql.lit(idBound)} THEN substr(CAST(${p} + ${sql.lit(idBound)} AS TEXT), 2)
        ELSE CAST(${p} AS TEXT) END`

  /** Runs `query` on `ids` in batches and concatenates the rows. */
  async function batched<R>(ids: readonly string[], query: (batch: readonly string[]) => Promise<R[]>): Promise<R[]> {
    const out: R[] = []
    for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT)
      out.push(...(await query(ids.slice(start, start + IDS_PER_STATEMENT))))
    return out
  }

  /** `{ id → name }` of the tenant's rows of `table` among `ids` (companies, report types). */
  async function names(
    ex: Exec,
    tenantId: string,
    table: string,
    ids: Set<string>,
  ): Promise<Map<string, string | null>> {
    const found = await batched([...ids], (batch) =>
      rows<{ id: string; doc: string }>(
        sql`SELECT id, doc FROM ${t(table)} WHERE tenant_id = ${tenantId} AND id IN (${sql.join(batch)})`,
        ex,
      ),
    )
    return new Map(found.map((row) => [row.id, parse<{ name: string | null }>(row.doc).name]))
  }

  async function states(ex: Exec, tenantId: string, key: SyncCollection, ids: readonly string[]) {
    const out = new Map<string, StoredState>()
    if (ids.length === 0 || EVENT_RESOURCE_OF[key] === null) return out
    const extra = key === 'tickets' ? sql`, notes` : sql``
    const found = await batched([...new Set(ids)], (batch) =>
      rows<{ id: string; doc: string; notes?: string }>(
        sql`SELECT id, doc${extra} FROM ${t(SYNC_TABLES[key])}
            WHERE tenant_id = ${tenantId} AND id IN (${sql.join(batch)})`,
        ex,
      ),
    )
    if (found.length === 0) return out
    const records = new Map(
      found.map((row) => [row.id, { doc: parse<Doc>(row.doc), text: `${row.doc}${row.notes ?? ''}` }]),
    )
    if (key === 'budgets') {
      const items = await batched([...records.keys()], (batch) =>
        rows<{ budget_id: string; doc: string }>(
          sql`SELECT budget_id, doc FROM ${t(budgetLineItems.table)}
              WHERE tenant_id = ${tenantId} AND budget_id IN (${sql.join(batch)}) ORDER BY budget_id, seq`,
          ex,
        ),
      )
      for (const record of records.values()) record.doc = { ...record.doc, lineItems: [] }
      for (const item of items) {
        const record = records.get(item.budget_id)!
        ;(record.doc.lineItems as Doc[]).push(parse<Doc>(item.doc))
        record.text += item.doc
      }
    }
    const described = await describe(ex, tenantId, key, [...records.values()])
    let i = 0
    for (const id of records.keys()) out.set(id, described[i++]!)
    return out
  }

  async function describe(
    ex: Exec,
    tenantId: string,
    key: SyncCollection,
    records: readonly StoredDoc[],
  ): Promise<StoredState[]> {
    const companyIds = new Set<string>()
    const typeIds = new Set<string>()
    for (const { doc } of records) {
      if (key === 'automationRules') for (const id of doc.companyIds as string[]) companyIds.add(id)
      if (key === 'reports' && typeof doc.companyId === 'string') companyIds.add(doc.companyId)
      if (key === 'reports' && typeof doc.reportTypeId === 'string') typeIds.add(doc.reportTypeId)
    }
    const companyNames = companyIds.size > 0 ? await names(ex, tenantId, companies.table, companyIds) : new Map()
    const typeNames = typeIds.size > 0 ? await names(ex, tenantId, reportTypes.table, typeIds) : new Map()
    const counts = new Map<string, number>()
    if (key === 'trainingCourses') {
      const found = await batched([...new Set(records.map((r) => r.doc.id as string))], (batch) =>
        rows<{ course_id: string; n: unknown }>(
          sql`SELECT course_id, count(*) AS n FROM ${t(trainingEnrollments.table)}
              WHERE tenant_id = ${tenantId} AND course_id IN (${sql.join(batch)}) GROUP BY course_id`,
          ex,
        ),
      )
      for (const row of found) counts.set(row.course_id, Number(row.n))
    }
    const lookups = {
      companyName: (id: string) => companyNames.get(id),
      reportTypeName: (id: string) => typeNames.get(id),
      enrollmentCount: (id: string) => counts.get(id) ?? 0,
    }
    return records.map(({ doc, text }) => ({ fingerprint: text, view: eventView(key, doc, lookups) }))
  }

  /**
   * The moment of a write: its time, and the prune of the tenant's expired events when one is due. A
   * prune deletes a prefix of positions: every event before the first one created at the cutoff or
   * later (found along the primary key, reading the expired events it deletes and one more), or every
   * event when all have expired. An expired event after a kept one (clocks of two processes a little
   * apart) stays until a later prune, so pruning never leaves a hole in the feed.
   */
  function moment(tenantId: string) {
    const now = new Date()
    const prune: RawBuilder<unknown>[] = []
    if (pruneDue(tenantId, now.getTime())) {
      const cutoff = new Date(now.getTime() - retentionMs).toISOString()
      const events = t('events')
      const firstKept = sql`SELECT position FROM ${events} WHERE tenant_id = ${tenantId} AND created_at >= ${cutoff}
                            ORDER BY position LIMIT 1`
      const last = sql`SELECT position FROM ${t('event_positions')} WHERE tenant_id = ${tenantId}`
      prune.push(
        sql`DELETE FROM ${events} WHERE tenant_id = ${tenantId} AND position < COALESCE((${firstKept}), (${last}) + 1)`,
      )
    }
    return { createdAt: now.toISOString(), prune }
  }

  /**
   * The statements that record `drafts` in one statement (`Engine.chainWrites`, Postgres): a due
   * prune, the counter upsert of the rows `source` gives (`(tenant_id, n)`, returning the position
   * after the write as `pos`), and the event inserts (100 drafts each) reading `pos`, which splice
   * each event's id into its stored text.
   */
  function chained(tenantId: string, drafts: readonly EventDraft[], write: WriteContext | undefined) {
    const n = drafts.length
    const { createdAt, prune } = moment(tenantId)
    const author = authorOf(write)
    const counter = (source: RawBuilder<unknown>) =>
      sql`INSERT INTO ${t('event_positions')} AS cur (tenant_id, position) ${source}
          ON CONFLICT (tenant_id) DO UPDATE SET position = cur.position + ${sql.lit(n)} RETURNING position`
    const inserts: RawBuilder<unknown>[] = []
    for (let start = 0; start < n; start += EVENTS_PER_INSERT) {
      // Draft j takes position last - (n - 1 - j), `last` being the counter after this write.
      const selects = drafts.slice(start, start + EVENTS_PER_INSERT).map((draft, i) => {
        const position = sql`(pos.position - ${sql.lit(n - 1 - start - i)})`
        const text = json(eventOf(draft, 0, createdAt, author))
        if (!text.startsWith(idHead)) throw new Error('An event must serialise with its id first')
        const tail = text.slice(idHead.length)
        return sql`SELECT ${tenantId}, ${position}, ${draft.type}, ${createdAt},
                          '{"id":"' || ${idSql(position)} || '"' || ${tail} FROM pos`
      })
      const union = sql.join(selects, sql` UNION ALL `)
      inserts.push(sql`INSERT INTO ${t('events')} (tenant_id, position, type, created_at, doc) ${union}`)
    }
    return { prune, counter, inserts }
  }

  // Statement by statement (SQLite), the texts are written once: the counter's upsert returns the last
  // position and the events are written with their ids, so no statement reads another's result in SQL.
  const p = ctx.engine.placeholder
  const counterText =
    `INSERT INTO ${ctx.tableName('event_positions')} AS cur (tenant_id, position) VALUES (${p(1)}, ${p(2)}) ` +
    'ON CONFLICT (tenant_id) DO UPDATE SET position = cur.position + excluded.position RETURNING position'
  const insertTexts = new Map<number, string>()
  /** The insert of `count` events. */
  function insertText(count: number): string {
    let text = insertTexts.get(count)
    if (text === undefined) {
      const tuples = Array.from({ length: count }, (_, i) => `(${[1, 2, 3, 4, 5].map((k) => p(i * 5 + k)).join(', ')})`)
      const columns = '(tenant_id, position, type, created_at, doc)'
      text = `INSERT INTO ${ctx.tableName('events')} ${columns} VALUES ${tuples.join(', ')}`
      insertTexts.set(count, text)
    }
    return text
  }

  /** Records `drafts` after running `writes`, one statement after another in the transaction `ex`. */
  async function appendInTurn(
    ex: Exec,
    tenantId: string,
    drafts: readonly EventDraft[],
    write: WriteContext | undefined,
    writes: readonly RawBuilder<unknown>[],
  ) {
    const { createdAt, prune } = moment(tenantId)
    const author = authorOf(write)
    for (const statement of [...writes, ...prune]) await statement.execute(ex)
    const [counted] = await ctx.query<{ position: unknown }>(counterText, [tenantId, drafts.length], ex)
    const first = Number(counted!.position) - drafts.length + 1
    for (let start = 0; start < drafts.length; start += EVENTS_PER_INSERT) {
      const batch = drafts.slice(start, start + EVENTS_PER_INSERT)
      const params: unknown[] = []
      for (const [i, draft] of batch.entries()) {
        const position = first + start + i
        params.push(tenantId, position, draft.type, createdAt, json(eventOf(draft, position, createdAt, author)))
      }
      await ctx.query(insertText(batch.length), params, ex)
    }
  }

  /**
   * The events of a page's rows (`listEvents`) with at least one large document: rows while their sizes
   * fit `budget` (the first always), at most `limit`; the large documents among them read by position.
   */
  async function withinBudget(tenantId: string, docs: readonly { doc: string }[], limit: number, budget: number) {
    let bytes = 0
    let taken = 0
    const large: number[] = []
    for (const { doc } of docs) {
      const inline = doc.startsWith('{')
      bytes += inline ? utf8Length(doc) : Number(doc.slice(doc.indexOf(':') + 1))
      if (taken === limit || (taken > 0 && bytes > budget)) break
      if (!inline) large.push(Number(doc.slice(0, doc.indexOf(':'))))
      taken += 1
    }
    const texts = new Map<number, string>()
    if (large.length > 0) {
      const fetched = await rows<{ position: unknown; doc: string }>(
        sql`SELECT position, doc FROM ${t('events')}
            WHERE tenant_id = ${tenantId} AND position IN (${sql.join(large)})`,
      )
      for (const row of fetched) texts.set(Number(row.position), row.doc)
    }
    const list: Event[] = []
    for (const { doc } of docs.slice(0, taken)) {
      const text = doc.startsWith('{') ? doc : texts.get(Number(doc.slice(0, doc.indexOf(':'))))
      // Pruned between the two statements: the page ends before it, and the next one carries on.
      if (text === undefined) break
      list.push(ctx.parseDoc<Event>(text))
    }
    return list
  }

  return {
    states,
    describe,

    async changes(ex, tenantId, key, ids, before) {
      const type = EVENT_RESOURCE_OF[key]
      if (type === null || ids.length === 0) return []
      const after = await states(ex, tenantId, key, ids)
      const drafts: EventDraft[] = []
      for (const id of new Set(ids)) {
        const draft = syncChange(type, id, before.get(id) ?? null, after.get(id) ?? null)
        if (draft !== null) drafts.push(draft)
      }
      return drafts
    },

    async append(ex, tenantId, drafts, write, writes = []) {
      if (drafts.length === 0) {
        for (const statement of writes) await statement.execute(ex)
        return
      }
      const chainWrites = ctx.engine.chainWrites
      if (chainWrites === null) return appendInTurn(ex, tenantId, drafts, write, writes)
      const parts = chained(tenantId, drafts, write)
      const counter = {
        name: 'pos',
        write: parts.counter(sql`VALUES (${tenantId}, ${sql.lit(drafts.length)})`),
      }
      const readBack = sql`SELECT position FROM ${t('event_positions')} WHERE tenant_id = ${tenantId}`
      for (const [i, insert] of parts.inserts.entries()) {
        if (i === 0) await chainWrites(ex, [...writes, ...parts.prune], counter, insert)
        else await sql`WITH pos AS (${readBack}) ${insert}`.execute(ex)
      }
    },

    async appendIf(tenantId, drafts, write, guard) {
      const guarded = ctx.engine.guardedWrites
      if (guarded === null) throw new Error(`appendIf needs one statement of data-modifying CTEs (${ctx.engine.name})`)
      if (drafts.length === 0) return (await rows(guard.write)).length > 0
      const parts = chained(tenantId, drafts, write)
      if (parts.inserts.length !== 1) throw new Error('appendIf records at most 100 events')
      // One row of the guard's (its key), so the counter moves by n only when the guard changed it.
      const source = sql`SELECT ${tenantId}, ${sql.lit(drafts.length)} FROM ${sql.raw(guard.name)}`
      const counter = { name: 'pos', write: parts.counter(source) }
      return guarded(ctx.db, guard, parts.prune, counter, parts.inserts[0]!)
    },

    async listEvents(tenantId, query) {
      const asc = query.order === 'asc'
      const direction = sql.raw(asc ? 'ASC' : 'DESC')
      const events = t('events')
      const lastSql = sql`(SELECT position FROM ${t('event_positions')} WHERE tenant_id = ${tenantId})`
      const oldestSql = sql`(SELECT min(position) FROM ${events} WHERE tenant_id = ${tenantId})`
      const types = query.types === null ? sql`` : sql` AND type IN (${sql.join([...query.types])})`
      const n = query.limit
      const budget = query.maxBytes ?? DEFAULT_EVENTS_PAGE_BYTES
      // The byte budget (docs/extensions.md, section 3), kept without reading what it leaves out: the page
      // carries a document only when it is small (at most `small` bytes, so `limit + 1` of them are at most
      // the budget); for a larger one, `position:size` (`octet_length` reads a stored value's length, not the
      // value: Postgres from its TOAST pointer, SQLite from its record header). The events within the budget
      // (the first always) then fetch their large documents. So a page reads at most twice the budget, or
      // its one event, whatever the events' sizes, and a page of small events is the one statement it was.
      // The stored text is the event's JSON as sent, so its bytes are exact.
      const small = Math.min(2 ** 31 - 1, Math.max(1, Math.floor(budget / (n + 1)))) // octet_length is an int4
      const column = sql`CASE WHEN octet_length(doc) <= ${small} THEN doc
                         ELSE CAST(position AS TEXT) || ':' || CAST(octet_length(doc) AS TEXT) END AS doc`
      // The counter (every position up to it has committed) and the oldest event kept (pruning is the
      // writers' job, since it needs a write lock). On Postgres each row of the page carries them, computed
      // once per statement: one round trip, one snapshot (an empty page asks for them alone). On SQLite
      // they are a statement of their own and the page's rows are documents alone (`Engine.inProcess`).
      type Row = { doc: string; last?: unknown; oldest?: unknown }
      const bounded = sql`${lastSql} AS last, ${oldestSql} AS oldest`
      const together = !ctx.engine.inProcess
      const columns = together ? sql`${column}, ${bounded}` : column
      const page = (range: RawBuilder<unknown>) =>
        rows<Row>(
          sql`SELECT ${columns} FROM ${events} WHERE tenant_id = ${tenantId} AND ${range}${types}
              ORDER BY position ${direction} LIMIT ${n + 1}`,
        )
      const boundsAlone = async () => (await rows<{ last: unknown; oldest: unknown }>(sql`SELECT ${bounded}`))[0]!
      // The open-ended page: every event past `after` (positions below the oldest do not exist).
      const open = asc
        ? sql`position > ${query.after ?? 0}`
        : query.after === null
          ? sql`position >= 0`
          : sql`position < ${query.after}`
      // Without a type filter the page is a run of consecutive positions (they are gap-free), so it is
      // asked for as a closed range: a plan cannot then read the rest of the feed and sort it, which
      // Postgres chose while a freshly loaded table had no statistics (6x a ticket page).
      const closed =
        query.after === null
          ? asc
            ? sql`position >= ${oldestSql} AND position <= ${oldestSql} + ${n}`
            : sql`position >= ${lastSql} - ${n} AND position <= ${lastSql}`
          : asc
            ? sql`position >= ${query.after + 1} AND position <= ${query.after + 1 + n}`
            : sql`position >= ${query.after - 1 - n} AND position <= ${query.after - 1}`
      const read = together ? undefined : await boundsAlone()
      const found = await page(query.types === null ? closed : open)
      const bounds = read ?? found[0] ?? (await boundsAlone())
      const lastPosition = bounds.last == null ? 0 : Number(bounds.last)
      const prunedBefore = bounds.oldest == null ? lastPosition + 1 : Number(bounds.oldest)
      if (isExpired(query, prunedBefore)) return { state: 'expired' } as const
      let docs = found
      if (query.types === null) {
        // A run with a hole (an event deleted out of order: pruning by time did that before migration 0006)
        // comes back short: asked for again, open-ended.
        const first = asc ? Math.max(query.after ?? 0, prunedBefore - 1) + 1 : (query.after ?? lastPosition + 1) - 1
        const [from, to] = asc ? [first, Math.min(first + n, lastPosition)] : [Math.max(first - n, prunedBefore), first]
        if (docs.length < to - from + 1) docs = await page(open)
      }
      // The page: rows while they fit the budget (the first always), at most `limit`. Small documents alone
      // cannot pass it, so a page of them is the first `limit` rows, as before the budget.
      const list = docs.every(({ doc }) => doc.startsWith('{'))
        ? docs.slice(0, n).map(({ doc }) => ctx.parseDoc<Event>(doc))
        : await withinBudget(tenantId, docs, n, budget)
      return { state: 'ok', events: list, hasNextPage: docs.length > list.length, lastPosition } as const
    },
  }
}
