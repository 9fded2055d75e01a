/**
 * The store seam. A store keeps the records of many tenants; every method takes the tenant first
 * and must never return or touch another tenant's records. The core validates every input before
 * it reaches a store, computes the derived fields of what it writes (see `src/model/`), and runs
 * the compare-and-set loops, so a store is a thin, exact layer over its database.
 *
 * Three stores ship: `createMemoryStore()`, `createSqliteStore()` and `createPostgresStore()`.
 * A host with its own database implements this interface and proves it with the conformance
 * suite exported from `tenant-public-api/conformance`.
 */
import type { ApiKey, ApiKeyChanges, ApiKeyRecord } from '../model/api-keys.js'
import type { AutomationRuleRecord } from '../model/automation-rules.js'
import type { Budget, BudgetLineItem, UpdateBudget } from '../model/budgets.js'
import type { MeetingType, MeetingTypeListQuery } from '../model/calendar.js'
import type { Company, CompanyListQuery } from '../model/companies.js'
import type { ComplianceCheck, ComplianceTemplate, ComplianceTemplateListQuery } from '../model/compliance.js'
import type { Goal } from '../model/goals.js'
import type { AfterKeyset } from '../model/keyset.js'
import type { NpsSurvey } from '../model/nps-surveys.js'
import type { PlannerItemType } from '../model/planner.js'
import type { ReportTemplate, ReportTemplateDetail, ReportTemplateListQuery } from '../model/report-templates.js'
import type { ReportRecord, ReportType } from '../model/reports.js'
import type { Ticket, TicketListQuery, TicketWithNotes } from '../model/tickets.js'
import type { TrainingCourse, TrainingEnrollment, TrainingEnrollmentListQuery } from '../model/training.js'
import type { User, UserListQuery } from '../model/users.js'
import type { WriteContext } from '../model/events.js'
import type { EventPage, EventQuery } from './event-feed.js'
import type { RemoveIds } from '../model/removal.js'
import type { SeedData } from '../model/seed.js'
import type { WebhookDispatchStore } from './webhook-dispatch.js'
import type { WebhookStore } from './webhook-store.js'

/**
 * Thrown by a store (or a rate limiter) when its database cannot be reached. The pipeline answers
 * 503 `SERVICE_UNAVAILABLE`; the cause goes to `onError`.
 *
 * @example
 * catch (cause) { if (isConnectionError(cause)) throw new StoreUnavailableError(cause) }
 */
export class StoreUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('The data store is unavailable', { cause })
    this.name = 'StoreUnavailableError'
  }

  /** Recognised across copies of the package, like {@link ApiError}. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[STORE_UNAVAILABLE] === true
  }
}
const STORE_UNAVAILABLE = Symbol.for('tenant-public-api.store-unavailable-error')
Object.defineProperty(StoreUnavailableError.prototype, STORE_UNAVAILABLE, { value: true })

/** One page of a list: the items of the requested page and the exact count of all matches. */
export interface ListResult<T> {
  items: T[]
  totalCount: number
}

/** A response kept for an `Idempotency-Key`, replayed to a retry. */
export interface StoredResponse {
  status: number
  body: unknown
  headers: Record<string, string>
}

/** What {@link Store.reserveIdempotencyKey} found. */
export type IdempotencyReservation =
  /** The key is now held by this request. */
  | { state: 'reserved' }
  /** Another request holds the key and has not finished. */
  | { state: 'in_progress'; fingerprint: string }
  /** A request with this key finished: its response is replayed if the fingerprint matches. */
  | { state: 'completed'; fingerprint: string; response: StoredResponse }

/** A `{ id, name }` pair. */
export interface NamedRef {
  id: string
  name: string | null
}

/**
 * Options of `store.seed(tenantId, data, options)`.
 *
 * @example
 * await store.seed(tenantId, bigLoad, { events: false })
 */
export interface SeedOptions {
  /**
   * Record an event for every record the seed creates or changes (default true). An initial bulk
   * load may pass false: it is then written without reading what was there before.
   */
  events?: boolean
}

