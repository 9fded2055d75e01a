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
import type { BudgetLineItem, UpdateBudget } from '../model/budgets.js'
import type { budgets } from '../model/budgets.js'
import type { NamesNeed } from '../model/collection-view.js'
import type { KeyedCollection } from '../model/index.js'
import type { ListRequest } from '../model/list-request.js'
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

/** The record a collection's document holds: what lists return (a report template without its structure). */
export type DocumentOf<C> = C extends { readonly document: (record: never) => infer D } ? D : never

/** Whether a view needs names (then `get` does not apply it: `viewOfGet`, src/model/collection-view.ts). */
type NeedsNames<W> = W extends { readonly needs: infer N }
  ? [Extract<N[keyof N], NamesNeed>] extends [never]
    ? false
    : true
  : false

/**
 * The record as `get` shows it: its collection's `view` applied when it has one that needs no names
 * (a budget's totals), else its document (a rule as stored, for its compare-and-set).
 */
export type Shown<C> = C extends { readonly view: infer W extends { show(record: never, needs: never): unknown } }
  ? NeedsNames<W> extends true
    ? DocumentOf<C>
    : ReturnType<W['show']>
  : DocumentOf<C>

/** The fields the parts of a collection fill (a ticket's `notes`, a template's `templateStructure`). */
export type PartField<C> = C extends { readonly parts: Readonly<Record<string, { readonly field: infer F }>> }
  ? F & string
  : never

type SeededOf<C> = C extends { readonly document: (record: infer S) => unknown } ? S : never

/** The parts a `get` may add, by field: each present only when asked for. */
export type Included<C> = { [F in PartField<C> & keyof SeededOf<C>]?: SeededOf<C>[F] }

/**
 * What a `get` adds to the record: the parts kept apart (the collection's `parts`), by the field each
 * fills. A number keeps at most that many of a list part's first items (a ticket's notes, stored
 * newest first), `true` the whole part. Parts not asked for are absent from the record.
 *
 * @example
 * await store.get(tickets, tenantId, '1042', { include: { notes: 25 } })
 */
export interface GetRequest<C = KeyedCollection> {
  readonly include?: [PartField<C>] extends [never] ? never : { readonly [F in PartField<C>]?: number | true }
}

/**
 * A collection replaced by compare-and-set on its records' `version` (automation rules, reports,
 * webhook endpoints): those whose records carry a numeric `version` (kept in a `version` column).
 */
export type VersionedCollection = Extract<
  KeyedCollection,
  { readonly document: (record: never) => { readonly version: number } }
>

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
 * Where an API's data lives: the records of the collections of `src/model/` (`get`, `list`), the
 * few writes the API makes (each named for what it does), the host's `seed` and `remove`, and the
 * events feed, idempotency, API key and webhook parts. Every method is tenant-scoped. Nothing in it
 * names a resource's reads: a store serves any collection from its definition (docs/stores.md).
 *
 * @example
 * const api = createPublicApi({ store: createMemoryStore(), keyResolver })
 */
export interface Store extends WebhookStore, WebhookDispatchStore {
  /**
   * The record `id` of `collection` as reads show it (its `view` applied to the record and the needs
   * the view declares, gathered by the store; a view that needs names is not applied: `viewOfGet`),
   * with the parts `request.include` asks for; null when
   * there is none. A collection with a `lookup` column falls back, when no record has the id, to the
   * record with the smallest id whose lookup column equals it (a ticket by its number).
   */
  get<C extends KeyedCollection>(
    collection: C,
    tenantId: string,
    id: string,
    request?: GetRequest<C>,
  ): Promise<(Shown<C> & Included<C>) | null>
  /**
   * A page of `collection`'s documents that match `request`'s filters (each compares its column as
   * the definition says; a null column never matches) and search (a case-insensitive substring of a
   * search column, in which `%`, `_` and `\` match themselves), in `request.order`: strings by code
   * point, nulls last in both directions, ties by `id` ascending. With `after`, the first `limit`
   * records strictly after it (`page` ignored), found by seeking; `totalCount` counts every match.
   */
  list<C extends KeyedCollection>(
    collection: C,
    tenantId: string,
    request: ListRequest,
  ): Promise<ListResult<DocumentOf<C>>>

  /**
   * Applies the supplied fields (`notes: null` clears) and sets `updatedAt`; returns the budget as
   * `get(budgets, ...)` does, or null when there is none.
   */
  updateBudget(
    tenantId: string,
    id: string,
    patch: UpdateBudget,
    updatedAt: string,
    write?: WriteContext,
  ): Promise<Shown<typeof budgets> | null>
  /**
   * Adds a complete line item and sets the budget's `updatedAt` to the item's `createdAt`, in one
   * transaction; false when no such budget.
   */
  addBudgetLineItem(tenantId: string, budgetId: string, item: BudgetLineItem, write?: WriteContext): Promise<boolean>
  /** False when there was no such enrollment. */
  deleteTrainingEnrollment(tenantId: string, id: string, write?: WriteContext): Promise<boolean>
  /**
   * Compare-and-set: stores `record` only if the stored record's `version` is `expectedVersion`;
   * false otherwise (or when it is gone). `expectedVersion` null stores a new record (its id is
   * fresh): true, unless the collection's `maxPerTenant` records are there already (counted and
   * inserted in one atomic step): false. A new webhook endpoint starts its dispatch in the same step.
   */
  replaceVersioned<C extends VersionedCollection>(
    collection: C,
    tenantId: string,
    record: DocumentOf<C>,
    expectedVersion: number | null,
    write?: WriteContext,
  ): Promise<boolean>
  /** Those of `ids` that are companies of the tenant, as `{ id, name }`, in any order. */
  findCompanies(tenantId: string, ids: readonly string[]): Promise<NamedRef[]>

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
  /** Stores a new key; throws `DuplicateApiKeyError` (storing nothing) when its `id` or `hash` is stored. */
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
  get: true,
  list: true,
  updateBudget: true,
  addBudgetLineItem: true,
  deleteTrainingEnrollment: true,
  replaceVersioned: true,
  findCompanies: true,
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
