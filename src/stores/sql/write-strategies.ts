/**
 * How the SQL store runs its writes, chosen by its engine's capabilities (engine.ts), never by its name:
 * the write transaction (the lock taken at its start, or a plain one), and whether a write's
 * data-modifying statements travel as one statement of CTEs (where a statement is a round trip) or run
 * one after another (in process, where a statement costs none).
 */
import { CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely'
import type { Engine } from './engine.js'

/**
 * A data-modifying statement with RETURNING, whose rows later parts of {@link WriteStrategies.chain} and
 * {@link WriteStrategies.guarded} read as `name`.
 */
export interface NamedWrite {
  readonly name: string
  readonly write: RawBuilder<unknown>
}

/**
 * Runs the data-modifying statements `writes` (their results unused), then `named.write` (whose rows
 * `last` reads as the relation `named.name`), then `last`, in the transaction `ex`, as one statement:
 * `WITH w0 AS (…), …, name AS (named.write) last`; all its parts see one snapshot, so a part may use
 * another's effect only through `named`'s returned rows.
 */
export type ChainWrites = (
  ex: Kysely<unknown>,
  writes: readonly RawBuilder<unknown>[],
  named: NamedWrite,
  last: RawBuilder<unknown>,
) => Promise<void>

/**
 * Runs `guard.write` (a data-modifying statement with RETURNING), the statements `writes`, then
 * `named.write` and `last` as {@link ChainWrites} does, as ONE autocommit statement: `WITH guard AS (…),
 * w0 AS (…), …, name AS (named.write), done AS (last) SELECT count(*) FROM guard`. `named.write` reads the
 * relation `guard.name`, so it and `last` change nothing when the guard matched no row; `writes` run
 * either way. Resolves to whether the guard changed a row.
 */
export type GuardedWrites = (
  db: Kysely<unknown>,
  guard: NamedWrite,
  writes: readonly RawBuilder<unknown>[],
  named: NamedWrite,
  last: RawBuilder<unknown>,
) => Promise<boolean>

/** The store's ways of writing on one engine. */
export interface WriteStrategies {
  /** Runs `fn` in a write transaction (the lock taken at BEGIN where the engine says so). */
  transaction<T>(db: Kysely<unknown>, fn: (tx: Kysely<unknown>) => Promise<T>): Promise<T>
  /**
   * A write's statements as one (data-modifying CTEs); null where they run one after another (a
   * statement costs no round trip there), the caller then running its statements in turn.
   */
  readonly chain: ChainWrites | null
  /**
   * A guarded compare-and-set and its event as one autocommit statement; null where the caller takes
   * its write transaction instead.
   */
  readonly guarded: GuardedWrites | null
}

/** The tail of this process's queue of write transactions that lock at BEGIN (see `lockedAtBegin`). */
let lockedWrites: Promise<unknown> = Promise.resolve()

/**
 * A transaction that takes the write lock at its start (`begin`), one at a time in this process.
 * Kysely's transaction() says plain BEGIN, which on SQLite takes the write lock only at the first write:
 * two processes that both read first then deadlock (SQLITE_BUSY at once, no busy wait).
 */
function lockedAtBegin(begin: string): WriteStrategies['transaction'] {
  const statements = {
    begin: CompiledQuery.raw(begin),
    commit: CompiledQuery.raw('COMMIT'),
    rollback: CompiledQuery.raw('ROLLBACK'),
  }
  return (db, fn) => {
    const run = () =>
      db.connection().execute(async (connection) => {
        await connection.executeQuery(statements.begin)
        try {
          const result = await fn(connection)
          await connection.executeQuery(statements.commit)
          return result
        } catch (error) {
          await connection.executeQuery(statements.rollback).catch(() => undefined)
          throw error
        }
      })
    // One such transaction at a time in this process. better-sqlite3 waits for a lock synchronously: a
    // second connection's BEGIN IMMEDIATE on the same file, while the first awaits inside its
    // transaction, would block the event loop the first needs to commit (two stores on one file in one
    // process). Queued here instead; other processes still meet busy_timeout.
    const result = lockedWrites.then(run, run)
    lockedWrites = result.catch(() => undefined)
    return result
  }
}

/** {@link ChainWrites}, its statement marked `prepare` (worth preparing: its text repeats). */
function chained(prepare: string): ChainWrites {
  return async (ex, writes, named, last) => {
    const ctes = writes.map((write, i) => sql`${sql.raw(`w${i}`)} AS (${write})`)
    ctes.push(sql`${sql.raw(named.name)} AS (${named.write})`)
    await sql`${sql.raw(prepare)}WITH ${sql.join(ctes)} ${last}`.execute(ex)
  }
}

/** {@link GuardedWrites}, its statement marked `prepare`. */
function guardedBy(prepare: string): GuardedWrites {
  return async (db, guard, writes, named, last) => {
    const ctes = [
      sql`${sql.raw(guard.name)} AS (${guard.write})`,
      ...writes.map((write, i) => sql`${sql.raw(`w${i}`)} AS (${write})`),
      sql`${sql.raw(named.name)} AS (${named.write})`,
      sql`done AS (${last})`,
    ]
    const { rows } = await sql<{ n: unknown }>`${sql.raw(prepare)}WITH ${sql.join(ctes)}
      SELECT count(*) AS n FROM ${sql.raw(guard.name)}`.execute(db)
    return Number(rows[0]?.n) > 0
  }
}

/**
 * The write strategies of a store on `engine`, chosen by its capabilities.
 *
 * @example
 * const writes = writeStrategies(sqliteEngine)
 * await writes.transaction(db, async (ex) => { ... })
 */
export function writeStrategies(engine: Engine): WriteStrategies {
  const { capabilities, fragments } = engine
  const dataModifyingCtes = capabilities.dataModifyingCtes
  return {
    transaction: capabilities.writeLockAtBegin
      ? lockedAtBegin(fragments.beginWrite)
      : (db, fn) => db.transaction().execute(fn),
    chain: dataModifyingCtes ? chained(fragments.prepare) : null,
    guarded: dataModifyingCtes ? guardedBy(fragments.prepare) : null,
  }
}
