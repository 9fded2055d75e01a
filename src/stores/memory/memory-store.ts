/**
 * The in-memory store: the reference implementation of the store seam, for tests, demos and
 * single-process hosts. Records are deep-frozen when written, so reads hand them out without
 * copying; every write is synchronous between awaits, so each method is atomic. Lists keep one
 * sorted order per (collection, order) and reuse it until that collection changes, so a list
 * request filters and slices but never sorts the whole collection. Orders, filters and search
 * come from the collection specs of `src/model/`, as the SQL store's do.
 */
import { compareCodePoints, foldCase, orderBy, orderByKeys } from '../../model/ordering.js'
import { type AfterKeyset, compareKeysets, type Keyset, keysetOf } from '../../model/keyset.js'
import {
  type CollectionSpec,
  type ColumnSpec,
  columnOf,
  type ColumnValue,
  foldedValue,
  type OrderTerm,
  sortOrder,
} from '../../model/collection.js'
import {
  budgets,
  companies,
  complianceTemplates,
  meetingTypes,
  npsSurveys,
  reportTemplates,
  tickets,
  trainingCourses,
  trainingEnrollments,
  users,
  SEEDED_COLLECTIONS,
  type SeededCollection,
} from '../../model/index.js'
import type { BudgetLineItem, Budget } from '../../model/budgets.js'
import type { ReportTemplate } from '../../model/report-templates.js'
import type { TicketNote } from '../../model/tickets.js'
import { deepFreeze } from '../../model/frozen-records.js'
import { memoryWebhookMethods } from './webhooks.js'
import type { EventDraft, WriteContext } from '../../model/events.js'
import { authorOf, EVENT_RETENTION_MS, EventLog } from '../event-feed.js'
import { EVENT_RESOURCE_OF, eventView, type StoredState, syncChange, type ViewLookups } from '../event-views.js'
import { normalizeRemoval, type RemoveIds, type SyncCollection, SYNC_COLLECTIONS } from '../../model/removal.js'
import { normalizeSeed, type BudgetRecord, type SeedData } from '../../model/seed.js'
import { memoryApiKeyMethods } from './api-keys.js'
import {
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyReservation,
  type ListResult,
  type Store,
  type StoredResponse,
} from '../../ports/store.js'

/** What the memory store reads of a spec. */
type QuerySpec<R> = Pick<CollectionSpec<R, unknown>, 'name' | 'columns' | 'filters' | 'search'>

/** A stored record and the folded copies of its folded columns (by column name), made once when it is stored. */
interface Entry<R> {
  readonly id: string
  readonly record: R
  readonly folded: Readonly<Record<string, string | null>>
}

interface IdempotencyEntry {
  fingerprint: string
  startedAt: number
  response: StoredResponse | null
}

const NOTHING_FOLDED: Readonly<Record<string, string | null>> = Object.freeze({})

/** One collection of one tenant: records by id, and sorted orders built from them until the next change. */
class Collection<R extends { id: string }> {
  readonly byId = new Map<string, Entry<R>>()
  /** Sorted entries by their order's terms (the same array for the same order: see `sortOrder`). */
  private orders = new Map<readonly OrderTerm[], readonly Entry<R>[]>()
  private readonly folding: readonly ColumnSpec<R>[]

  constructor(readonly spec: QuerySpec<R>) {
    this.folding = spec.columns.filter((c) => c.folded)
  }

  get(id: string): R | undefined {
    return this.byId.get(id)?.record
  }

  set(record: R): void {
    const frozen = deepFreeze(record)
    let folded = NOTHING_FOLDED
    if (this.folding.length > 0) {
      const copies: Record<string, string | null> = {}
      for (const column of this.folding) copies[column.name] = foldedValue(column.read(frozen))
      folded = copies
    }
    this.byId.set(record.id, { id: record.id, record: frozen, folded })
    this.orders.clear()
  }

  delete(id: string): boolean {
    const deleted = this.byId.delete(id)
    if (deleted) this.orders.clear()
    return deleted
  }

  /** The whole collection in the order of `terms` (then by id), sorted once per change. */
  sorted(terms: readonly OrderTerm[]): readonly Entry<R>[] {
    let order = this.orders.get(terms)
    if (order === undefined) {
      order = [...this.byId.values()].sort(comparator(this.spec, terms))
      this.orders.set(terms, order)
    }
    return order
  }
}

