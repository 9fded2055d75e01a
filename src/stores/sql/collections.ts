/**
 * The SQL store's reads and writes of each collection. Lists are derived from the collection
 * specs (see `queries.ts`); what is particular to one collection (a ticket found by number, a
 * budget with its line items, compare-and-set on a version, a course's enrollment count) is here.
 */
import { sql } from 'kysely'
import { type CollectionSpec, sortOrder } from '../../model/collection.js'
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
import type { AutomationRuleRecord } from '../../model/automation-rules.js'
import type { WriteContext } from '../../model/events.js'
import type { Budget, BudgetLineItem } from '../../model/budgets.js'
import type { NpsSurveyRecord } from '../../model/nps-surveys.js'
import type { TrainingCourseRecord } from '../../model/training.js'
import type { ReportTemplateRecord } from '../../model/report-templates.js'
import type { ReportRecord } from '../../model/reports.js'
import type { Ticket, TicketNote } from '../../model/tickets.js'
import type { BudgetRecord } from '../../model/seed.js'
import type { ApiKeyMethods, Store } from '../../ports/store.js'
import { type Exec, json, PARAM, parse, type SqlContext, template } from './context.js'
import { quote } from './migrations/index.js'
import { listConditions, orderSql, type Pages } from './queries.js'
import { keysetSegments } from './keyset.js'
import type { SqlEvents, StoredDoc } from './events.js'
import { EVENT_RESOURCE_OF, syncChange } from '../event-views.js'
import { rowBuilder, rowColumns, upsert } from './seeding.js'
import type { WebhookDispatchStore } from '../../ports/webhook-dispatch.js'
import type { WebhookStore } from '../../ports/webhook-store.js'

/** How many versioned records' texts a store remembers for its compare-and-set (see `knownTexts`). */
const MAX_KNOWN_TEXTS = 2_000

/** The store methods of this file. */
export type CollectionMethods = Omit<
  Store,
  | 'reserveIdempotencyKey'
  | 'completeIdempotencyKey'
  | 'releaseIdempotencyKey'
  | 'seed'
  | 'remove'
  | 'listEvents'
  | 'close'
  | keyof ApiKeyMethods
  | keyof WebhookStore
  | keyof WebhookDispatchStore
>

/**
 * The store's collection methods over `ctx`, listing through `pages`.
 *
 * @example
 * const store = { ...collectionMethods(ctx, createPages(ctx), sqlEvents(ctx, EVENT_RETENTION_MS)), ... }
 */
