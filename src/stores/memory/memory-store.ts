/**
 * The in-memory store: the reference implementation of the store seam, for tests, demos and
 * single-process hosts. Records are deep-frozen when written, so reads hand them out without
 * copying; every write is synchronous between awaits, so each method is atomic. Lists keep one
 * sorted order per (collection, sort) and reuse it until that collection changes, so a list
 * request filters and slices but never sorts the whole collection.
 */
import { budgetTotals, npsStatistics } from '../../domain/computed.js'
import { compareCodePoints, foldCase, orderBy } from '../../domain/ordering.js'
import type { AutomationRuleRecord } from '../../resources/automation-rules/schema.js'
import type { Budget, BudgetLineItem } from '../../resources/budgets/schema.js'
import type { MeetingType } from '../../resources/calendar/schema.js'
import { COMPANY_SORT, type Company } from '../../resources/companies/schema.js'
import {
  COMPLIANCE_TEMPLATE_SORT,
  type ComplianceCheck,
  type ComplianceTemplate,
} from '../../resources/compliance/schema.js'
import type { Goal } from '../../resources/goals/schema.js'
import type { NpsSurveyRecord } from '../../resources/nps-surveys/schema.js'
import type { PlannerItemType } from '../../resources/planner/schema.js'
import {
  REPORT_TEMPLATE_SORT,
  type ReportTemplate,
  type ReportTemplateRecord,
} from '../../resources/report-templates/schema.js'
import type { ReportRecord, ReportType } from '../../resources/reports/schema.js'
import { TICKET_SORT_COLUMNS, type Ticket, type TicketNote } from '../../resources/tickets/schema.js'
import type { TrainingEnrollment } from '../../resources/training/schema.js'
import { USER_SORT_COLUMNS, type User } from '../../resources/users/schema.js'
import { deepFreeze } from '../frozen-records.js'
import { normalizeSeed, type BudgetRecord, type SeedData, type TrainingCourseRecord } from '../seed.js'
import {
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyReservation,
  type ListResult,
  type Store,
  type StoredResponse,
} from '../store.js'

/** A ticket with what its list filters compare, folded once when it is stored. */
interface TicketEntry {
  id: string
  ticket: Ticket
  notes: readonly TicketNote[]
  title: string
  status: string | null
  priority: string | null
  assignedTo: string | null
}

interface IdempotencyEntry {
  fingerprint: string
  startedAt: number
  response: StoredResponse | null
}

/** One collection of one tenant: records by id, a change counter, and sorted orders built from it. */
class Collection<T extends { id: string }> {
  readonly byId = new Map<string, T>()
  private orders = new Map<string, readonly T[]>()

  set(record: T): void {
    this.byId.set(record.id, deepFreeze(record))
    this.orders.clear()
  }

  delete(id: string): boolean {
    const deleted = this.byId.delete(id)
    if (deleted) this.orders.clear()
    return deleted
  }

  /** The whole collection in the order of `compare`, sorted once per change. */
  sorted(orderKey: string, compare: (a: T, b: T) => number): readonly T[] {
    let order = this.orders.get(orderKey)
    if (order === undefined) {
      order = [...this.byId.values()].sort(compare)
      this.orders.set(orderKey, order)
    }
    return order
  }
}

class TenantData {
  tickets = new Collection<TicketEntry>()
  /** Ticket numbers can repeat across PSA providers: the lookup takes the smallest id. */
  ticketIdsByNumber = new Map<string, string[]>()
  budgets = new Collection<BudgetRecord & { lineItems: readonly BudgetLineItem[] }>()
  automationRules = new Collection<AutomationRuleRecord>()
  reports = new Collection<ReportRecord>()
  reportTypes = new Collection<ReportType>()
  reportTemplates = new Collection<ReportTemplateRecord>()
  complianceTemplates = new Collection<ComplianceTemplate>()
  complianceChecks = new Collection<ComplianceCheck>()
  trainingCourses = new Collection<TrainingCourseRecord>()
  trainingEnrollments = new Collection<TrainingEnrollment>()
  users = new Collection<User>()
  companies = new Collection<Company>()
  meetingTypes = new Collection<MeetingType>()
  goals = new Collection<Goal>()
  npsSurveys = new Collection<NpsSurveyRecord>()
  plannerItemTypes = new Collection<PlannerItemType>()
  idempotency = new Map<string, IdempotencyEntry>()
}

