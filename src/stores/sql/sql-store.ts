/**
 * The one SQL store, shared by SQLite and Postgres: the same statements on both, with the few
 * differences asked of its {@link Engine}'s parts (see `engine.ts`; its write strategies chosen by
 * the engine's capabilities, `write-strategies.ts`) and what it reads of the schema derived from
 * the definitions (`schema.ts`; `migrations/` is read by the migrator alone). Records are kept as
 * their JSON text, beside copies of the fields that lists filter and sort on (the collection
 * definitions of `src/model/` say which); writes that read first run in a write transaction;
 * versioned replaces are one `UPDATE ... WHERE version = expected`. This file composes the parts:
 * `context.ts` (database and parsed records) and one object per part of the port (src/ports/store.ts):
 * records (`collections.ts`: `records.ts` reads a record, `queries.ts` lists, `record-writes.ts` the
 * generic writes, `versioned.ts` compare-and-set, `seeding.ts` and `removing.ts`), the events feed
 * (`events.ts`), `idempotency.ts`, `api-keys.ts`, `webhooks.ts` and `webhook-dispatch.ts`.
 */
import type { Kysely, RawBuilder } from 'kysely'
import { StoreUnavailableError } from '../../ports/store.js'
import type { EventFeedPort } from '../../ports/event-feed.js'
import type { Store } from '../../ports/store.js'
import { sqlApiKeyMethods } from './api-keys.js'
import { sqlRecords } from './collections.js'
import { createSqlContext } from './context.js'
import type { Engine, EngineName } from './engine.js'
import { idempotencyMethods } from './idempotency.js'
import { migrateToLatest } from './migrations/index.js'
import { createPages } from './queries.js'
import { EVENT_RETENTION_MS } from '../event-feed.js'
import { type SqlEvents, sqlEvents } from './events.js'
import { webhookDispatchMethods } from './webhook-dispatch.js'
import { webhookEndpointCompanions, webhookMethods } from './webhooks.js'

/** Options of {@link createSqlStore}. */
export interface SqlStoreOptions {
  /** Run the migrations on creation. Default true. */
  migrate?: boolean
  /** Postgres only: the schema that holds every table (created if missing). */
  schema?: string
  /** How long events are kept (default 30 days); writes prune older ones, at most once a minute per tenant. */
  eventRetentionMs?: number
  /**
   * The database for seed, remove and migrations, when they need other bounds than requests (Postgres:
   * the same pool, longer timeouts); default the store's. `close()` destroys it before the store's.
   */
  bulkDb?: Kysely<unknown>
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

/**
 * Creates the shared SQL store over a Kysely instance. Use `createSqliteStore` or
 * `createPostgresStore`, which build the Kysely instance and pick the engine.
 *
 * @example
 * const store = await createSqlStore(new Kysely({ dialect }), sqliteEngine)
 */
export async function createSqlStore(
  db: Kysely<unknown>,
  engine: Engine,
  options: SqlStoreOptions = {},
): Promise<SqlStore> {
  const schema = engine.capabilities.schemas ? options.schema : undefined
  const ctx = createSqlContext(db, engine, schema, options.bulkDb)
  const migrate = () => migrateToLatest(ctx.bulk, { engine, table: ctx.tableName, schema })
  const unavailable = (error: unknown) =>
    error instanceof StoreUnavailableError
      ? error
      : engine.driver.isUnavailable(error)
        ? new StoreUnavailableError(error)
        : error

  if (options.migrate !== false) {
    try {
      await migrate()
    } catch (error) {
      throw unavailable(error)
    }
  }

  const events = sqlEvents(ctx, options.eventRetentionMs ?? EVENT_RETENTION_MS)
  const store: SqlStore = {
    engine: engine.name,
    migrate,
    ...sqlRecords(ctx, createPages(ctx), events, webhookEndpointCompanions(ctx)),
    ...sqlEventFeed(events),
    ...idempotencyMethods(ctx),
    ...sqlApiKeyMethods(ctx),
    ...webhookMethods(ctx),
    ...webhookDispatchMethods(ctx),
    async close() {
      if (ctx.bulk !== db) await ctx.bulk.destroy()
      await db.destroy()
      await options.onClose?.()
    },
  }

  // Every method: a database that cannot be reached is a StoreUnavailableError (503), not a 500.
  for (const [name, method] of Object.entries(store)) {
    if (typeof method !== 'function' || name === 'close') continue
    Reflect.set(store, name, async (...args: unknown[]) => {
      try {
        return await (method as (...a: unknown[]) => Promise<unknown>).apply(store, args)
      } catch (error) {
        throw unavailable(error)
      }
    })
  }
  internals.set(store, { db, engine, table: ctx.table, unavailable })
  return store
}

/** The events feed part: the pages of `events`, whose writes the records part records in its transactions. */
function sqlEventFeed(events: SqlEvents): EventFeedPort {
  return { listEvents: events.listEvents }
}
