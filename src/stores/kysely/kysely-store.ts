/**
 * The one SQL store, shared by SQLite and Postgres: the same statements on both, with the few
 * differences asked of its {@link Engine} (see `engine.ts`). Records are kept as their JSON text,
 * beside copies of the fields that lists filter and sort on; writes that read first run in a write
 * transaction; versioned replaces are one `UPDATE ... WHERE version = expected`.
 */
import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely'
import { budgetTotals, npsStatistics } from '../../domain/computed.js'
import { foldCase, orderBy } from '../../domain/ordering.js'
import { StoreUnavailableError } from '../../http/errors.js'
import type { AutomationRuleRecord } from '../../resources/automation-rules/schema.js'
import type { Budget, BudgetLineItem } from '../../resources/budgets/schema.js'
import type { NpsSurveyRecord } from '../../resources/nps-surveys/schema.js'
import type { ReportTemplateRecord } from '../../resources/report-templates/schema.js'
import type { ReportRecord } from '../../resources/reports/schema.js'
import type { Ticket, TicketListQuery, TicketNote } from '../../resources/tickets/schema.js'
import { frozenFromJson } from '../frozen-records.js'
import { normalizeSeed, type BudgetRecord, type SeedData } from '../seed.js'
import {
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyReservation,
  type ListResult,
  type Store,
  type StoredResponse,
} from '../store.js'
import type { Engine, EngineName } from './engine.js'
import { migrateToLatest, quote, TICKET_SORT_SQL, ticketIndexStatements } from './migrations.js'

/** Options of {@link createKyselyStore}. */
export interface KyselyStoreOptions {
  /** Run the migrations on creation. Default true. */
  migrate?: boolean
  /** Postgres only: the schema that holds every table (created if missing). */
  schema?: string
  /** Called by `close()` after the Kysely instance is destroyed. */
  onClose?: () => Promise<void> | void
}

/** A store on a SQL database. */
export interface SqlStore extends Store {
  /** Which engine it runs on. */
  readonly engine: EngineName
  /** Runs the migrations now (idempotent). */
  migrate(): Promise<void>
}

/** What `sqlRateLimiter` needs of a store: its database, engine and table names. */
export interface SqlStoreInternals {
  db: Kysely<unknown>
  engine: Engine
  table: (name: string) => RawBuilder<unknown>
  unavailable: (error: unknown) => unknown
}

const internals = new WeakMap<SqlStore, SqlStoreInternals>()

/**
 * The database behind a SQL store (for `sqlRateLimiter`); throws for any other store.
 *
 * @example
 * const { db, engine } = sqlStoreInternals(store)
 */
export function sqlStoreInternals(store: Store): SqlStoreInternals {
  const found = internals.get(store as SqlStore)
  if (found === undefined)
    throw new TypeError('sqlRateLimiter needs a store created by createSqliteStore or createPostgresStore')
  return found
}

type Row = Record<string, unknown>
type Exec = Kysely<unknown>

const foldOrNull = (text: string | null): string | null => (text === null ? null : foldCase(text))
const parse = <T>(text: unknown): T => JSON.parse(String(text)) as T

/**
 * Parsed list/ticket docs are kept with the text they were parsed from and reused only while the
 * stored text is identical (JSON.parse of a 25-row page is the largest part of a steady-state
 * read; the text itself is reused as the reply's JSON). Like the memory store, reads then share
 * one frozen object per unchanged record. At most 2,000 docs (a few MB): hot pages stay parsed,
 * the rest is parsed per read.
 */
const MAX_CACHED_DOCS = 2_000
/** How much of a document's text keys the cache: enough for `{"id":"<uuid>",`. */
const DOC_KEY_LENGTH = 64

/** Counts are cached per (tenant, ticket generation, filter); the table bumps on every ticket seed. */
const MAX_CACHED_COUNTS = 10_000

/**
 * Creates the shared SQL store over a Kysely instance. Use `createSqliteStore` or
 * `createPostgresStore`, which build the Kysely instance and pick the engine.
 *
 * @example
 * const store = await createKyselyStore(new Kysely({ dialect }), sqliteEngine)
 */