/**
 * Where an API's data lives. Every method is tenant-scoped. Lists take the validated query
 * (page, limit, sort and filters) and must order as the contract says: strings by code point,
 * nulls last in both directions, ties by `id` ascending; `search` is a case-insensitive substring
 * match in which `%`, `_` and `\` match themselves. With `after` (a cursor's position), a list is
 * the first `limit` records strictly after it in that order (`page` ignored), found by seeking.
 *
 * @example
 * const api = createPublicApi({ store: createMemoryStore(), keyResolver })
 */
export interface Store extends WebhookStore, WebhookDispatchStore {
  // --- tickets (read-only: they change only through PSA sync, i.e. `seed`) ---
  listTickets(tenantId: string, query: TicketListQuery & AfterKeyset): Promise<ListResult<Ticket>>
  /**
   * By internal id first, then by ticket number (numbers can repeat across PSA providers: the
   * ticket with the smallest id wins); `notesLimit` null leaves `notes` out, else the newest
   * `notesLimit` notes (ties by id).
   */
  getTicket(tenantId: string, idOrNumber: string, notesLimit: number | null): Promise<TicketWithNotes | null>

  // --- budgets ---
  /** The budget with `totals`, `lineItemCount` and `lineItems` (oldest first). */
  getBudget(tenantId: string, id: string): Promise<Budget | null>
  /**
   * Applies the supplied fields (`notes: null` clears) and sets `updatedAt`; returns the budget as
   * {@link getBudget} does.
   */
  updateBudget(
    tenantId: string,
    id: string,
    patch: UpdateBudget,
    updatedAt: string,
    write?: WriteContext,
  ): Promise<Budget | null>
  /**
   * Adds a complete line item and sets the budget's `updatedAt` to the item's `createdAt`, in one
   * transaction; false when no such budget.
   */
  addBudgetLineItem(tenantId: string, budgetId: string, item: BudgetLineItem, write?: WriteContext): Promise<boolean>

  // --- automation rules ---
  getAutomationRule(tenantId: string, id: string): Promise<AutomationRuleRecord | null>
  insertAutomationRule(tenantId: string, rule: AutomationRuleRecord, write?: WriteContext): Promise<void>
  /**
   * Compare-and-set: replaces the rule only if its stored `version` is `expectedVersion`; false
   * otherwise (or when it is gone).
   */
  replaceAutomationRule(
    tenantId: string,
    rule: AutomationRuleRecord,
    expectedVersion: number,
    write?: WriteContext,
  ): Promise<boolean>

  // --- reports ---
  getReport(tenantId: string, id: string): Promise<ReportRecord | null>
  /** Compare-and-set, as {@link replaceAutomationRule}. */
  replaceReport(tenantId: string, report: ReportRecord, expectedVersion: number, write?: WriteContext): Promise<boolean>
  getReportType(tenantId: string, id: string): Promise<ReportType | null>
  listReportTemplates(
    tenantId: string,
    query: ReportTemplateListQuery & AfterKeyset,
  ): Promise<ListResult<ReportTemplate>>
  /** `templateStructure` is present only when `includeStructure`. */
  getReportTemplate(tenantId: string, id: string, includeStructure: boolean): Promise<ReportTemplateDetail | null>

  // --- compliance ---
  listComplianceTemplates(
    tenantId: string,
    query: ComplianceTemplateListQuery & AfterKeyset,
  ): Promise<ListResult<ComplianceTemplate>>
  getComplianceTemplate(tenantId: string, id: string): Promise<ComplianceTemplate | null>
  getComplianceCheck(tenantId: string, id: string): Promise<ComplianceCheck | null>

  // --- training ---
  /** Newest `enrolledAt` first, ties by id. */
  listTrainingEnrollments(
    tenantId: string,
    query: TrainingEnrollmentListQuery & AfterKeyset,
  ): Promise<ListResult<TrainingEnrollment>>
  /** False when there was no such enrollment. */
  deleteTrainingEnrollment(tenantId: string, id: string, write?: WriteContext): Promise<boolean>
  /** With `enrollmentCount`: the enrollments of that course now. */
  getTrainingCourse(tenantId: string, id: string): Promise<TrainingCourse | null>