/** The comparator of `terms` on the records of entries. */
function comparator<R>(spec: QuerySpec<R>, terms: readonly OrderTerm[]): (a: Entry<R>, b: Entry<R>) => number {
  const keys = terms.map((term) => {
    const { read } = columnOf(spec, term.column)
    return { key: (entry: Entry<R>) => read(entry.record), descending: term.descending }
  })
  const [only] = keys
  return keys.length === 1 && only !== undefined ? orderBy(only.key, only.descending) : orderByKeys(keys)
}

/** What a memory collection holds: the document where parts are kept beside it, else the seeded record. */
type HeldOf<C> =
  C extends CollectionSpec<infer D, infer S, infer N> ? (N extends PartsBeside ? D : S) & { id: string } : never

/** The collections whose parts a tenant keeps beside their records: a ticket's notes, a budget's line items. */
type PartsBeside = 'tickets' | 'budgets'

/** What a tenant keeps beside its collections. */
interface KeptBeside {
  /** Each ticket's notes, newest first. */
  ticketNotes: Map<string, readonly TicketNote[]>
  /** Ticket numbers can repeat across PSA providers: the lookup takes the smallest id. */
  ticketIdsByNumber: Map<string, string[]>
  /**
   * Each budget's line items, oldest first, beside the budget rather than inside it: adding one
   * appends a frozen item instead of copying and re-freezing the whole budget (O(1), not O(items)).
   */
  budgetLineItems: Map<string, BudgetLineItem[]>
  idempotency: Map<string, IdempotencyEntry>
  feed: EventLog
}

/** A tenant's data: one collection per seeded collection of the model, by name, and what is kept beside them. */
type TenantData = KeptBeside & {
  readonly [C in SeededCollection as C['name']]: Collection<HeldOf<C>>
}

/** A tenant with nothing yet; its collections are made from `SEEDED_COLLECTIONS`, in its order. */
function newTenant(): TenantData {
  const t: Record<string, unknown> = {
    ticketNotes: new Map(),
    ticketIdsByNumber: new Map(),
    budgetLineItems: new Map(),
    idempotency: new Map(),
    feed: new EventLog(),
  }
  for (const spec of SEEDED_COLLECTIONS) t[spec.name] = new Collection(spec as unknown as QuerySpec<{ id: string }>)
  return t as unknown as TenantData
}

/** The collections the seed stores as they come: all but tickets and budgets, whose parts are kept beside. */
const PLAIN_COLLECTIONS = SEEDED_COLLECTIONS.filter((spec) => spec !== tickets && spec !== budgets).map(
  (spec) => spec.name,
)

/** The collections of a tenant, by name. */
type CollectionName = {
  [K in keyof TenantData]: TenantData[K] extends Collection<infer _> ? K : never
}[keyof TenantData]
type RecordOf<K extends CollectionName> = TenantData[K] extends Collection<infer R> ? R : never