export async function createKyselyStore(db: Exec, engine: Engine, options: KyselyStoreOptions = {}): Promise<SqlStore> {
  const schema = engine.name === 'postgres' ? options.schema : undefined
  const tableName = (name: string) => (schema === undefined ? quote(name) : `${quote(schema)}.${quote(name)}`)
  const t = (name: string) => sql.raw(tableName(name))
  const migrate = () => migrateToLatest(db, { engine, table: tableName, schema })
  const unavailable = (error: unknown) =>
    error instanceof StoreUnavailableError
      ? error
      : engine.isUnavailable(error)
        ? new StoreUnavailableError(error)
        : error
  const countCache = new Map<string, { generation: number; count: number }>()

  if (options.migrate !== false) {
    try {
      await migrate()
    } catch (error) {
      throw unavailable(error)
    }
  }

  const rows = async <R = Row>(query: RawBuilder<unknown>, ex: Exec = db): Promise<R[]> =>
    (await query.execute(ex)).rows as R[]
  const one = async <R = Row>(query: RawBuilder<unknown>, ex: Exec = db): Promise<R | undefined> =>
    (await rows<R>(query, ex))[0]
  const docOf = async <T>(table: string, tenantId: string, id: string): Promise<T | null> => {
    const row = await one<{ doc: string }>(
      sql`SELECT doc FROM ${t(table)} WHERE tenant_id = ${tenantId} AND id = ${id}`,
    )
    return row === undefined ? null : parse<T>(row.doc)
  }
  const docCache = new Map<string, { text: string; value: unknown }>()
  /** The record stored as `text`: parsed and frozen once, then shared while the stored text is unchanged. */
  const parseDoc = <T>(text: unknown): T => {
    const source = String(text)
    // Keyed by the text's start (the record's id comes first), confirmed by the whole text: hashing
    // every 600-character text of a page costs as much as reading the page.
    const key = source.slice(0, DOC_KEY_LENGTH)
    const hit = docCache.get(key)
    if (hit !== undefined && hit.text === source) return hit.value as T
    const value = frozenFromJson<T>(source)
    if (docCache.size >= MAX_CACHED_DOCS) docCache.clear()
    docCache.set(key, { text: source, value })
    return value
  }
  /**
   * LIMIT and OFFSET written into the statement (validated integers): SQLite plans a page with a
   * known limit better than one with bound ones, and the statement cache keeps the common pages.
   */
  const limitOffset = (limit: number, offset: number) => {
    if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(offset))
      throw new TypeError('limit and offset must be integers')
    return sql.raw(`LIMIT ${limit} OFFSET ${offset}`)
  }
  const and = (parts: RawBuilder<unknown>[]) => sql.join(parts, sql` AND `)
  const order = (column: string, descending: boolean) =>
    sql.raw(`${quote(column)} ${descending ? 'DESC' : 'ASC'} NULLS LAST, id ASC`)

  /** A page of `table` under `where`, in `orderSql`, with its exact count. */
  async function listPage<T>(
    table: string,
    where: RawBuilder<unknown>[],
    orderSql: RawBuilder<unknown>,
    query: { page: number; limit: number },
  ): Promise<ListResult<T>> {
    const filter = and(where)
    const totalCount = Number(
      (await one<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${t(table)} WHERE ${filter}`))?.n ?? 0,
    )
    const offset = (query.page - 1) * query.limit
    // Past the end: no query (and no huge OFFSET reaches SQL).
    if (offset >= totalCount) return { items: [], totalCount }
    const page = await rows<{ doc: string }>(
      sql`SELECT doc FROM ${t(table)} WHERE ${filter} ORDER BY ${orderSql} ${limitOffset(query.limit, offset)}`,
    )
    return { items: page.map((r) => parseDoc<T>(r.doc)), totalCount }
  }

  /**
   * A page of tickets with its exact count. The count is cached per (tenant, filter) with the
   * tenant's ticket generation. In the steady state one statement reads the page, and reads it only
   * while the stored generation is still the cached one: the tenant it seeks in its index is
   * `(SELECT tenant_id ... AND generation = cached)`, evaluated once, so after a seed it finds
   * nothing at once (a condition beside the seek would be tested row by row, scanning the tenant).
   */
  async function ticketPage(
    tenantId: string,
    filterKey: string,
    conditions: RawBuilder<unknown>[],
    orderSql: RawBuilder<unknown>,
    query: { page: number; limit: number },
  ): Promise<ListResult<Ticket>> {
    const offset = (query.page - 1) * query.limit
    const key = `${tenantId}\u0000${filterKey}`
    const cached = countCache.get(key)
    const where = (tenant: RawBuilder<unknown>) => and([sql`tenant_id = ${tenant}`, ...conditions])
    if (cached !== undefined && offset < cached.count) {
      const current = sql`(SELECT tenant_id FROM ${t('ticket_generations')} WHERE tenant_id = ${tenantId} AND generation = ${cached.generation})`
      const page = await rows<{ doc: string }>(
        sql`SELECT doc FROM ${t('tickets')} WHERE ${where(current)} ORDER BY ${orderSql} ${limitOffset(query.limit, offset)}`,
      )
      // No rows: a seed changed the generation (this page is known not to be past the end).
      if (page.length > 0) return { items: page.map((r) => parseDoc<Ticket>(r.doc)), totalCount: cached.count }
    }
    const filter = where(sql`${tenantId}`)
    const gen = await one<{ generation: unknown }>(
      sql`SELECT generation FROM ${t('ticket_generations')} WHERE tenant_id = ${tenantId}`,
    )
    if (gen === undefined) return { items: [], totalCount: 0 }
    // Kept as a number (pg returns bigint as text): the steady-state statement binds it against the column.
    const generation = Number(gen.generation)
    let totalCount = cached?.generation === generation ? cached.count : undefined
    if (totalCount === undefined) {
      totalCount = Number(
        (await one<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${t('tickets')} WHERE ${filter}`))?.n ?? 0,
      )
      if (countCache.size >= MAX_CACHED_COUNTS) countCache.clear()
      // Cached under the generation read before counting: a seed in between only makes it recount later.
      countCache.set(key, { generation, count: totalCount })
    }
    if (offset >= totalCount) return { items: [], totalCount }
    const page = await rows<{ doc: string }>(
      sql`SELECT doc FROM ${t('tickets')} WHERE ${filter} ORDER BY ${orderSql} ${limitOffset(query.limit, offset)}`,
    )
    return { items: page.map((r) => parseDoc<Ticket>(r.doc)), totalCount }
  }

  async function budgetView(tenantId: string, id: string, ex: Exec = db): Promise<Budget | null> {
    // One statement, so the budget and its items come from one snapshot.
    const found = await rows<{ kind: unknown; doc: string }>(
      sql`SELECT 0 AS kind, doc, 0 AS seq FROM ${t('budgets')} WHERE tenant_id = ${tenantId} AND id = ${id}
          UNION ALL SELECT 1 AS kind, doc, seq FROM ${t('budget_line_items')} WHERE tenant_id = ${tenantId} AND budget_id = ${id}
          ORDER BY kind, seq`,
      ex,
    )
    const head = found[0]
    if (head === undefined || Number(head.kind) !== 0) return null
    const record = parse<BudgetRecord>(head.doc)
    const lineItems = found.slice(1).map((r) => parse<BudgetLineItem>(r.doc))
    return { ...record, lineItems, totals: budgetTotals(lineItems), lineItemCount: lineItems.length }
  }

  /** Multi-row upserts in batches, as hand-written SQL (one statement text per batch size). */
  async function upsert(
    ex: Exec,
    table: string,
    columns: string[],
    keys: string[],
    records: unknown[][] | { length: number; at: (i: number) => unknown[] },
  ): Promise<void> {
    if (records.length === 0) return
    const at = Array.isArray(records) ? (i: number) => records[i]! : records.at
    const perBatch = Math.max(1, Math.floor(30_000 / columns.length))
    const update = columns.filter((c) => !keys.includes(c)).map((c) => `${quote(c)} = excluded.${quote(c)}`)
    const texts = new Map<number, string>()
    for (let start = 0; start < records.length; start += perBatch) {
      const batch = Array.from({ length: Math.min(perBatch, records.length - start) }, (_, i) => at(start + i))
      let text = texts.get(batch.length)
      if (text === undefined) {
        let index = 0
        const tuples = batch.map(() => `(${columns.map(() => engine.placeholder(++index)).join(', ')})`)
        text = `INSERT INTO ${tableName(table)} (${columns.map(quote).join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (${keys.map(quote).join(', ')}) ${update.length > 0 ? `DO UPDATE SET ${update.join(', ')}` : 'DO NOTHING'}`
        texts.set(batch.length, text)
      }
      const params: unknown[] = []
      for (const record of batch)
        for (const value of record) params.push(typeof value === 'string' ? engine.text(value) : value)
      await ex.executeQuery(CompiledQuery.raw(text, params))
    }
  }

  const b = (value: boolean) => engine.bool(value)
  const json = (value: unknown) => JSON.stringify(value)

  async function seedAll(tenantId: string, data: SeedData): Promise<void> {
    const r = normalizeSeed(data)
    await engine.writeTransaction(db, async (ex) => {
      const docs = (
        table: string,
        list: { id: string }[],
        extra: (record: never) => unknown[] = () => [],
        extraColumns: string[] = [],
      ) =>
        upsert(
          ex,
          table,
          ['tenant_id', 'id', ...extraColumns, 'doc'],
          ['tenant_id', 'id'],
          list.map((record) => [tenantId, record.id, ...extra(record as never), json(record)]),
        )
      const bulk = r.tickets.length > 10_000
      if (bulk) for (const statement of engine.bulkLoad.before) await sql.raw(statement).execute(ex)
      // SQLite: a load at least as big as the table is faster without its indexes, rebuilt after (same transaction).
      let rebuild = false
      if (engine.name === 'sqlite' && r.tickets.length >= 50_000) {
        const existing = Number((await one<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${t('tickets')}`, ex))?.n ?? 0)
        rebuild = r.tickets.length >= existing
      }
      if (rebuild)
        for (const statement of ticketIndexStatements(engine, tableName).drop) await sql.raw(statement).execute(ex)
      if (r.tickets.length > 0) {
        const byNewest = orderBy((n: TicketNote) => n.createdAt, true)
        const ticketRow = ({ notes, ...ticket }: (typeof r.tickets)[number]): unknown[] => [
          tenantId,
          ticket.id,
          ticket.ticketNumber,
          ticket.title,
          ticket.status,
          ticket.priority,
          ticket.companyName,
          ticket.assignedTo,
          ticket.createdAt,
          ticket.updatedAt,
          ticket.daysOpen,
          ticket.companyId,
          ticket.provider,
          b(ticket.isClosed),
          foldCase(ticket.title),
          foldOrNull(ticket.status),
          foldOrNull(ticket.priority),
          foldOrNull(ticket.assignedTo),
          json(ticket),
          json([...notes].sort(byNewest)),
        ]
        await upsert(
          ex,
          'tickets',
          [
            'tenant_id',
            'id',
            'ticket_number',
            'title',
            'status',
            'priority',
            'company_name',
            'assigned_to',
            'created_at',
            'updated_at',
            'days_open',
            'company_id',
            'provider',
            'is_closed',
            'title_f',
            'status_f',
            'priority_f',
            'assigned_to_f',
            'doc',
            'notes',
          ],
          ['tenant_id', 'id'],
          { length: r.tickets.length, at: (i) => ticketRow(r.tickets[i]!) },
        )
        if (rebuild)
          for (const statement of ticketIndexStatements(engine, tableName).create) await sql.raw(statement).execute(ex)
        await sql`INSERT INTO ${t('ticket_generations')} AS cur (tenant_id, generation) VALUES (${tenantId}, 1)
                  ON CONFLICT (tenant_id) DO UPDATE SET generation = cur.generation + 1`.execute(ex)
      }
      if (bulk) for (const statement of engine.bulkLoad.after) await sql.raw(statement).execute(ex)
      for (const { lineItems, ...budget } of r.budgets) {
        await docs('budgets', [budget])
        await sql`DELETE FROM ${t('budget_line_items')} WHERE tenant_id = ${tenantId} AND budget_id = ${budget.id}`.execute(
          ex,
        )
        await upsert(
          ex,
          'budget_line_items',
          ['tenant_id', 'budget_id', 'seq', 'doc'],
          ['tenant_id', 'budget_id', 'seq'],
          lineItems.map((item, i) => [tenantId, budget.id, i + 1, json(item)]),
        )
      }
      await docs('automation_rules', r.automationRules, (x: AutomationRuleRecord) => [x.version], ['version'])
      await docs('reports', r.reports, (x: ReportRecord) => [x.version], ['version'])
      await docs('report_types', r.reportTypes)
      await upsert(
        ex,
        'report_templates',
        ['tenant_id', 'id', 'name', 'created_at', 'updated_at', 'report_type_id', 'is_shared', 'structure', 'doc'],
        ['tenant_id', 'id'],
        r.reportTemplates.map(({ templateStructure, ...x }) => [
          tenantId,
          x.id,
          x.name,
          x.createdAt,
          x.updatedAt,
          x.reportTypeId,
          b(x.isShared),
          json(templateStructure),
          json(x),
        ]),
      )
      await docs(
        'compliance_templates',
        r.complianceTemplates,
        (x: (typeof r.complianceTemplates)[number]) => [
          x.title,
          x.createdAt,
          x.updatedAt,
          x.priority,
          x.criticality,
          x.groupId,
          x.approvalStatus,
          x.checkScope,
          foldCase(x.title),
        ],
        [
          'title',
          'created_at',
          'updated_at',
          'priority',
          'criticality',
          'group_id',
          'approval_status',
          'check_scope',
          'title_f',
        ],
      )
      await docs('compliance_checks', r.complianceChecks)
      await docs('training_courses', r.trainingCourses)
      await docs(
        'training_enrollments',
        r.trainingEnrollments,
        (x: (typeof r.trainingEnrollments)[number]) => [x.enrolledAt, x.course.id, x.user.id, x.companyId, x.status],
        ['enrolled_at', 'course_id', 'user_id', 'company_id', 'status'],
      )
      await docs(
        'users',
        r.users,
        (x: (typeof r.users)[number]) => [
          x.fullName,
          x.email,
          x.status,
          x.createdAt,
          x.lastLogin,
          x.role?.id ?? null,
          x.company?.id ?? null,
          b(x.isPrimaryAdmin),
          foldOrNull(x.fullName),
          foldCase(x.email),
        ],
        [
          'full_name',
          'email',
          'status',
          'created_at',
          'last_login',
          'role_id',
          'company_id',
          'is_primary_admin',
          'full_name_f',
          'email_f',
        ],
      )
      await docs('companies', r.companies, (x: (typeof r.companies)[number]) => [x.name, x.createdAt, x.updatedAt], [
        'name',
        'created_at',
        'updated_at',
      ])
      await docs('meeting_types', r.meetingTypes, (x: (typeof r.meetingTypes)[number]) => [x.orderIndex, x.name], [
        'order_index',
        'name',
      ])
      await docs('goals', r.goals)
      await docs('nps_surveys', r.npsSurveys)
      await docs('planner_item_types', r.plannerItemTypes)
    })
  }

  let reserves = 0

  const store: SqlStore = {
    engine: engine.name,
    migrate,

    async listTickets(tenantId, query: TicketListQuery) {
      // The tenant condition is ticketPage's: it seeks the tenant only while its counted generation is current.
      const where: RawBuilder<unknown>[] = []
      if (query.search !== undefined)
        where.push(engine.contains('title_f', foldCase(query.search), { table: 'ticket_fts', column: 'title_f' }))
      if (query.companyId !== undefined) where.push(sql`company_id = ${query.companyId}`)
      if (query.status !== undefined) where.push(sql`status_f = ${foldCase(query.status)}`)
      if (query.priority !== undefined) where.push(sql`priority_f = ${foldCase(query.priority)}`)
      if (query.assignedTo !== undefined) where.push(sql`assigned_to_f = ${foldCase(query.assignedTo)}`)
      if (query.isClosed !== undefined) where.push(sql`is_closed = ${b(query.isClosed)}`)
      if (query.provider !== undefined) where.push(sql`provider = ${query.provider}`)
      if (query.dateFrom !== undefined) where.push(sql`created_at >= ${query.dateFrom}`)
      if (query.dateTo !== undefined) where.push(sql`created_at <= ${query.dateTo}`)
      const { page: _p, limit: _l, sortColumn: _s, sortDesc: _d, ...filters } = query
      const filterKey = JSON.stringify(Object.entries(filters).sort(([a], [c]) => (a < c ? -1 : 1)))
      return ticketPage(tenantId, filterKey, where, order(TICKET_SORT_SQL[query.sortColumn], query.sortDesc), query)
    },

    async getTicket(tenantId, idOrNumber, notesLimit) {
      const columns = notesLimit === null ? sql`doc` : sql`doc, notes`
      const row =
        (await one<{ doc: string; notes?: string }>(
          sql`SELECT ${columns} FROM ${t('tickets')} WHERE tenant_id = ${tenantId} AND id = ${idOrNumber}`,
        )) ??
        (await one<{ doc: string; notes?: string }>(
          sql`SELECT ${columns} FROM ${t('tickets')} WHERE tenant_id = ${tenantId} AND ticket_number = ${idOrNumber} ORDER BY id LIMIT 1`,
        ))
      if (row === undefined) return null
      const ticket = parseDoc<Ticket>(row.doc)
      return notesLimit === null ? ticket : { ...ticket, notes: parse<TicketNote[]>(row.notes).slice(0, notesLimit) }
    },

    getBudget: (tenantId, id) => budgetView(tenantId, id),

    async updateBudget(tenantId, id, patch, updatedAt) {
      return engine.writeTransaction(db, async (ex) => {
        const row = await one<{ doc: string }>(
          sql`SELECT doc FROM ${t('budgets')} WHERE tenant_id = ${tenantId} AND id = ${id}${sql.raw(engine.forUpdate)}`,
          ex,
        )
        if (row === undefined) return null
        const next = { ...parse<BudgetRecord>(row.doc), ...patch, updatedAt }
        await sql`UPDATE ${t('budgets')} SET doc = ${json(next)} WHERE tenant_id = ${tenantId} AND id = ${id}`.execute(
          ex,
        )
        return budgetView(tenantId, id, ex)
      })
    },

    async addBudgetLineItem(tenantId, budgetId, item) {
      return engine.writeTransaction(db, async (ex) => {
        const row = await one<{ doc: string }>(
          sql`SELECT doc FROM ${t('budgets')} WHERE tenant_id = ${tenantId} AND id = ${budgetId}${sql.raw(engine.forUpdate)}`,
          ex,
        )
        if (row === undefined) return false
        const next = { ...parse<BudgetRecord>(row.doc), updatedAt: item.createdAt }
        await sql`UPDATE ${t('budgets')} SET doc = ${json(next)} WHERE tenant_id = ${tenantId} AND id = ${budgetId}`.execute(
          ex,
        )
        await sql`INSERT INTO ${t('budget_line_items')} (tenant_id, budget_id, seq, doc)
                  SELECT ${tenantId}, ${budgetId}, COALESCE(MAX(seq), 0) + 1, ${json(item)} FROM ${t('budget_line_items')} WHERE tenant_id = ${tenantId} AND budget_id = ${budgetId}`.execute(
          ex,
        )
        return true
      })
    },

    getAutomationRule: (tenantId, id) => docOf<AutomationRuleRecord>('automation_rules', tenantId, id),

    async insertAutomationRule(tenantId, rule) {
      await sql`INSERT INTO ${t('automation_rules')} (tenant_id, id, version, doc) VALUES (${tenantId}, ${rule.id}, ${rule.version}, ${json(rule)})
                ON CONFLICT (tenant_id, id) DO UPDATE SET version = excluded.version, doc = excluded.doc`.execute(db)
    },

    async replaceAutomationRule(tenantId, rule, expectedVersion) {
      const done = await rows(
        sql`UPDATE ${t('automation_rules')} SET version = ${rule.version}, doc = ${json(rule)} WHERE tenant_id = ${tenantId} AND id = ${rule.id} AND version = ${expectedVersion} RETURNING id`,
      )
      return done.length > 0
    },

    getReport: (tenantId, id) => docOf<ReportRecord>('reports', tenantId, id),

    async replaceReport(tenantId, report, expectedVersion) {
      const done = await rows(
        sql`UPDATE ${t('reports')} SET version = ${report.version}, doc = ${json(report)} WHERE tenant_id = ${tenantId} AND id = ${report.id} AND version = ${expectedVersion} RETURNING id`,
      )
      return done.length > 0
    },

    getReportType: (tenantId, id) => docOf('report_types', tenantId, id),

    listReportTemplates(tenantId, query) {
      const where: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`]
      if (query.reportTypeId !== undefined) where.push(sql`report_type_id = ${query.reportTypeId}`)
      if (query.isShared !== undefined) where.push(sql`is_shared = ${b(query.isShared)}`)
      const column = { name: 'name', created_at: 'created_at', updated_at: 'updated_at' }[query.sortBy]
      return listPage('report_templates', where, order(column, query.sortOrder === 'desc'), query)
    },

    async getReportTemplate(tenantId, id, includeStructure) {
      const row = await one<{ doc: string; structure: string }>(
        sql`SELECT doc, structure FROM ${t('report_templates')} WHERE tenant_id = ${tenantId} AND id = ${id}`,
      )
      if (row === undefined) return null
      const template = parse<Omit<ReportTemplateRecord, 'templateStructure'>>(row.doc)
      return includeStructure
        ? { ...template, templateStructure: parse<ReportTemplateRecord['templateStructure']>(row.structure) }
        : template
    },

    listComplianceTemplates(tenantId, query) {
      const where: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`]
      if (query.search !== undefined) where.push(engine.contains('title_f', foldCase(query.search)))
      if (query.groupId !== undefined) where.push(sql`group_id = ${query.groupId}`)
      if (query.approvalStatus !== undefined) where.push(sql`approval_status = ${query.approvalStatus}`)
      if (query.checkScope !== undefined) where.push(sql`check_scope = ${query.checkScope}`)
      const column = {
        title: 'title',
        created_at: 'created_at',
        updated_at: 'updated_at',
        priority: 'priority',
        criticality: 'criticality',
      }[query.sortBy]
      return listPage('compliance_templates', where, order(column, query.sortOrder === 'desc'), query)
    },

    getComplianceTemplate: (tenantId, id) => docOf('compliance_templates', tenantId, id),
    getComplianceCheck: (tenantId, id) => docOf('compliance_checks', tenantId, id),

    listTrainingEnrollments(tenantId, query) {
      const where: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`]
      if (query.courseId !== undefined) where.push(sql`course_id = ${query.courseId}`)
      if (query.userId !== undefined) where.push(sql`user_id = ${query.userId}`)
      if (query.companyId !== undefined) where.push(sql`company_id = ${query.companyId}`)
      if (query.status !== undefined) where.push(sql`status = ${query.status}`)
      return listPage('training_enrollments', where, order('enrolled_at', true), query)
    },

    async deleteTrainingEnrollment(tenantId, id) {
      return (
        (
          await rows(
            sql`DELETE FROM ${t('training_enrollments')} WHERE tenant_id = ${tenantId} AND id = ${id} RETURNING id`,
          )
        ).length > 0
      )
    },

    async getTrainingCourse(tenantId, id) {
      const row = await one<{ doc: string; n: unknown }>(
        sql`SELECT doc, (SELECT count(*) FROM ${t('training_enrollments')} e WHERE e.tenant_id = ${tenantId} AND e.course_id = ${id}) AS n
            FROM ${t('training_courses')} WHERE tenant_id = ${tenantId} AND id = ${id}`,
      )
      return row === undefined
        ? null
        : ({ ...parse<object>(row.doc), enrollmentCount: Number(row.n) } as Awaited<
            ReturnType<Store['getTrainingCourse']>
          >)
    },

    listUsers(tenantId, query) {
      const where: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`]
      if (query.search !== undefined) {
        const term = foldCase(query.search)
        where.push(sql`(${engine.contains('full_name_f', term)} OR ${engine.contains('email_f', term)})`)
      }
      if (query.status !== undefined) where.push(sql`status = ${query.status}`)
      if (query.roleId !== undefined) where.push(sql`role_id = ${query.roleId}`)
      if (query.companyId !== undefined) where.push(sql`company_id = ${query.companyId}`)
      if (query.isPrimaryAdmin !== undefined) where.push(sql`is_primary_admin = ${b(query.isPrimaryAdmin)}`)
      const column = {
        full_name: 'full_name',
        email: 'email',
        status: 'status',
        created_at: 'created_at',
        last_login: 'last_login',
      }[query.sortColumn]
      return listPage('users', where, order(column, query.sortDesc), query)
    },

    listMeetingTypes(tenantId, query) {
      return listPage(
        'meeting_types',
        [sql`tenant_id = ${tenantId}`],
        sql.raw('order_index ASC, name ASC, id ASC'),
        query,
      )
    },

    listCompanies(tenantId, query) {
      const column = { name: 'name', created_at: 'created_at', updated_at: 'updated_at' }[query.sortBy]
      return listPage('companies', [sql`tenant_id = ${tenantId}`], order(column, query.sortOrder === 'desc'), query)
    },

    async findCompanies(tenantId, ids) {
      if (ids.length === 0) return []
      const found = await rows<{ id: string; name: string }>(
        sql`SELECT id, ${sql.raw(quote('name'))} AS name FROM ${t('companies')} WHERE tenant_id = ${tenantId} AND id IN (${sql.join([...new Set(ids)])})`,
      )
      const byId = new Map(found.map((c) => [c.id, c.name]))
      return ids.flatMap((id) => (byId.has(id) ? [{ id, name: byId.get(id) ?? null }] : []))
    },

    getGoal: (tenantId, id) => docOf('goals', tenantId, id),

    async getNpsSurvey(tenantId, id) {
      const record = await docOf<NpsSurveyRecord>('nps_surveys', tenantId, id)
      if (record === null) return null
      const { responses, ...survey } = record
      return { ...survey, responseCount: responses.length, statistics: npsStatistics(responses, survey.inviteCount) }
    },

    getPlannerItemType: (tenantId, id) => docOf('planner_item_types', tenantId, id),

    async reserveIdempotencyKey(tenantId, key, fingerprint, now): Promise<IdempotencyReservation> {
      const at = now.getTime()
      if (++reserves % 1000 === 0)
        await sql`DELETE FROM ${t('idempotency_keys')} WHERE started_at < ${at - IDEMPOTENCY_TTL_MS}`.execute(db)
      for (;;) {
        // One statement takes the key when it is free or its holder is dead.
        const taken = await rows(
          sql`INSERT INTO ${t('idempotency_keys')} AS cur (tenant_id, key, fingerprint, started_at, response) VALUES (${tenantId}, ${key}, ${fingerprint}, ${at}, NULL)
              ON CONFLICT (tenant_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, started_at = excluded.started_at, response = NULL
              WHERE (cur.response IS NOT NULL AND ${at} - cur.started_at >= ${IDEMPOTENCY_TTL_MS}) OR (cur.response IS NULL AND ${at} - cur.started_at >= ${IDEMPOTENCY_LOCK_MS})
              RETURNING key`,
        )
        if (taken.length > 0) return { state: 'reserved' }
        const held = await one<{ fingerprint: string; response: string | null }>(
          sql`SELECT fingerprint, response FROM ${t('idempotency_keys')} WHERE tenant_id = ${tenantId} AND key = ${key}`,
        )
        if (held === undefined) continue // released in between: try again
        return held.response === null
          ? { state: 'in_progress', fingerprint: held.fingerprint }
          : { state: 'completed', fingerprint: held.fingerprint, response: parse<StoredResponse>(held.response) }
      }
    },

    async completeIdempotencyKey(tenantId, key, response) {
      await sql`UPDATE ${t('idempotency_keys')} SET response = ${json(response)} WHERE tenant_id = ${tenantId} AND key = ${key}`.execute(
        db,
      )
    },

    async releaseIdempotencyKey(tenantId, key) {
      await sql`DELETE FROM ${t('idempotency_keys')} WHERE tenant_id = ${tenantId} AND key = ${key}`.execute(db)
    },

    seed: seedAll,

    async close() {
      await db.destroy()
      await options.onClose?.()
    },
  }

  // Every method: a database that cannot be reached is a StoreUnavailableError (503), not a 500.
  for (const [name, method] of Object.entries(store)) {
    if (typeof method !== 'function' || name === 'close') continue
    ;(store as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      try {
        return await (method as (...a: unknown[]) => Promise<unknown>).apply(store, args)
      } catch (error) {
        throw unavailable(error)
      }
    }
  }
  internals.set(store, { db, engine, table: t, unavailable })
  return store
}