  // --- everything else ---
  listUsers(tenantId: string, query: UserListQuery & AfterKeyset): Promise<ListResult<User>>
  /** Ordered by `orderIndex`, then `name`, then `id`. */
  listMeetingTypes(tenantId: string, query: MeetingTypeListQuery & AfterKeyset): Promise<ListResult<MeetingType>>
  listCompanies(tenantId: string, query: CompanyListQuery & AfterKeyset): Promise<ListResult<Company>>
  /** Those of `ids` that are companies of the tenant, as `{ id, name }`, in any order. */
  findCompanies(tenantId: string, ids: readonly string[]): Promise<NamedRef[]>
  /** With `tasks` oldest first and `updates` newest first. */
  getGoal(tenantId: string, id: string): Promise<Goal | null>
  /** With `responseCount` and `statistics` computed from its responses. */
  getNpsSurvey(tenantId: string, id: string): Promise<NpsSurvey | null>
  getPlannerItemType(tenantId: string, id: string): Promise<PlannerItemType | null>

  // --- idempotency (POST /budgets/{id}/items) ---
  /**
   * Atomically takes `key` for this request unless a live record holds it. A completed record
   * lives {@link IDEMPOTENCY_TTL_MS}; an unfinished one is abandoned (and may be taken) after
   * {@link IDEMPOTENCY_LOCK_MS}, so that a crash mid-request does not lock a key for a day.
   */
  reserveIdempotencyKey(tenantId: string, key: string, fingerprint: string, now: Date): Promise<IdempotencyReservation>
  /** Stores the response of the request that holds `key`. */
  completeIdempotencyKey(tenantId: string, key: string, response: StoredResponse): Promise<void>
  /** Frees `key` after its request failed unexpectedly, so that a retry runs again. */
  releaseIdempotencyKey(tenantId: string, key: string): Promise<void>

  // --- API keys (createApiKeys, docs/api-keys.md) ---
  // The one table read across tenants: a bearer token names no tenant, so a key is found by the
  // hash of the token, and by its id (globally unique). Lists stay per tenant.
  /** Stores a new key (its `id` and `hash` are new). */
  insertApiKey(key: ApiKeyRecord): Promise<void>
  /** The key whose `hash` (lower-case hex SHA-256 of the token) this is, or null. */
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>
  /** The key with this id, or null. */
  getApiKey(id: string): Promise<ApiKeyRecord | null>
  /** The tenant's keys, newest `createdAt` first (ties by id), without their hashes. */
  listApiKeys(tenantId: string): Promise<ApiKey[]>
  /** Applies `changes` by the rules of {@link ApiKeyChanges}; the key after them, or null when unknown. */
  updateApiKey(id: string, changes: ApiKeyChanges): Promise<ApiKey | null>

  /**
   * Loads records of one tenant, in the response shapes of the contract (see {@link SeedData}).
   * Derived fields are recomputed whatever the seed says; seeding an id again replaces the record, and
   * an id given twice in one batch keeps its last copy (`normalizeSeed` drops the others).
   */
  seed(tenantId: string, data: SeedData, options?: SeedOptions): Promise<void>
  /**
   * Removes records of one tenant, in one transaction (how a host mirrors deletions): `ids` keyed
   * like seed data. Unknown ids are ignored; removing a budget removes its line items. Throws a
   * `TypeError` (validate with `normalizeRemoval`) for a key that is not a seed key.
   */
  remove(tenantId: string, ids: RemoveIds): Promise<void>
  // --- the events feed (docs/extensions.md, section 3) ---
  /**
   * A page of the tenant's events. Every write above, `seed` (records it creates or changes, unless
   * `events: false`) and `remove` record their events in the same transaction as the change, with
   * the actor and request of `write` (the host's sync when omitted), at the tenant's next positions
   * in commit order. Events older than the store's `eventRetentionMs` are pruned by the store.
   * A page holds at most `query.limit` events and stops before their JSON passes `query.maxBytes`
   * (always at least one event), reading no further than that: events can be megabytes each.
   */
  listEvents(tenantId: string, query: EventQuery): Promise<EventPage>