/** A page of `sorted` that passes `matches`, with the exact count of all that pass. */
function page<T, R>(
  sorted: readonly T[],
  query: { page: number; limit: number },
  matches: ((record: T) => boolean) | null,
  map: (record: T) => R,
): ListResult<R> {
  const start = (query.page - 1) * query.limit
  const end = start + query.limit
  if (matches === null) return { items: sorted.slice(start, end).map(map), totalCount: sorted.length }
  const items: R[] = []
  let totalCount = 0
  for (const record of sorted) {
    if (!matches(record)) continue
    if (totalCount >= start && totalCount < end) items.push(map(record))
    totalCount += 1
  }
  return { items, totalCount }
}

/** All given predicates, or null when none (so an unfiltered list is a plain slice). */
function allOf<T>(predicates: Array<((record: T) => boolean) | false | undefined>): ((record: T) => boolean) | null {
  const active = predicates.filter((p): p is (record: T) => boolean => typeof p === 'function')
  if (active.length === 0) return null
  return (record) => active.every((p) => p(record))
}

const identity = <T>(record: T): T => record

function foldOrNull(text: string | null): string | null {
  return text === null ? null : foldCase(text)
}

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Records to load into tenants on creation: `{ [tenantId]: SeedData }`. */
  seed?: Record<string, SeedData>
}

/** The in-memory store, with `seed` for loading data. */
export type MemoryStore = Store

