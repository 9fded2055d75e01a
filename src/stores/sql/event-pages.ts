/**
 * Pages of the events feed on SQL (docs/extensions.md, section 3): a page of a tenant's events after
 * a position, in either order, kept within its byte budget, with the bounds that say whether the
 * position asked for has expired.
 */
import { type RawBuilder, sql } from 'kysely'
import type { Event } from '../../model/events.js'
import { DEFAULT_EVENTS_PAGE_BYTES, type EventPage, type EventQuery } from '../../ports/event-feed.js'
import { isExpired, utf8Length } from '../event-feed.js'
import { ofTenant, type SqlContext } from './context.js'

/**
 * The events of a page's rows (`listEvents`) with at least one large document: rows while their sizes
 * fit `budget` (the first always), at most `limit`; the large documents among them read by position.
 */
async function withinBudget(
  ctx: SqlContext,
  tenantId: string,
  docs: readonly { doc: string }[],
  limit: number,
  budget: number,
) {
  let bytes = 0
  let taken = 0
  const large: number[] = []
  for (const { doc } of docs) {
    const inline = doc.startsWith('{')
    bytes += inline ? utf8Length(doc) : Number(doc.slice(doc.indexOf(':') + 1))
    if (taken === limit || (taken > 0 && bytes > budget)) break
    if (!inline) large.push(Number(doc.slice(0, doc.indexOf(':'))))
    taken += 1
  }
  const texts = new Map<number, string>()
  if (large.length > 0) {
    const fetched = await ctx.rows<{ position: unknown; doc: string }>(
      sql`SELECT position, doc FROM ${ctx.table('events')}
          WHERE ${ofTenant(tenantId)} AND position IN (${sql.join(large)})`,
    )
    for (const row of fetched) texts.set(Number(row.position), row.doc)
  }
  const list: Event[] = []
  for (const { doc } of docs.slice(0, taken)) {
    const text = doc.startsWith('{') ? doc : texts.get(Number(doc.slice(0, doc.indexOf(':'))))
    // Pruned between the two statements: the page ends before it, and the next one carries on.
    if (text === undefined) break
    list.push(ctx.parseDoc<Event>(text))
  }
  return list
}

/** A page of the tenant's events (`Store.listEvents`). */
async function listEvents(ctx: SqlContext, tenantId: string, query: EventQuery): Promise<EventPage> {
  const { table: t, rows } = ctx
  const asc = query.order === 'asc'
  const direction = sql.raw(asc ? 'ASC' : 'DESC')
  const events = t('events')
  const lastSql = sql`(SELECT position FROM ${t('event_positions')} WHERE ${ofTenant(tenantId)})`
  const oldestSql = sql`(SELECT min(position) FROM ${events} WHERE ${ofTenant(tenantId)})`
  const types = query.types === null ? sql`` : sql` AND type IN (${sql.join([...query.types])})`
  const n = query.limit
  const budget = query.maxBytes ?? DEFAULT_EVENTS_PAGE_BYTES
  // The byte budget (docs/extensions.md, section 3), kept without reading what it leaves out: the page
  // carries a document only when it is small (at most `small` bytes, so `limit + 1` of them are at most
  // the budget); for a larger one, `position:size` (`octet_length` reads a stored value's length, not the
  // value: Postgres from its TOAST pointer, SQLite from its record header). The events within the budget
  // (the first always) then fetch their large documents. So a page reads at most twice the budget, or
  // its one event, whatever the events' sizes, and a page of small events is the one statement it was.
  // The stored text is the event's JSON as sent, so its bytes are exact.
  const small = Math.min(2 ** 31 - 1, Math.max(1, Math.floor(budget / (n + 1)))) // octet_length is an int4
  const column = sql`CASE WHEN octet_length(doc) <= ${small} THEN doc
                     ELSE CAST(position AS TEXT) || ':' || CAST(octet_length(doc) AS TEXT) END AS doc`
  // The counter (every position up to it has committed) and the oldest event kept (pruning is the
  // writers' job, since it needs a write lock). On Postgres each row of the page carries them, computed
  // once per statement: one round trip, one snapshot (an empty page asks for them alone). On SQLite
  // they are a statement of their own and the page's rows are documents alone (`Engine.inProcess`).
  type Row = { doc: string; last?: unknown; oldest?: unknown }
  const bounded = sql`${lastSql} AS last, ${oldestSql} AS oldest`
  const together = !ctx.engine.inProcess
  const columns = together ? sql`${column}, ${bounded}` : column
  const page = (range: RawBuilder<unknown>) =>
    rows<Row>(
      sql`SELECT ${columns} FROM ${events} WHERE ${ofTenant(tenantId)} AND ${range}${types}
          ORDER BY position ${direction} LIMIT ${n + 1}`,
    )
  const boundsAlone = async () => (await rows<{ last: unknown; oldest: unknown }>(sql`SELECT ${bounded}`))[0]!
  // The open-ended page: every event past `after` (positions below the oldest do not exist).
  const open = asc
    ? sql`position > ${query.after ?? 0}`
    : query.after === null
      ? sql`position >= 0`
      : sql`position < ${query.after}`
  // Without a type filter the page is a run of consecutive positions (they are gap-free), so it is
  // asked for as a closed range: a plan cannot then read the rest of the feed and sort it, which
  // Postgres chose while a freshly loaded table had no statistics (bench/README.md#measurements-behind-the-code).
  const closed =
    query.after === null
      ? asc
        ? sql`position >= ${oldestSql} AND position <= ${oldestSql} + ${n}`
        : sql`position >= ${lastSql} - ${n} AND position <= ${lastSql}`
      : asc
        ? sql`position >= ${query.after + 1} AND position <= ${query.after + 1 + n}`
        : sql`position >= ${query.after - 1 - n} AND position <= ${query.after - 1}`
  const read = together ? undefined : await boundsAlone()
  const found = await page(query.types === null ? closed : open)
  const bounds = read ?? found[0] ?? (await boundsAlone())
  const lastPosition = bounds.last == null ? 0 : Number(bounds.last)
  const prunedBefore = bounds.oldest == null ? lastPosition + 1 : Number(bounds.oldest)
  if (isExpired(query, prunedBefore)) return { state: 'expired' } as const
  let docs = found
  if (query.types === null) {
    // A run with a hole (an event deleted out of order: pruning by time did that before migration 0006)
    // comes back short: asked for again, open-ended.
    const first = asc ? Math.max(query.after ?? 0, prunedBefore - 1) + 1 : (query.after ?? lastPosition + 1) - 1
    const [from, to] = asc ? [first, Math.min(first + n, lastPosition)] : [Math.max(first - n, prunedBefore), first]
    if (docs.length < to - from + 1) docs = await page(open)
  }
  // The page: rows while they fit the budget (the first always), at most `limit`. Small documents alone
  // cannot pass it, so a page of them is the first `limit` rows, as before the budget.
  const list = docs.every(({ doc }) => doc.startsWith('{'))
    ? docs.slice(0, n).map(({ doc }) => ctx.parseDoc<Event>(doc))
    : await withinBudget(ctx, tenantId, docs, n, budget)
  return { state: 'ok', events: list, hasNextPage: docs.length > list.length, lastPosition } as const
}

/**
 * The events feed's pages of the store on `ctx`.
 *
 * @example
 * const listEvents = sqlEventPages(ctx)
 * const page = await listEvents(tenantId, { after: null, order: 'asc', limit: 100, types: null })
 */
export function sqlEventPages(ctx: SqlContext): (tenantId: string, query: EventQuery) => Promise<EventPage> {
  return (tenantId, query) => listEvents(ctx, tenantId, query)
}
