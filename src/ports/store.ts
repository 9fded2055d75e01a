/**
 * The store seam, in named parts: a store is their union, each part its own interface in its own
 * file, documented there. Records (`records.ts`: get, list, the generic writes, seed, remove, each
 * write recording its events), the events feed (`event-feed.ts`), idempotency (`idempotency.ts`),
 * API keys (`api-keys.ts`), webhook endpoints (`webhook-store.ts`) and webhook dispatch
 * (`webhook-dispatch.ts`). Every method takes the tenant first (but the few that read across
 * tenants, said where they are) and must never return or touch another tenant's records. The core
 * validates every input before it reaches a store, computes the derived fields of what it writes
 * (see `src/model/`), and runs the compare-and-set loops, so a store is a thin, exact layer over its
 * database.
 *
 * Three stores ship: `createMemoryStore()`, `createSqliteStore()` and `createPostgresStore()`, each
 * composed of one object per part. A host with its own database implements the parts it keeps, takes
 * the others from another store, and proves the whole with the conformance suite exported from
 * `tenant-public-api/conformance` (docs/stores.md, "Your own store").
 */
import type { ApiKeysPort } from './api-keys.js'
import type { EventFeedPort } from './event-feed.js'
import type { IdempotencyPort } from './idempotency.js'
import type { RecordsPort } from './records.js'
import type { WebhookDispatchPort } from './webhook-dispatch.js'
import type { WebhookStore } from './webhook-store.js'

export type {
  ChildCollection,
  DocumentOf,
  GetRequest,
  Included,
  ListResult,
  NamedCollection,
  NamedRef,
  PartField,
  RecordPatch,
  RecordsPort,
  SeedOptions,
  Shown,
  VersionedCollection,
} from './records.js'
export {
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyPort,
  type IdempotencyReservation,
  type StoredResponse,
} from './idempotency.js'
export type { ApiKeysPort } from './api-keys.js'
export type { EventFeedPort } from './event-feed.js'

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

/**
 * Where an API's data lives: the union of the port's parts, and `close`. Nothing in it names a
 * resource: a store serves any collection from its definition (docs/stores.md).
 *
 * @example
 * const api = createPublicApi({ store: createMemoryStore(), keyResolver })
 */
export interface Store
  extends RecordsPort,
    EventFeedPort,
    IdempotencyPort,
    ApiKeysPort,
    WebhookStore,
    WebhookDispatchPort {
  /** Releases connections and files. */
  close(): Promise<void>
}

/** The methods of a part (or of `close`), by name: typed by the part, so it cannot drift from it. */
type MethodsOf<Part> = { readonly [Method in keyof Part]-?: true }

/**
 * Every method of the {@link Store} port, by part. Each table is typed as a record over its part's
 * keys, so that a method added to a part (or removed from it) fails to compile until its table says
 * so; the parts' union is the port.
 */
const STORE_PARTS: {
  readonly records: MethodsOf<RecordsPort>
  readonly events: MethodsOf<EventFeedPort>
  readonly idempotency: MethodsOf<IdempotencyPort>
  readonly apiKeys: MethodsOf<ApiKeysPort>
  readonly webhooks: MethodsOf<WebhookStore>
  readonly dispatch: MethodsOf<WebhookDispatchPort>
  readonly close: MethodsOf<Pick<Store, 'close'>>
} = {
  records: {
    get: true,
    list: true,
    patch: true,
    addChild: true,
    delete: true,
    findNames: true,
    replaceVersioned: true,
    seed: true,
    remove: true,
  },
  events: { listEvents: true },
  idempotency: { reserveIdempotencyKey: true, completeIdempotencyKey: true, releaseIdempotencyKey: true },
  apiKeys: { insertApiKey: true, findApiKeyByHash: true, getApiKey: true, listApiKeys: true, updateApiKey: true },
  webhooks: {
    deleteWebhookEndpoint: true,
    saveWebhookDelivery: true,
    listWebhookDeliveries: true,
  },
  dispatch: { claimWebhookFanOuts: true, enqueueWebhookJobs: true, claimWebhookJobs: true, finishWebhookJobs: true },
  close: { close: true },
}

/**
 * Throws a `TypeError` unless `store` has every method of the {@link Store} port: a store passed
 * as the promise its factory returns (`createSqliteStore` and `createPostgresStore` are async) is
 * told to `await` it; anything else is told, part by part, which methods it lacks.
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
  const lacking: string[] = []
  for (const [part, methods] of Object.entries(STORE_PARTS)) {
    const missing = Object.keys(methods).filter(
      (method) => typeof (store as Record<string, unknown>)[method] !== 'function',
    )
    if (missing.length === 0) continue
    const shown =
      missing.length > 4 ? `${missing.slice(0, 4).join(', ')} and ${missing.length - 4} more` : missing.join(', ')
    lacking.push(`${part} part: ${shown}`)
  }
  if (lacking.length > 0)
    throw new TypeError(`${caller}'s store lacks methods of the Store port (docs/stores.md): ${lacking.join('; ')}`)
}
