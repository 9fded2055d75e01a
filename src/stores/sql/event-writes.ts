/**
 * Appending events inside the writing transaction (docs/extensions.md, section 3). A write takes its
 * positions by upserting the tenant's `event_positions` row (the row lock serialises a tenant's
 * writers until commit, so positions commit in order and without gaps), then inserts its events, and
 * now and then prunes the tenant's events older than the retention (`event-pruning.ts`). On
 * Postgres the change's own statements, the counter, the events and a due prune travel as one
 * statement (`WriteStrategies.chain`), SQL splicing each event's id into its text; on SQLite they run in
 * turn, and the events are written with the ids the counter's returned position gives.
 */
import { type RawBuilder, sql } from 'kysely'
import { type EventDraft, eventId, type WriteContext } from '../../model/events.js'
import { authorOf, eventOf } from '../event-feed.js'
import {
  type CompiledStatement,
  counterOfTenant,
  type Exec,
  insertOfTenant,
  json,
  ofTenant,
  type SqlContext,
} from './context.js'
import { type WriteMoment, writeMoments } from './event-pruning.js'
import type { NamedWrite } from './write-strategies.js'

/** Events per insert statement. */
const EVENTS_PER_INSERT = 100

/** The columns of an event's row after its tenant's, in the order the inserts write them. */
const EVENT_ROW = ['position', 'type', 'created_at', 'doc']
/** The values of an event's row: its tenant's, then {@link EVENT_ROW}. */
const EVENT_COLUMNS = 1 + EVENT_ROW.length

/** How the SQL store records events. */
export interface SqlEventWrites {
  /**
   * Runs `writes` (the change's data-modifying statements, their results unused), then records
   * `drafts` at the tenant's next positions, in the transaction `ex` (one statement on Postgres).
   */
  append(
    ex: Exec,
    tenantId: string,
    drafts: readonly EventDraft[],
    write?: WriteContext,
    writes?: readonly RawBuilder<unknown>[],
  ): Promise<void>
  /**
   * Runs `guard` (a data-modifying statement with RETURNING) and, only when it changed a row,
   * records `drafts` (at most 100) at the tenant's next positions: one autocommit statement
   * (`WriteStrategies.guarded`, where the engine has data-modifying CTEs). Resolves to whether the
   * guard changed a row; when it did not, nothing was counted or recorded. A due prune is part of
   * the statement and runs either way (deleting expired events needs no change of its own), so it is
   * never skipped.
   */
  appendIf(
    tenantId: string,
    drafts: readonly EventDraft[],
    write: WriteContext | undefined,
    guard: NamedWrite,
  ): Promise<boolean>
}

// An event's stored text is its JSON with the id first; on Postgres the id is spliced in by SQL from
// the position the counter returns, so the insert needs no round trip of its own.
const ZERO_ID = eventId(0)
const ID_PREFIX = ZERO_ID.replace(/0+$/, '')
const ID_HEAD = `{"id":"${ZERO_ID}"`
const ID_BOUND = 10 ** (ZERO_ID.length - ID_PREFIX.length)

/** The event id of position `p` (a SQL expression), as `eventId` writes it, on both engines. */
const idSql = (p: RawBuilder<unknown>) =>
  sql`${ID_PREFIX} || CASE WHEN ${p} < ${sql.lit(ID_BOUND)} THEN substr(CAST(${p} + ${sql.lit(ID_BOUND)} AS TEXT), 2)
      ELSE CAST(${p} AS TEXT) END`

/**
 * The statements that record `drafts` in one statement (`WriteStrategies.chain`, Postgres): a due
 * prune, the counter upsert of the rows `source` gives (`(tenant, n)`, returning the position
 * after the write as `pos`), and the event inserts (100 drafts each) reading `pos`, which splice
 * each event's id into its stored text.
 */
function chained(
  ctx: SqlContext,
  moment: WriteMoment,
  tenantId: string,
  drafts: readonly EventDraft[],
  write: WriteContext | undefined,
) {
  const { table: t } = ctx
  const n = drafts.length
  const { createdAt, prune } = moment
  const author = authorOf(write)
  const counter = (source: RawBuilder<unknown>) => counterOfTenant(t('event_positions'), 'position', source)
  const inserts: RawBuilder<unknown>[] = []
  for (let start = 0; start < n; start += EVENTS_PER_INSERT) {
    // Draft j takes position last - (n - 1 - j), `last` being the counter after this write.
    const selects = drafts.slice(start, start + EVENTS_PER_INSERT).map((draft, i) => {
      const position = sql`(pos.position - ${sql.lit(n - 1 - start - i)})`
      const text = json(eventOf(draft, 0, createdAt, author))
      if (!text.startsWith(ID_HEAD)) throw new Error('An event must serialise with its id first')
      const tail = text.slice(ID_HEAD.length)
      return sql`SELECT ${tenantId}, ${position}, ${draft.type}, ${createdAt},
                        '{"id":"' || ${idSql(position)} || '"' || ${tail} FROM pos`
    })
    const union = sql.join(selects, sql` UNION ALL `)
    inserts.push(insertOfTenant(t('events'), EVENT_ROW, union))
  }
  return { prune, counter, inserts }
}

