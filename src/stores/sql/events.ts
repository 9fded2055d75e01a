/**
 * The events feed on SQL (docs/extensions.md, section 3): reading records as change detection
 * sees them, appending events inside the writing transaction, and pages of the feed.
 *
 * A write takes its positions by upserting the tenant's `event_positions` row (the row lock
 * serialises a tenant's writers until commit, so positions commit in order and without gaps),
 * then inserts its events and prunes the tenant's events older than the retention.
 */
import { sql } from 'kysely'
import type { Event, EventDraft, WriteContext } from '../../model/events.js'
import {
  automationRules,
  budgetLineItems,
  budgets,
  companies,
  complianceChecks,
  complianceTemplates,
  goals,
  meetingTypes,
  npsSurveys,
  plannerItemTypes,
  reportTemplates,
  reports,
  reportTypes,
  tickets,
  trainingCourses,
  trainingEnrollments,
  users,
} from '../../model/index.js'
import { authorOf, type EventPage, type EventQuery, eventOf, isExpired } from '../event-feed.js'
import { EVENT_RESOURCE_OF, eventView, type StoredState, syncChange } from '../event-views.js'
import type { SyncCollection } from '../removal.js'
import { type Exec, json, parse, type SqlContext } from './context.js'

/** The table of each seed key. */
export const SYNC_TABLES: Readonly<Record<SyncCollection, string>> = {
  tickets: tickets.table,
  budgets: budgets.table,
  automationRules: automationRules.table,
  reports: reports.table,
  reportTypes: reportTypes.table,
  reportTemplates: reportTemplates.table,
  complianceTemplates: complianceTemplates.table,
  complianceChecks: complianceChecks.table,
  trainingCourses: trainingCourses.table,
  trainingEnrollments: trainingEnrollments.table,
  users: users.table,
  companies: companies.table,
  meetingTypes: meetingTypes.table,
  goals: goals.table,
  npsSurveys: npsSurveys.table,
  plannerItemTypes: plannerItemTypes.table,
}

/** Ids per statement: well under SQLite's 32,766 bound parameters. */
export const IDS_PER_STATEMENT = 500

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
  /** Records `drafts` at the tenant's next positions, in the transaction `ex`. */
  append(ex: Exec, tenantId: string, drafts: readonly EventDraft[], write?: WriteContext): Promise<void>
  listEvents(tenantId: string, query: EventQuery): Promise<EventPage>
}

/**
 * The events part of the store on `ctx`, keeping events for `retentionMs`.
 *
 * @example
 * const events = sqlEvents(ctx, EVENT_RETENTION_MS)
 */
export function sqlEvents(ctx: SqlContext, retentionMs: number): SqlEvents {
  const { table: t, rows, one } = ctx

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
    const lineItems = new Map<string, Doc[]>()
    if (key === 'budgets') {
      const items = await batched([...records.keys()], (batch) =>
        rows<{ budget_id: string; doc: string }>(
          sql`SELECT budget_id, doc FROM ${t(budgetLineItems.table)}
              WHERE tenant_id = ${tenantId} AND budget_id IN (${sql.join(batch)}) ORDER BY budget_id, seq`,
          ex,
        ),
      )
      for (const item of items) {
        const list = lineItems.get(item.budget_id) ?? []
        list.push(parse<Doc>(item.doc))
        lineItems.set(item.budget_id, list)
        const record = records.get(item.budget_id)!
        record.text += item.doc
      }
    }
    const companyIds = new Set<string>()
    const typeIds = new Set<string>()
    for (const { doc } of records.values()) {
      if (key === 'automationRules') for (const id of doc.companyIds as string[]) companyIds.add(id)
      if (key === 'reports' && typeof doc.companyId === 'string') companyIds.add(doc.companyId)
      if (key === 'reports' && typeof doc.reportTypeId === 'string') typeIds.add(doc.reportTypeId)
    }
    const companyNames = companyIds.size > 0 ? await names(ex, tenantId, companies.table, companyIds) : new Map()
    const typeNames = typeIds.size > 0 ? await names(ex, tenantId, reportTypes.table, typeIds) : new Map()
    const counts = new Map<string, number>()
    if (key === 'trainingCourses') {
      const found = await batched([...records.keys()], (batch) =>
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
    for (const [id, { doc, text }] of records) {
      const record = key === 'budgets' ? { ...doc, lineItems: lineItems.get(id) ?? [] } : doc
      out.set(id, { fingerprint: text, view: eventView(key, record, lookups) })
    }
    return out
  }

  return {
    states,

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

    async append(ex, tenantId, drafts, write) {
      if (drafts.length === 0) return
      const n = drafts.length
      const counter = await one<{ position: unknown }>(
        sql`INSERT INTO ${t('event_positions')} AS cur (tenant_id, position) VALUES (${tenantId}, ${n})
            ON CONFLICT (tenant_id) DO UPDATE SET position = cur.position + ${n}
            RETURNING position`,
        ex,
      )
      const last = Number(counter!.position)
      const now = new Date()
      const createdAt = now.toISOString()
      const author = authorOf(write)
      const events = drafts.map((draft, i) => eventOf(draft, last - n + 1 + i, createdAt, author))
      for (let start = 0; start < events.length; start += 100) {
        const batch = events.slice(start, start + 100)
        const values = batch.map(
          (e, i) => sql`(${tenantId}, ${last - n + 1 + start + i}, ${e.type}, ${e.createdAt}, ${json(e)})`,
        )
        await sql`INSERT INTO ${t('events')} (tenant_id, position, type, created_at, doc)
                  VALUES ${sql.join(values)}`.execute(ex)
      }
      const cutoff = new Date(now.getTime() - retentionMs).toISOString()
      await sql`DELETE FROM ${t('events')} WHERE tenant_id = ${tenantId} AND created_at < ${cutoff}`.execute(ex)
    },

    async listEvents(tenantId, query) {
      const ex = ctx.db
      {
        // One statement: the counter (every position up to it has committed) and the oldest event kept
        // (pruning is the writers' job, since it needs a write lock).
        const bounds = await one<{ last: unknown; oldest: unknown }>(
          sql`SELECT (SELECT position FROM ${t('event_positions')} WHERE tenant_id = ${tenantId}) AS last,
                     (SELECT min(position) FROM ${t('events')} WHERE tenant_id = ${tenantId}) AS oldest`,
          ex,
        )
        const lastPosition = bounds?.last == null ? 0 : Number(bounds.last)
        const prunedBefore = bounds?.oldest == null ? lastPosition + 1 : Number(bounds.oldest)
        if (isExpired(query, prunedBefore)) return { state: 'expired' } as const
        const asc = query.order === 'asc'
        const bound = asc
          ? sql`position > ${Math.max(query.after ?? 0, prunedBefore - 1)}`
          : sql`position < ${query.after ?? lastPosition + 1} AND position >= ${prunedBefore}`
        const types = query.types === null ? sql`` : sql` AND type IN (${sql.join([...query.types])})`
        const found = await rows<{ doc: string }>(
          sql`SELECT doc FROM ${t('events')} WHERE tenant_id = ${tenantId} AND ${bound}${types}
              ORDER BY position ${sql.raw(asc ? 'ASC' : 'DESC')} LIMIT ${query.limit + 1}`,
          ex,
        )
        const events = found.slice(0, query.limit).map((row) => ctx.parseDoc<Event>(row.doc))
        return { state: 'ok', events, hasNextPage: found.length > query.limit, lastPosition } as const
      }
    },
  }
}