  /** Releases connections and files. */
  close(): Promise<void>
}

/**
 * Every method of the {@link Store} port, by name. Typed as a record over `keyof Store`, so that a
 * method added to the port (or removed from it) fails to compile until this table says so: it
 * cannot drift from the interface.
 */
const STORE_METHODS: { readonly [Method in keyof Store]-?: true } = {
  listTickets: true,
  getTicket: true,
  getBudget: true,
  updateBudget: true,
  addBudgetLineItem: true,
  getAutomationRule: true,
  insertAutomationRule: true,
  replaceAutomationRule: true,
  getReport: true,
  replaceReport: true,
  getReportType: true,
  listReportTemplates: true,
  getReportTemplate: true,
  listComplianceTemplates: true,
  getComplianceTemplate: true,
  getComplianceCheck: true,
  listTrainingEnrollments: true,
  deleteTrainingEnrollment: true,
  getTrainingCourse: true,
  listUsers: true,
  listMeetingTypes: true,
  listCompanies: true,
  findCompanies: true,
  getGoal: true,
  getNpsSurvey: true,
  getPlannerItemType: true,
  reserveIdempotencyKey: true,
  completeIdempotencyKey: true,
  releaseIdempotencyKey: true,
  insertApiKey: true,
  findApiKeyByHash: true,
  getApiKey: true,
  listApiKeys: true,
  updateApiKey: true,
  seed: true,
  remove: true,
  listEvents: true,
  close: true,
  insertWebhookEndpoint: true,
  getWebhookEndpoint: true,
  listWebhookEndpoints: true,
  replaceWebhookEndpoint: true,
  deleteWebhookEndpoint: true,
  saveWebhookDelivery: true,
  listWebhookDeliveries: true,
  claimWebhookFanOuts: true,
  enqueueWebhookJobs: true,
  claimWebhookJobs: true,
  finishWebhookJobs: true,
}

/**
 * Throws a `TypeError` unless `store` has every method of the {@link Store} port: a store passed
 * as the promise its factory returns (`createSqliteStore` and `createPostgresStore` are async) is
 * told to `await` it; anything else names the methods it lacks.
 *
 * @example
 * assertStore(options.store, 'createPublicApi')
 */
export function assertStore(store: unknown, caller: string): asserts store is Store {
  if (typeof store !== 'object' || store === null)
    throw new TypeError(`${caller} needs a store: e.g. createMemoryStore() or await createSqliteStore({ filename })`)
  if (typeof (store as { then?: unknown }).then === 'function')
    throw new TypeError(
      `${caller} was given a promise as its store: await the store factory first, ` +
        'e.g. const store = await createSqliteStore({ filename }) (or await createPostgresStore(...))',
    )
  const missing = Object.keys(STORE_METHODS).filter(
    (method) => typeof (store as Record<string, unknown>)[method] !== 'function',
  )
  if (missing.length === 0) return
  const shown =
    missing.length > 5 ? `${missing.slice(0, 5).join(', ')} and ${missing.length - 5} more` : missing.join(', ')
  throw new TypeError(`${caller}'s store lacks methods of the Store port (docs/stores.md): ${shown}`)
}

/**
 * The API key methods of a store (each store implements them in a file of its own).
 *
 * @example
 * const store = { ...memoryApiKeyMethods(), ... }
 */
export type ApiKeyMethods = Pick<
  Store,
  'insertApiKey' | 'findApiKeyByHash' | 'getApiKey' | 'listApiKeys' | 'updateApiKey'
>

/**
 * How long a completed idempotent response is replayed: 24 hours.
 *
 * @example
 * Date.now() - startedAt < IDEMPOTENCY_TTL_MS
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
/**
 * After this long an unfinished idempotent request is taken as crashed: 60 seconds.
 *
 * @example
 * Date.now() - startedAt < IDEMPOTENCY_LOCK_MS
 */
export const IDEMPOTENCY_LOCK_MS = 60 * 1000