export function collectionMethods(ctx: SqlContext, pages: Pages, events: SqlEvents): CollectionMethods {
  const { db, engine, table: t, rows, one, parseDoc } = ctx

  /** The document of `spec` with this id, parsed afresh (callers may extend it). */
  const docOf = async <T>(spec: { table: string }, tenantId: string, id: string): Promise<T | null> => {
    const row = await one<{ doc: string }>(
      sql`SELECT doc FROM ${t(spec.table)} WHERE tenant_id = ${tenantId} AND id = ${id}`,
    )
    return row === undefined ? null : parse<T>(row.doc)
  }

  /**
   * The stored text and version of the versioned records (automation rules, reports) this store last
   * read or wrote, by table, tenant and id, for `replaceVersioned`'s compare-and-set guarded by that
   * text (no locked read of the row). At most {@link MAX_KNOWN_TEXTS} entries (like `parseDoc`'s cache, sharing its
   * strings), forgotten all at once when full. An entry may be stale (another process wrote the row):
   * the guarded update then changes nothing and the locked transaction decides.
   */
  const knownTexts = new Map<string, { version: number; text: string }>()
  const knownKey = (table: string, tenantId: string, id: string) => `${table}\u0000${tenantId}\u0000${id}`
  const know = (table: string, tenantId: string, id: string, version: number, text: string) => {
    const key = knownKey(table, tenantId, id)
    if (knownTexts.size >= MAX_KNOWN_TEXTS && !knownTexts.has(key)) knownTexts.clear()
    knownTexts.set(key, { version, text })
  }

  /**
   * The statements of a versioned collection, written once (`template`): its read, its read locked
   * until the transaction ends, and its update (to the columns after the key, in `rowColumns` order)
   * plain and guarded by version and stored text.
   */
  function versionedStatements(spec: { table: string } & Parameters<typeof rowColumns>[0]) {
    const table = ctx.tableName(spec.table)
    const skip = 1 + spec.key.length
    const columns = rowColumns(spec).slice(skip)
    const set = columns.map((column) => `${quote(column)} = ${PARAM}`).join(', ')
    const byKey = `tenant_id = ${PARAM} AND id = ${PARAM}`
    const update = `UPDATE ${table} SET ${set} WHERE ${byKey}`
    return {
      /** How many leading values of a row (tenant and key) the updates leave out. */
      skip,
      /** Where the row's `doc` is among the updated values. */
      docIndex: columns.indexOf('doc'),
      read: template(`SELECT version, doc FROM ${table} WHERE ${byKey}`),
      readLocked: template(`SELECT version, doc FROM ${table} WHERE ${byKey}${engine.forUpdate}`),
      update: template(update),
      guarded: template(`${update} AND version = ${PARAM} AND doc = ${PARAM} RETURNING id`),
    }
  }
  const versioned = {
    [automationRules.table]: versionedStatements(automationRules),
    [reports.table]: versionedStatements(reports),
  }

  /** A versioned record, parsed afresh, its stored text remembered (`knownTexts`). */
  const versionedDoc = async <T>(spec: { table: string }, tenantId: string, id: string): Promise<T | null> => {
    const row = await one<{ version: unknown; doc: string }>(versioned[spec.table]!.read(tenantId, id))
    if (row === undefined) {
      knownTexts.delete(knownKey(spec.table, tenantId, id))
      return null
    }
    know(spec.table, tenantId, id, Number(row.version), row.doc)
    // Parsed, not frozen and cached: the text changes with every update, so a cache would miss, and
    // deep-freezing a rule's document cost an update more than its whole JSON.parse.
    return parse<T>(row.doc)
  }

  async function budgetView(tenantId: string, id: string): Promise<Budget | null> {
    // One statement, so the budget and its items come from one snapshot.
    const found = await rows<{ kind: unknown; doc: string }>(
      sql`SELECT 0 AS kind, doc, 0 AS seq FROM ${t(budgets.table)} WHERE tenant_id = ${tenantId} AND id = ${id}
          UNION ALL SELECT 1 AS kind, doc, seq FROM ${t(budgetLineItems.table)}
          WHERE tenant_id = ${tenantId} AND budget_id = ${id}
          ORDER BY kind, seq`,
    )
    const head = found[0]
    if (head === undefined || Number(head.kind) !== 0) return null
    const record = parse<BudgetRecord>(head.doc)
    return budgets.view.show(record, { lineItems: found.slice(1).map((r) => parse<BudgetLineItem>(r.doc)) })
  }

  /** The budget's document, locked until the transaction `ex` ends. */
  const budgetForUpdate = (ex: Exec, tenantId: string, id: string) =>
    one<{ doc: string }>(
      sql`SELECT doc FROM ${t(budgets.table)} WHERE tenant_id = ${tenantId} AND id = ${id}${sql.raw(engine.forUpdate)}`,
      ex,
    )

  const setBudgetDoc = (tenantId: string, id: string, doc: BudgetRecord) =>
    sql`UPDATE ${t(budgets.table)} SET doc = ${json(doc)} WHERE tenant_id = ${tenantId} AND id = ${id}`

  /** A record about to be stored, as change detection reads it (the text its row's `doc` gets). */
  function inHand<T>(spec: CollectionSpec<T>, record: T): StoredDoc {
    const text = json(spec.document(record))
    return { doc: parse<Record<string, unknown>>(text), text }
  }

  const versionedRows = {
    automationRules: rowBuilder(automationRules, engine),
    reports: rowBuilder(reports, engine),
  }

  /**
   * Compare-and-set: rewrites the record's row only while its stored `version` is `expected`, and
   * records its event (the state before is the stored document replaced, the state after the
   * record in hand). When the store knows the row's text at `expected` (it handed the record out,
   * `knownTexts`), the update is guarded by that text, so the state it replaces needs no read: on
   * Postgres the guarded update and its event are one autocommit statement; on SQLite the guarded
   * update comes first in the write transaction. Otherwise, or when the guard misses (another
   * writer, a seed, a stale entry), the transaction reads the row locked and decides.
   */
  async function replaceVersioned<T extends { id: string; version: number }>(
    spec: CollectionSpec<T>,
    key: 'automationRules' | 'reports',
    tenantId: string,
    record: T,
    expected: number,
    write: WriteContext | undefined,
  ): Promise<boolean> {
    const statements = versioned[spec.table]!
    const values = versionedRows[key](tenantId, [record.id], record as never).slice(statements.skip)
    // The row's new `doc`, stringified once. Change detection reads the document itself as the state
    // after, not its text parsed again: a record is plain JSON data, and it compares values as their
    // JSON (`sameJson`), so both give the same event.
    const text = values[statements.docIndex] as string
    const after: StoredDoc = { doc: spec.document(record) as Record<string, unknown>, text }
    /** The draft of the change from the stored document `stored` to the record, read through `ex`. */
    const draftFrom = async (ex: Exec, stored: string) => {
      const [before, now] = await events.describe(ex, tenantId, key, [{ doc: parse(stored), text: stored }, after])
      const draft = syncChange(EVENT_RESOURCE_OF[key]!, record.id, before!, now!)
      return draft === null ? [] : [draft]
    }
    const known = knownTexts.get(knownKey(spec.table, tenantId, record.id))
    const guard =
      known?.version === expected ? statements.guarded(...values, tenantId, record.id, expected, known.text) : undefined
    if (guard !== undefined && engine.guardedWrites !== null) {
      // Company and report type names are read first, outside any transaction, as the locked path
      // reads them (unlocked, under READ COMMITTED): an event names what they were at the write.
      const drafts = await draftFrom(db, known!.text)
      if (await events.appendIf(tenantId, drafts, write, { name: 'changed', write: guard })) {
        know(spec.table, tenantId, record.id, record.version, text)
        return true
      }
      knownTexts.delete(knownKey(spec.table, tenantId, record.id))
    }
    const done = await engine.writeTransaction(db, async (ex) => {
      if (guard !== undefined && engine.guardedWrites === null && (await rows(guard, ex)).length > 0) {
        // SQLite holds the write lock from BEGIN: the guarded update changed the row, so the state it
        // replaced is the remembered text.
        await events.append(ex, tenantId, await draftFrom(ex, known!.text), write)
        return true
      }
      // Locked, so the document read is the state this update replaces.
      const current = await one<{ version: unknown; doc: string }>(statements.readLocked(tenantId, record.id), ex)
      if (current === undefined || Number(current.version) !== expected) return false
      const update = statements.update(...values, tenantId, record.id)
      await events.append(ex, tenantId, await draftFrom(ex, current.doc), write, [update])
      return true
    })
    if (done) know(spec.table, tenantId, record.id, record.version, text)
    else knownTexts.delete(knownKey(spec.table, tenantId, record.id))
    return done
  }

  const ruleRow = rowBuilder(automationRules, engine)

  return {
    listTickets(tenantId, query) {
      // The tenant condition is ticketPage's: it seeks the tenant only while its counted generation is current.
      const { page: _p, limit: _l, sortColumn: _s, sortDesc: _d, cursor: _c, after, ...filters } = query
      const filterKey = JSON.stringify(Object.entries(filters).sort(([a], [c]) => (a < c ? -1 : 1)))
      const terms = sortOrder(tickets, query.sortColumn, query.sortDesc)
      const order = orderSql(tickets, terms)
      const seek = after === undefined ? undefined : keysetSegments(engine, tickets, terms, after)
      return pages.ticketPage<Ticket>(tenantId, filterKey, listConditions(ctx, tickets, query), order, query, seek)
    },

    async getTicket(tenantId, idOrNumber, notesLimit) {
      const columns = notesLimit === null ? sql`doc` : sql`doc, notes`
      const row =
        (await one<{ doc: string; notes?: string }>(
          sql`SELECT ${columns} FROM ${t(tickets.table)} WHERE tenant_id = ${tenantId} AND id = ${idOrNumber}`,
        )) ??
        (await one<{ doc: string; notes?: string }>(
          sql`SELECT ${columns} FROM ${t(tickets.table)}
              WHERE tenant_id = ${tenantId} AND ticket_number = ${idOrNumber} ORDER BY id LIMIT 1`,
        ))
      if (row === undefined) return null
      const ticket = parseDoc<Ticket>(row.doc)
      return notesLimit === null ? ticket : { ...ticket, notes: parse<TicketNote[]>(row.notes).slice(0, notesLimit) }
    },

    getBudget: (tenantId, id) => budgetView(tenantId, id),

    async updateBudget(tenantId, id, patch, updatedAt, write) {
      return engine.writeTransaction(db, async (ex) => {
        const row = await budgetForUpdate(ex, tenantId, id)
        if (row === undefined) return null
        // Its items, read under the budget's lock, are the same before and after: the states for the
        // event and the answer are built from them and the record in hand, nothing is read back.
        const items = await rows<{ doc: string }>(
          sql`SELECT doc FROM ${t(budgetLineItems.table)}
              WHERE tenant_id = ${tenantId} AND budget_id = ${id} ORDER BY seq`,
          ex,
        )
        const lineItems = items.map((item) => parse<BudgetLineItem>(item.doc))
        const itemsText = items.map((item) => item.doc).join('')
        const next = { ...parse<BudgetRecord>(row.doc), ...patch, updatedAt }
        const nextText = json(next)
        const [before, after] = await events.describe(ex, tenantId, 'budgets', [
          { doc: { ...parse<Record<string, unknown>>(row.doc), lineItems }, text: `${row.doc}${itemsText}` },
          { doc: { ...parse<Record<string, unknown>>(nextText), lineItems }, text: `${nextText}${itemsText}` },
        ])
        const draft = syncChange('budget', id, before!, after!)
        await events.append(ex, tenantId, draft === null ? [] : [draft], write, [setBudgetDoc(tenantId, id, next)])
        return budgets.view.show(parse<BudgetRecord>(nextText), { lineItems })
      })
    },

    async addBudgetLineItem(tenantId, budgetId, item, write) {
      return engine.writeTransaction(db, async (ex) => {
        const row = await budgetForUpdate(ex, tenantId, budgetId)
        if (row === undefined) return false
        const next = { ...parse<BudgetRecord>(row.doc), updatedAt: item.createdAt }
        const items = t(budgetLineItems.table)
        // The budget is locked: no other item of it commits between this insert's MAX(seq) and its commit.
        const insert = sql`INSERT INTO ${items} (tenant_id, budget_id, seq, doc)
                  SELECT ${tenantId}, ${budgetId}, COALESCE(MAX(seq), 0) + 1, ${json(item)} FROM ${items}
                  WHERE tenant_id = ${tenantId} AND budget_id = ${budgetId}`
        const resource = { type: 'budget_line_item', id: item.id } as const
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

    getAutomationRule: (tenantId, id) => versionedDoc<AutomationRuleRecord>(automationRules, tenantId, id),

    async insertAutomationRule(tenantId, rule, write) {
      await engine.writeTransaction(db, async (ex) => {
        // The state after is the record in hand (the row's `doc` is its document's JSON).
        const before = await events.states(ex, tenantId, 'automationRules', [rule.id])
        await upsert(ctx, ex, automationRules, [ruleRow(tenantId, [rule.id], rule)])
        const [after] = await events.describe(ex, tenantId, 'automationRules', [inHand(automationRules, rule)])
        const draft = syncChange('automation_rule', rule.id, before.get(rule.id) ?? null, after!)
        await events.append(ex, tenantId, draft === null ? [] : [draft], write)
      })
    },

    replaceAutomationRule: (tenantId, rule, expectedVersion, write) =>
      replaceVersioned(automationRules, 'automationRules', tenantId, rule, expectedVersion, write),

    getReport: (tenantId, id) => versionedDoc<ReportRecord>(reports, tenantId, id),

    replaceReport: (tenantId, report, expectedVersion, write) =>
      replaceVersioned(reports, 'reports', tenantId, report, expectedVersion, write),

    getReportType: (tenantId, id) => docOf(reportTypes, tenantId, id),

    listReportTemplates: (tenantId, query) =>
      pages.list(
        reportTemplates,
        tenantId,
        query,
        sortOrder(reportTemplates, query.sortBy, query.sortOrder === 'desc'),
      ),

    async getReportTemplate(tenantId, id, includeStructure) {
      const row = await one<{ doc: string; structure: string }>(
        sql`SELECT doc, structure FROM ${t(reportTemplates.table)} WHERE tenant_id = ${tenantId} AND id = ${id}`,
      )
      if (row === undefined) return null
      const template = parse<Omit<ReportTemplateRecord, 'templateStructure'>>(row.doc)
      return includeStructure
        ? { ...template, templateStructure: parse<ReportTemplateRecord['templateStructure']>(row.structure) }
        : template
    },

    listComplianceTemplates: (tenantId, query) =>
      pages.list(
        complianceTemplates,
        tenantId,
        query,
        sortOrder(complianceTemplates, query.sortBy, query.sortOrder === 'desc'),
      ),

    getComplianceTemplate: (tenantId, id) => docOf(complianceTemplates, tenantId, id),
    getComplianceCheck: (tenantId, id) => docOf(complianceChecks, tenantId, id),

    listTrainingEnrollments: (tenantId, query) =>
      pages.list(trainingEnrollments, tenantId, query, trainingEnrollments.order),

    async deleteTrainingEnrollment(tenantId, id, write) {
      return engine.writeTransaction(db, async (ex) => {
        const deleted = await rows(
          sql`DELETE FROM ${t(trainingEnrollments.table)} WHERE tenant_id = ${tenantId} AND id = ${id} RETURNING id`,
          ex,
        )
        if (deleted.length === 0) return false
        const resource = { type: 'training_enrollment', id } as const
        await events.append(
          ex,
          tenantId,
          [{ type: 'training_enrollment.deleted', resource, object: null, previous: null }],
          write,
        )
        return true
      })
    },

    async getTrainingCourse(tenantId, id) {
      const row = await one<{ doc: string; n: unknown }>(
        sql`SELECT doc, (SELECT count(*) FROM ${t(trainingEnrollments.table)} e
              WHERE e.tenant_id = ${tenantId} AND e.course_id = ${id}) AS n
            FROM ${t(trainingCourses.table)} WHERE tenant_id = ${tenantId} AND id = ${id}`,
      )
      // The count is the SQL's, in the same statement; the view is the model's.
      return row === undefined
        ? null
        : trainingCourses.view.show(parse<TrainingCourseRecord>(row.doc), { enrollmentCount: Number(row.n) })
    },

    listUsers: (tenantId, query) =>
      pages.list(users, tenantId, query, sortOrder(users, query.sortColumn, query.sortDesc)),

    listMeetingTypes: (tenantId, query) => pages.list(meetingTypes, tenantId, query, meetingTypes.order),

    listCompanies: (tenantId, query) =>
      pages.list(companies, tenantId, query, sortOrder(companies, query.sortBy, query.sortOrder === 'desc')),

    async findCompanies(tenantId, ids) {
      if (ids.length === 0) return []
      const found = await rows<{ id: string; name: string }>(
        sql`SELECT id, "name" AS name FROM ${t(companies.table)}
            WHERE tenant_id = ${tenantId} AND id IN (${sql.join([...new Set(ids)])})`,
      )
      const byId = new Map(found.map((c) => [c.id, c.name]))
      return ids.flatMap((id) => (byId.has(id) ? [{ id, name: byId.get(id) ?? null }] : []))
    },

    getGoal: (tenantId, id) => docOf(goals, tenantId, id),

    async getNpsSurvey(tenantId, id) {
      const record = await docOf<NpsSurveyRecord>(npsSurveys, tenantId, id)
      return record === null ? null : npsSurveys.view.show(record, {})
    },

    getPlannerItemType: (tenantId, id) => docOf(plannerItemTypes, tenantId, id),
  }
}