/** A page of `sorted` that passes `matches`, with the exact count of all that pass. */
function page<T, R>(
  sorted: readonly T[],
  query: { page: number; limit: number },
  matches: ((record: T) => boolean) | null,
  map: (record: T) => R,
  from = -1,
): ListResult<R> {
  if (from >= 0) return pageFrom(sorted, from, query.limit, matches, map)
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

/** The first `limit` of `sorted` from index `from` that pass `matches`, with the exact count of all that pass. */
function pageFrom<T, R>(
  sorted: readonly T[],
  from: number,
  limit: number,
  matches: ((record: T) => boolean) | null,
  map: (record: T) => R,
): ListResult<R> {
  if (matches === null) return { items: sorted.slice(from, from + limit).map(map), totalCount: sorted.length }
  const items: R[] = []
  let totalCount = 0
  for (let i = 0; i < sorted.length; i++) {
    const record = sorted[i]!
    if (!matches(record)) continue
    if (i >= from && items.length < limit) items.push(map(record))
    totalCount += 1
  }
  return { items, totalCount }
}

/** The index of the first entry of `sorted` (in `terms`) strictly after `after`: a binary search. */
function firstAfter<R extends { id: string }>(
  spec: QuerySpec<R>,
  terms: readonly OrderTerm[],
  sorted: readonly Entry<R>[],
  after: Keyset,
): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compareKeysets(terms, keysetOf(spec, terms, sorted[mid]!.record), after) <= 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A test of entries, made from the value of one list query parameter. */
type TestOf<R> = (value: unknown) => (entry: Entry<R>) => boolean

/** Each spec's tests by query parameter (its filters and `search`), made once per spec. */
const specTests = new WeakMap<object, Map<string, TestOf<never>>>()

function testsOf<R>(spec: QuerySpec<R>): Map<string, TestOf<R>> {
  let tests = specTests.get(spec) as Map<string, TestOf<R>> | undefined
  if (tests !== undefined) return tests
  tests = new Map()
  const search = spec.search
  if (search !== null) {
    const [first, ...others] = search.columns
    tests.set('search', (value) => {
      const term = foldCase(String(value))
      return others.length === 0
        ? (e) => e.folded[first!]?.includes(term) === true
        : (e) => search.columns.some((c) => e.folded[c]?.includes(term) === true)
    })
  }
  for (const [param, filter] of Object.entries(spec.filters)) {
    const { read, name } = columnOf(spec, filter.column)
    const op = filter.op
    tests.set(param, (given) => {
      const value = given as ColumnValue
      if (op === 'equals') return (e) => read(e.record) === value
      if (op === 'equalsFolded') {
        const folded = foldedValue(value)
        return (e) => e.folded[name] === folded
      }
      if (op === 'atLeast')
        return (e) => {
          const x = read(e.record)
          return x !== null && value !== null && x >= value
        }
      return (e) => {
        const x = read(e.record)
        return x !== null && value !== null && x <= value
      }
    })
  }
  specTests.set(spec, tests as Map<string, TestOf<never>>)
  return tests
}

/**
 * What a list `query` keeps of `spec`'s records: its search (a folded substring of any search
 * column) and every filter it gives; null when it gives none (an unfiltered list is a plain slice).
 * The query's own keys are walked (a few), not the spec's parameters: most are absent.
 */
function matcher<R>(spec: QuerySpec<R>, query: object): ((entry: Entry<R>) => boolean) | null {
  const byParam = testsOf(spec)
  let first: ((entry: Entry<R>) => boolean) | null = null
  let more: ((entry: Entry<R>) => boolean)[] | null = null
  for (const key in query) {
    const make = byParam.get(key)
    if (make === undefined) continue
    const value = (query as Record<string, unknown>)[key]
    if (value === undefined) continue
    const test = make(value)
    if (first === null) first = test
    else (more ??= [first]).push(test)
  }
  if (more === null) return first
  const all = more
  return (entry) => all.every((test) => test(entry))
}

const recordOf = <R>(entry: Entry<R>): R => entry.record

/** The ids of one key, for {@link statesOf}. */
function only(key: SyncCollection, id: string): Record<SyncCollection, readonly string[]> {
  const ids = Object.fromEntries(SYNC_COLLECTIONS.map((k) => [k, []])) as unknown as Record<
    SyncCollection,
    readonly string[]
  >
  return { ...ids, [key]: [id] }
}

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Records to load into tenants on creation: `{ [tenantId]: SeedData }`. */
  seed?: Record<string, SeedData>
  /** How long events are kept (default 30 days); older ones are pruned as events are added. */
  eventRetentionMs?: number
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
      data = newTenant()
      tenants.set(id, data)
    }
    return data
  }

  /** The record `id` of the tenant's collection `name`, or null (also when the tenant has nothing). */
  function get<K extends CollectionName>(tenantId: string, name: K, id: string): RecordOf<K> | null {
    return ((tenants.get(tenantId)?.[name] as Collection<RecordOf<K> & { id: string }> | undefined)?.get(id) ??
      null) as RecordOf<K> | null
  }

  /** A page of the tenant's collection `name` in `terms`, kept by `query`'s search and filters, shown by `view`. */
  function list<K extends CollectionName, T = RecordOf<K>>(
    tenantId: string,
    name: K,
    query: { page: number; limit: number } & AfterKeyset,
    terms: readonly OrderTerm[],
    view?: (record: RecordOf<K>) => T,
  ): ListResult<T> {
    const t = tenants.get(tenantId)
    if (!t) return { items: [], totalCount: 0 }
    const collection = t[name] as unknown as Collection<RecordOf<K> & { id: string }>
    const show = view === undefined ? recordOf : (entry: Entry<RecordOf<K>>) => view(entry.record)
    const sorted = collection.sorted(terms)
    const from = query.after === undefined ? -1 : firstAfter(collection.spec, terms, sorted, query.after)
    const matches = matcher(collection.spec, query)
    return page(sorted, query, matches, show as (e: Entry<RecordOf<K>>) => T, from)
  }

  function budgetView(t: TenantData, record: BudgetRecord): Budget {
    return budgets.view.show(record, { lineItems: t.budgetLineItems.get(record.id) ?? [] })
  }

  const retentionMs = options.eventRetentionMs ?? EVENT_RETENTION_MS

  function enrollmentCount(t: TenantData, courseId: string): number {
    let n = 0
    for (const { record } of t.trainingEnrollments.byId.values()) if (record.course.id === courseId) n += 1
    return n
  }

  function lookups(t: TenantData): ViewLookups {
    return {
      companyName: (id) => t.companies.get(id)?.name,
      reportTypeName: (id) => t.reportTypes.get(id)?.name,
      enrollmentCount: (courseId) => enrollmentCount(t, courseId),
    }
  }

  /** The record `id` of `key` as change detection sees it, or null when absent. */
  function stateOf(t: TenantData, key: SyncCollection, id: string, look: ViewLookups): StoredState | null {
    const record = (t[key] as unknown as Collection<{ id: string }>).get(id) as Record<string, unknown> | undefined
    if (record === undefined) return null
    // A ticket's notes and a budget's line items are kept beside the record: they are part of its state.
    const full =
      key === 'tickets'
        ? { ...record, notes: t.ticketNotes.get(id) ?? [] }
        : key === 'budgets'
          ? { ...record, lineItems: t.budgetLineItems.get(id) ?? [] }
          : record
    return { fingerprint: JSON.stringify(full), view: eventView(key, key === 'budgets' ? full : record, look) }
  }

  /** Records `drafts` in the tenant's feed (after the change, between the same awaits: one atomic step). */
  function record(t: TenantData, drafts: readonly (EventDraft | null)[], write?: WriteContext): void {
    const kept = drafts.filter((draft): draft is EventDraft => draft !== null)
    if (kept.length > 0) t.feed.append(kept, authorOf(write), new Date(), retentionMs)
  }

  /** The states of the `ids` of each key, for change detection around a seed or removal. */
  function statesOf(t: TenantData, ids: Record<SyncCollection, readonly string[]>) {
    const look = lookups(t)
    const out = new Map<SyncCollection, Map<string, StoredState | null>>()
    for (const key of SYNC_COLLECTIONS) {
      if (EVENT_RESOURCE_OF[key] === null || ids[key].length === 0) continue
      out.set(key, new Map(ids[key].map((id) => [id, stateOf(t, key, id, look)])))
    }
    return out
  }

  /** The drafts of every change between `before` and now. */
  function changesSince(t: TenantData, before: ReturnType<typeof statesOf>): EventDraft[] {
    const look = lookups(t)
    const drafts: EventDraft[] = []
    for (const [key, states] of before)
      for (const [id, state] of states) {
        const draft = syncChange(EVENT_RESOURCE_OF[key]!, id, state, stateOf(t, key, id, look))
        if (draft !== null) drafts.push(draft)
      }
    return drafts
  }

  function seedSync(tenantId: string, data: SeedData, events = true): void {
    const records = normalizeSeed(data)
    const t = tenant(tenantId)
    const before = events
      ? statesOf(
          t,
          Object.fromEntries(SYNC_COLLECTIONS.map((k) => [k, records[k].map((r) => r.id)])) as Record<
            SyncCollection,
            string[]
          >,
        )
      : null
    for (const record of records.tickets) {
      const ticket = tickets.document(record)
      const previous = t.tickets.get(ticket.id)
      if (previous) forgetTicketNumber(t, ticket.id, previous.ticketNumber)
      t.tickets.set(ticket)
      t.ticketNotes.set(ticket.id, deepFreeze(tickets.parts.notes!.read(record) as TicketNote[]))
      const ids = [...(t.ticketIdsByNumber.get(ticket.ticketNumber) ?? []), ticket.id].sort(compareCodePoints)
      t.ticketIdsByNumber.set(ticket.ticketNumber, ids)
    }
    for (const budget of records.budgets) {
      t.budgets.set(budgets.document(budget))
      t.budgetLineItems.set(
        budget.id,
        budget.lineItems.map((item) => deepFreeze(structuredClone(item))),
      )
    }
    for (const key of PLAIN_COLLECTIONS) {
      const collection = t[key] as unknown as Collection<{ id: string }>
      for (const item of records[key]) collection.set(item)
    }
    if (before !== null) record(t, changesSince(t, before))
  }

  /** Forgets a ticket's number and notes with it. */
  function forgetTicketNumber(t: TenantData, ticketId: string, ticketNumber: string): void {
    const ids = t.ticketIdsByNumber.get(ticketNumber)?.filter((id) => id !== ticketId) ?? []
    if (ids.length > 0) t.ticketIdsByNumber.set(ticketNumber, ids)
    else t.ticketIdsByNumber.delete(ticketNumber)
  }

  function removeSync(tenantId: string, ids: RemoveIds): void {
    const removal = normalizeRemoval(ids)
    const t = tenants.get(tenantId)
    if (t === undefined) return
    const before = statesOf(t, removal)
    for (const id of removal.tickets) {
      const ticket = t.tickets.get(id)
      if (ticket === undefined) continue
      forgetTicketNumber(t, id, ticket.ticketNumber)
      t.ticketNotes.delete(id)
      t.tickets.delete(id)
    }
    // A budget's line items are kept beside it: they go with it.
    for (const id of removal.budgets) t.budgetLineItems.delete(id)
    for (const key of SYNC_COLLECTIONS) {
      if (key === 'tickets') continue
      const collection = t[key] as unknown as Collection<{ id: string }>
      for (const id of removal[key]) collection.delete(id)
    }
    record(t, changesSince(t, before))
  }

  for (const [tenantId, data] of Object.entries(options.seed ?? {})) seedSync(tenantId, data)

  const webhooks = memoryWebhookMethods((tenantId) => tenants.get(tenantId)?.feed.lastPosition ?? 0)
  const store: MemoryStore = {
    ...webhooks.methods,
    async listTickets(tenantId, query) {
      return list(tenantId, 'tickets', query, sortOrder(tickets, query.sortColumn, query.sortDesc))
    },

    async getTicket(tenantId, idOrNumber, notesLimit) {
      const t = tenants.get(tenantId)
      if (!t) return null
      const ticket = t.tickets.get(idOrNumber) ?? t.tickets.get(t.ticketIdsByNumber.get(idOrNumber)?.[0] ?? '')
      if (!ticket) return null
      if (notesLimit === null) return ticket
      return { ...ticket, notes: (t.ticketNotes.get(ticket.id) ?? []).slice(0, notesLimit) }
    },

    async getBudget(tenantId, id) {
      const record = get(tenantId, 'budgets', id)
      return record ? budgetView(tenant(tenantId), record) : null
    },

    async updateBudget(tenantId, id, patch, updatedAt, write) {
      const current = get(tenantId, 'budgets', id)
      if (!current) return null
      const t = tenant(tenantId)
      const next = { ...current, ...patch, updatedAt }
      const before = statesOf(t, only('budgets', id))
      t.budgets.set(next)
      record(t, changesSince(t, before), write)
      return budgetView(t, next)
    },

    async addBudgetLineItem(tenantId, budgetId, item, write) {
      const current = get(tenantId, 'budgets', budgetId)
      if (!current) return false
      const t = tenant(tenantId)
      t.budgets.set({ ...current, updatedAt: item.createdAt })
      const items = t.budgetLineItems.get(budgetId)
      const added = deepFreeze(structuredClone(item))
      if (items === undefined) t.budgetLineItems.set(budgetId, [added])
      else items.push(added)
      const object = structuredClone(item) as unknown as Record<string, unknown>
      const resource = { type: 'budget_line_item', id: item.id } as const
      record(t, [{ type: 'budget_line_item.created', resource, object, previous: null }], write)
      return true
    },

    async getAutomationRule(tenantId, id) {
      return get(tenantId, 'automationRules', id)
    },

    async insertAutomationRule(tenantId, rule, write) {
      const t = tenant(tenantId)
      const before = statesOf(t, only('automationRules', rule.id))
      t.automationRules.set(structuredClone(rule))
      record(t, changesSince(t, before), write)
    },

    async replaceAutomationRule(tenantId, rule, expectedVersion, write) {
      if (get(tenantId, 'automationRules', rule.id)?.version !== expectedVersion) return false
      const t = tenant(tenantId)
      const before = statesOf(t, only('automationRules', rule.id))
      t.automationRules.set(structuredClone(rule))
      record(t, changesSince(t, before), write)
      return true
    },

    async getReport(tenantId, id) {
      return get(tenantId, 'reports', id)
    },

    async replaceReport(tenantId, report, expectedVersion, write) {
      if (get(tenantId, 'reports', report.id)?.version !== expectedVersion) return false
      const t = tenant(tenantId)
      const before = statesOf(t, only('reports', report.id))
      t.reports.set(structuredClone(report))
      record(t, changesSince(t, before), write)
      return true
    },

    async getReportType(tenantId, id) {
      return get(tenantId, 'reportTypes', id)
    },

    async listReportTemplates(tenantId, query) {
      const terms = sortOrder(reportTemplates, query.sortBy, query.sortOrder === 'desc')
      return list(
        tenantId,
        'reportTemplates',
        query,
        terms,
        ({ templateStructure: _structure, ...template }): ReportTemplate => template,
      )
    },

    async getReportTemplate(tenantId, id, includeStructure) {
      const record = get(tenantId, 'reportTemplates', id)
      if (!record) return null
      const { templateStructure, ...template } = record
      return includeStructure ? { ...template, templateStructure } : template
    },

    async listComplianceTemplates(tenantId, query) {
      const terms = sortOrder(complianceTemplates, query.sortBy, query.sortOrder === 'desc')
      return list(tenantId, 'complianceTemplates', query, terms)
    },

    async getComplianceTemplate(tenantId, id) {
      return get(tenantId, 'complianceTemplates', id)
    },

    async getComplianceCheck(tenantId, id) {
      return get(tenantId, 'complianceChecks', id)
    },

    async listTrainingEnrollments(tenantId, query) {
      return list(tenantId, 'trainingEnrollments', query, trainingEnrollments.order)
    },

    async deleteTrainingEnrollment(tenantId, id, write) {
      const t = tenants.get(tenantId)
      if (t === undefined || !t.trainingEnrollments.delete(id)) return false
      const resource = { type: 'training_enrollment', id } as const
      record(t, [{ type: 'training_enrollment.deleted', resource, object: null, previous: null }], write)
      return true
    },

    async getTrainingCourse(tenantId, id) {
      const course = get(tenantId, 'trainingCourses', id)
      if (!course) return null
      return trainingCourses.view.show(course, { enrollmentCount: enrollmentCount(tenant(tenantId), id) })
    },

    async listUsers(tenantId, query) {
      return list(tenantId, 'users', query, sortOrder(users, query.sortColumn, query.sortDesc))
    },

    async listMeetingTypes(tenantId, query) {
      return list(tenantId, 'meetingTypes', query, meetingTypes.order)
    },

    async listCompanies(tenantId, query) {
      return list(tenantId, 'companies', query, sortOrder(companies, query.sortBy, query.sortOrder === 'desc'))
    },

    async findCompanies(tenantId, ids) {
      const found = tenants.get(tenantId)?.companies
      if (!found) return []
      return ids.flatMap((id) => {
        const company = found.get(id)
        return company ? [{ id: company.id, name: company.name }] : []
      })
    },

    async getGoal(tenantId, id) {
      return get(tenantId, 'goals', id)
    },

    async getNpsSurvey(tenantId, id) {
      const record = get(tenantId, 'npsSurveys', id)
      return record ? npsSurveys.view.show(record, {}) : null
    },

    async getPlannerItemType(tenantId, id) {
      return get(tenantId, 'plannerItemTypes', id)
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
      const entry = tenants.get(tenantId)?.idempotency.get(key)
      if (entry) entry.response = deepFreeze(structuredClone(response))
    },

    async releaseIdempotencyKey(tenantId, key) {
      tenants.get(tenantId)?.idempotency.delete(key)
    },

    ...memoryApiKeyMethods(),

    async seed(tenantId, data, seedOptions) {
      seedSync(tenantId, data, seedOptions?.events ?? true)
    },

    async remove(tenantId, ids) {
      removeSync(tenantId, ids)
    },

    async listEvents(tenantId, query) {
      const t = tenants.get(tenantId)
      if (t === undefined) return new EventLog().page(query)
      t.feed.prune(new Date(), retentionMs)
      return t.feed.page(query)
    },

    async close() {
      tenants.clear()
      webhooks.clear()
    },
  }
  return store
}