/**
 * A store that keeps everything in this process's memory. Fast and exact; data is lost when the
 * process ends and is not shared between processes.
 *
 * @example
 * const store = createMemoryStore()
 * await store.seed('tenant-1', { companies: [{ id, name: 'Acme', status: 'active', createdAt, updatedAt }] })
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const tenants = new Map<string, TenantData>()
  const tenant = (id: string): TenantData => {
    let data = tenants.get(id)
    if (data === undefined) {
      data = new TenantData()
      tenants.set(id, data)
    }
    return data
  }
  const peek = (id: string): TenantData | undefined => tenants.get(id)

  function budgetView(record: BudgetRecord & { lineItems: readonly BudgetLineItem[] }): Budget {
    return {
      ...record,
      lineItems: [...record.lineItems],
      totals: budgetTotals(record.lineItems),
      lineItemCount: record.lineItems.length,
    }
  }

  function seedSync(tenantId: string, data: SeedData): void {
    const records = normalizeSeed(data)
    const t = tenant(tenantId)
    for (const { notes, ...ticket } of records.tickets) {
      const previous = t.tickets.byId.get(ticket.id)
      if (previous) {
        const ids = t.ticketIdsByNumber.get(previous.ticket.ticketNumber)?.filter((id) => id !== ticket.id) ?? []
        if (ids.length > 0) t.ticketIdsByNumber.set(previous.ticket.ticketNumber, ids)
        else t.ticketIdsByNumber.delete(previous.ticket.ticketNumber)
      }
      t.tickets.set({
        id: ticket.id,
        ticket,
        notes: [...notes].sort(orderBy((n: TicketNote) => n.createdAt, true)),
        title: foldCase(ticket.title),
        status: foldOrNull(ticket.status),
        priority: foldOrNull(ticket.priority),
        assignedTo: foldOrNull(ticket.assignedTo),
      })
      const ids = [...(t.ticketIdsByNumber.get(ticket.ticketNumber) ?? []), ticket.id].sort(compareCodePoints)
      t.ticketIdsByNumber.set(ticket.ticketNumber, ids)
    }
    for (const budget of records.budgets) t.budgets.set(budget)
    for (const rule of records.automationRules) t.automationRules.set(rule)
    for (const report of records.reports) t.reports.set(report)
    for (const type of records.reportTypes) t.reportTypes.set(type)
    for (const template of records.reportTemplates) t.reportTemplates.set(template)
    for (const template of records.complianceTemplates) t.complianceTemplates.set(template)
    for (const check of records.complianceChecks) t.complianceChecks.set(check)
    for (const course of records.trainingCourses) t.trainingCourses.set(course)
    for (const enrollment of records.trainingEnrollments) t.trainingEnrollments.set(enrollment)
    for (const user of records.users) t.users.set(user)
    for (const company of records.companies) t.companies.set(company)
    for (const type of records.meetingTypes) t.meetingTypes.set(type)
    for (const goal of records.goals) t.goals.set(goal)
    for (const survey of records.npsSurveys) t.npsSurveys.set(survey)
    for (const type of records.plannerItemTypes) t.plannerItemTypes.set(type)
  }

  for (const [tenantId, data] of Object.entries(options.seed ?? {})) seedSync(tenantId, data)

  const store: MemoryStore = {
    async listTickets(tenantId, query) {
      const t = peek(tenantId)
      if (!t) return { items: [], totalCount: 0 }
      const field = TICKET_SORT_COLUMNS[query.sortColumn]
      const sorted = t.tickets.sorted(
        `${field}:${query.sortDesc}`,
        orderBy((e: TicketEntry) => e.ticket[field], query.sortDesc),
      )
      const search = query.search === undefined ? undefined : foldCase(query.search)
      const status = query.status === undefined ? undefined : foldCase(query.status)
      const priority = query.priority === undefined ? undefined : foldCase(query.priority)
      const assignedTo = query.assignedTo === undefined ? undefined : foldCase(query.assignedTo)
      const { companyId, isClosed, provider, dateFrom, dateTo } = query
      const matches = allOf<TicketEntry>([
        search !== undefined && ((e) => e.title.includes(search)),
        companyId !== undefined && ((e) => e.ticket.companyId === companyId),
        status !== undefined && ((e) => e.status === status),
        priority !== undefined && ((e) => e.priority === priority),
        assignedTo !== undefined && ((e) => e.assignedTo === assignedTo),
        isClosed !== undefined && ((e) => e.ticket.isClosed === isClosed),
        provider !== undefined && ((e) => e.ticket.provider === provider),
        dateFrom !== undefined && ((e) => e.ticket.createdAt >= dateFrom),
        dateTo !== undefined && ((e) => e.ticket.createdAt <= dateTo),
      ])
      return page(sorted, query, matches, (e) => e.ticket)
    },

    async getTicket(tenantId, idOrNumber, notesLimit) {
      const t = peek(tenantId)
      if (!t) return null
      const entry = t.tickets.byId.get(idOrNumber) ?? t.tickets.byId.get(t.ticketIdsByNumber.get(idOrNumber)?.[0] ?? '')
      if (!entry) return null
      return notesLimit === null ? entry.ticket : { ...entry.ticket, notes: entry.notes.slice(0, notesLimit) }
    },

    async getBudget(tenantId, id) {
      const record = peek(tenantId)?.budgets.byId.get(id)
      return record ? budgetView(record) : null
    },

    async updateBudget(tenantId, id, patch, updatedAt) {
      const t = peek(tenantId)
      const current = t?.budgets.byId.get(id)
      if (!t || !current) return null
      const next = { ...current, ...patch, updatedAt }
      t.budgets.set(next)
      return budgetView(next)
    },

    async addBudgetLineItem(tenantId, budgetId, item) {
      const t = peek(tenantId)
      const current = t?.budgets.byId.get(budgetId)
      if (!t || !current) return false
      t.budgets.set({ ...current, lineItems: [...current.lineItems, structuredClone(item)], updatedAt: item.createdAt })
      return true
    },

    async getAutomationRule(tenantId, id) {
      return peek(tenantId)?.automationRules.byId.get(id) ?? null
    },

    async insertAutomationRule(tenantId, rule) {
      tenant(tenantId).automationRules.set(structuredClone(rule))
    },

    async replaceAutomationRule(tenantId, rule, expectedVersion) {
      const rules = peek(tenantId)?.automationRules
      if (rules?.byId.get(rule.id)?.version !== expectedVersion) return false
      rules.set(structuredClone(rule))
      return true
    },

    async getReport(tenantId, id) {
      return peek(tenantId)?.reports.byId.get(id) ?? null
    },

    async replaceReport(tenantId, report, expectedVersion) {
      const reports = peek(tenantId)?.reports
      if (reports?.byId.get(report.id)?.version !== expectedVersion) return false
      reports.set(structuredClone(report))
      return true
    },

    async getReportType(tenantId, id) {
      return peek(tenantId)?.reportTypes.byId.get(id) ?? null
    },

    async listReportTemplates(tenantId, query) {
      const t = peek(tenantId)
      if (!t) return { items: [], totalCount: 0 }
      const field = REPORT_TEMPLATE_SORT[query.sortBy]
      const descending = query.sortOrder === 'desc'
      const sorted = t.reportTemplates.sorted(
        `${field}:${descending}`,
        orderBy((r: ReportTemplateRecord) => r[field], descending),
      )
      const { reportTypeId, isShared } = query
      const matches = allOf<ReportTemplateRecord>([
        reportTypeId !== undefined && ((r) => r.reportTypeId === reportTypeId),
        isShared !== undefined && ((r) => r.isShared === isShared),
      ])
      return page(sorted, query, matches, ({ templateStructure: _structure, ...template }): ReportTemplate => template)
    },

    async getReportTemplate(tenantId, id, includeStructure) {
      const record = peek(tenantId)?.reportTemplates.byId.get(id)
      if (!record) return null
      const { templateStructure, ...template } = record
      return includeStructure ? { ...template, templateStructure } : template
    },

    async listComplianceTemplates(tenantId, query) {
      const t = peek(tenantId)
      if (!t) return { items: [], totalCount: 0 }
      const field = COMPLIANCE_TEMPLATE_SORT[query.sortBy]
      const descending = query.sortOrder === 'desc'
      const sorted = t.complianceTemplates.sorted(
        `${field}:${descending}`,
        orderBy((r: ComplianceTemplate) => r[field], descending),
      )
      const search = query.search === undefined ? undefined : foldCase(query.search)
      const { groupId, approvalStatus, checkScope } = query
      const matches = allOf<ComplianceTemplate>([
        search !== undefined && ((r) => foldCase(r.title).includes(search)),
        groupId !== undefined && ((r) => r.groupId === groupId),
        approvalStatus !== undefined && ((r) => r.approvalStatus === approvalStatus),
        checkScope !== undefined && ((r) => r.checkScope === checkScope),
      ])
      return page(sorted, query, matches, identity)
    },

    async getComplianceTemplate(tenantId, id) {
      return peek(tenantId)?.complianceTemplates.byId.get(id) ?? null
    },

    async getComplianceCheck(tenantId, id) {
      return peek(tenantId)?.complianceChecks.byId.get(id) ?? null
    },

    async listTrainingEnrollments(tenantId, query) {
      const t = peek(tenantId)
      if (!t) return { items: [], totalCount: 0 }
      const sorted = t.trainingEnrollments.sorted(
        'enrolledAt:true',
        orderBy((r: TrainingEnrollment) => r.enrolledAt, true),
      )
      const { courseId, userId, companyId, status } = query
      const matches = allOf<TrainingEnrollment>([
        courseId !== undefined && ((r) => r.course.id === courseId),
        userId !== undefined && ((r) => r.user.id === userId),
        companyId !== undefined && ((r) => r.companyId === companyId),
        status !== undefined && ((r) => r.status === status),
      ])
      return page(sorted, query, matches, identity)
    },

    async deleteTrainingEnrollment(tenantId, id) {
      return peek(tenantId)?.trainingEnrollments.delete(id) ?? false
    },

    async getTrainingCourse(tenantId, id) {
      const t = peek(tenantId)
      const course = t?.trainingCourses.byId.get(id)
      if (!t || !course) return null
      let enrollmentCount = 0
      for (const enrollment of t.trainingEnrollments.byId.values())
        if (enrollment.course.id === id) enrollmentCount += 1
      return { ...course, enrollmentCount }
    },

    async listUsers(tenantId, query) {
      const t = peek(tenantId)
      if (!t) return { items: [], totalCount: 0 }
      const field = USER_SORT_COLUMNS[query.sortColumn]
      const sorted = t.users.sorted(
        `${field}:${query.sortDesc}`,
        orderBy((r: User) => r[field], query.sortDesc),
      )
      const search = query.search === undefined ? undefined : foldCase(query.search)
      const { status, roleId, companyId, isPrimaryAdmin } = query
      const matches = allOf<User>([
        search !== undefined &&
          ((r) => foldCase(r.fullName ?? '').includes(search) || foldCase(r.email).includes(search)),
        status !== undefined && ((r) => r.status === status),
        roleId !== undefined && ((r) => r.role?.id === roleId),
        companyId !== undefined && ((r) => r.company?.id === companyId),
        isPrimaryAdmin !== undefined && ((r) => r.isPrimaryAdmin === isPrimaryAdmin),
      ])
      return page(sorted, query, matches, identity)
    },

    async listMeetingTypes(tenantId, query) {
      const t = peek(tenantId)
      if (!t) return { items: [], totalCount: 0 }
      const sorted = t.meetingTypes.sorted(
        'orderIndex',
        orderBy(
          (r: MeetingType) => r.orderIndex,
          false,
          (r) => r.name,
        ),
      )
      return page(sorted, query, null, identity)
    },

    async listCompanies(tenantId, query) {
      const t = peek(tenantId)
      if (!t) return { items: [], totalCount: 0 }
      const field = COMPANY_SORT[query.sortBy]
      const descending = query.sortOrder === 'desc'
      return page(
        t.companies.sorted(
          `${field}:${descending}`,
          orderBy((r: Company) => r[field], descending),
        ),
        query,
        null,
        identity,
      )
    },

    async findCompanies(tenantId, ids) {
      const companies = peek(tenantId)?.companies.byId
      if (!companies) return []
      return ids.flatMap((id) => {
        const company = companies.get(id)
        return company ? [{ id: company.id, name: company.name }] : []
      })
    },

    async getGoal(tenantId, id) {
      return peek(tenantId)?.goals.byId.get(id) ?? null
    },

    async getNpsSurvey(tenantId, id) {
      const record = peek(tenantId)?.npsSurveys.byId.get(id)
      if (!record) return null
      const { responses, ...survey } = record
      return { ...survey, responseCount: responses.length, statistics: npsStatistics(responses, survey.inviteCount) }
    },

    async getPlannerItemType(tenantId, id) {
      return peek(tenantId)?.plannerItemTypes.byId.get(id) ?? null
    },

    async reserveIdempotencyKey(tenantId, key, fingerprint, now): Promise<IdempotencyReservation> {
      const entries = tenant(tenantId).idempotency
      const at = now.getTime()
      const entry = entries.get(key)
      const live =
        entry &&
        (entry.response ? at - entry.startedAt < IDEMPOTENCY_TTL_MS : at - entry.startedAt < IDEMPOTENCY_LOCK_MS)
      if (entry && live) {
        return entry.response
          ? { state: 'completed', fingerprint: entry.fingerprint, response: entry.response }
          : { state: 'in_progress', fingerprint: entry.fingerprint }
      }
      if (entries.size > 10_000)
        for (const [k, e] of entries) if (at - e.startedAt >= IDEMPOTENCY_TTL_MS) entries.delete(k)
      entries.set(key, { fingerprint, startedAt: at, response: null })
      return { state: 'reserved' }
    },

    async completeIdempotencyKey(tenantId, key, response) {
      const entry = peek(tenantId)?.idempotency.get(key)
      if (entry) entry.response = deepFreeze(structuredClone(response))
    },

    async releaseIdempotencyKey(tenantId, key) {
      peek(tenantId)?.idempotency.delete(key)
    },

    async seed(tenantId, data) {
      seedSync(tenantId, data)
    },

    async close() {
      tenants.clear()
    },
  }
  return store
}