/**
 * The statements of a write run one after another (SQLite), compiled once: the counter's upsert returns
 * the last position and the events are written with their ids, so no statement reads another's result
 * in SQL.
 */
function inTurnStatements(ctx: SqlContext) {
  const { table: t } = ctx
  const counter = ctx.compiled(2, ([tenant, n]) =>
    counterOfTenant(t('event_positions'), 'position', sql`VALUES (${tenant}, ${n})`),
  )
  const inserts = new Map<number, CompiledStatement>()
  /** The insert of `count` events, its values row after row. */
  function insert(count: number): CompiledStatement {
    let statement = inserts.get(count)
    if (statement === undefined) {
      statement = ctx.compiled(count * EVENT_COLUMNS, (values) => {
        const tuples = Array.from(
          { length: count },
          (_, i) => sql`(${sql.join(values.slice(i * EVENT_COLUMNS, (i + 1) * EVENT_COLUMNS))})`,
        )
        return insertOfTenant(t('events'), EVENT_ROW, sql`VALUES ${sql.join(tuples)}`)
      })
      inserts.set(count, statement)
    }
    return statement
  }
  return { counter, insert }
}

/** Records `drafts` after running `writes`, one statement after another in the transaction `ex`. */
async function appendInTurn(
  statements: ReturnType<typeof inTurnStatements>,
  { createdAt, prune }: WriteMoment,
  ex: Exec,
  tenantId: string,
  drafts: readonly EventDraft[],
  write: WriteContext | undefined,
  writes: readonly RawBuilder<unknown>[],
) {
  const author = authorOf(write)
  for (const statement of [...writes, ...prune]) await statement.execute(ex)
  const [counted] = await statements.counter.rows<{ position: unknown }>([tenantId, drafts.length], ex)
  const first = Number(counted!.position) - drafts.length + 1
  for (let start = 0; start < drafts.length; start += EVENTS_PER_INSERT) {
    const batch = drafts.slice(start, start + EVENTS_PER_INSERT)
    const values: unknown[] = []
    for (const [i, draft] of batch.entries()) {
      const position = first + start + i
      values.push(tenantId, position, draft.type, createdAt, json(eventOf(draft, position, createdAt, author)))
    }
    await statements.insert(batch.length).rows(values, ex)
  }
}

/**
 * The event writes of the store on `ctx`, keeping events for `retentionMs`.
 *
 * @example
 * const { append } = sqlEventWrites(ctx, EVENT_RETENTION_MS)
 * await append(ex, tenantId, drafts)
 */
export function sqlEventWrites(ctx: SqlContext, retentionMs: number): SqlEventWrites {
  const momentOf = writeMoments(ctx, retentionMs)
  const inTurn = inTurnStatements(ctx)
  return {
    async append(ex, tenantId, drafts, write, writes = []) {
      if (drafts.length === 0) {
        for (const statement of writes) await statement.execute(ex)
        return
      }
      const chainWrites = ctx.writes.chain
      if (chainWrites === null) return appendInTurn(inTurn, momentOf(tenantId), ex, tenantId, drafts, write, writes)
      const parts = chained(ctx, momentOf(tenantId), tenantId, drafts, write)
      const counter = {
        name: 'pos',
        write: parts.counter(sql`VALUES (${tenantId}, ${sql.lit(drafts.length)})`),
      }
      const readBack = sql`SELECT position FROM ${ctx.table('event_positions')} WHERE ${ofTenant(tenantId)}`
      for (const [i, insert] of parts.inserts.entries()) {
        if (i === 0) await chainWrites(ex, [...writes, ...parts.prune], counter, insert)
        else await sql`WITH pos AS (${readBack}) ${insert}`.execute(ex)
      }
    },

    async appendIf(tenantId, drafts, write, guard) {
      const guarded = ctx.writes.guarded
      if (guarded === null) throw new Error('appendIf needs an engine with data-modifying CTEs')
      if (drafts.length === 0) return (await ctx.rows(guard.write)).length > 0
      const parts = chained(ctx, momentOf(tenantId), tenantId, drafts, write)
      if (parts.inserts.length !== 1) throw new Error('appendIf records at most 100 events')
      // One row of the guard's (its key), so the counter moves by n only when the guard changed it.
      const source = sql`SELECT ${tenantId}, ${sql.lit(drafts.length)} FROM ${sql.raw(guard.name)}`
      const counter = { name: 'pos', write: parts.counter(source) }
      return guarded(ctx.db, guard, parts.prune, counter, parts.inserts[0]!)
    },
  }
}
