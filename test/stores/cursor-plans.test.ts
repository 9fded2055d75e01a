/**
 * A cursor page is an index seek on both SQL engines (docs/extensions.md, section 1): every
 * statement a deep cursor page sends, in every ticket sort and direction (nullable columns past
 * their last non-null value included), is planned as a search of the sort's index bounded by the
 * sort column, with no scan of the tenant's tickets and no sort of them. On Postgres the page is
 * one statement (the segments' seeks in one UNION ALL, whose few limited rows may be sorted again).
 * The statements are the store's own, captured as they are sent, and explained with their parameters.
 */
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDemoData } from 'tenant-public-api/testing'
import { columnOf } from '../../src/model/collection.js'
import { sortOrder } from '../../src/model/list-request.js'
import { keysetOf } from '../../src/model/keyset.js'
import { listRequest } from '../../src/model/list-request.js'
import { TICKET_SORT_COLUMNS, tickets, type TicketSortColumn } from '../../src/model/tickets.js'
import { createMemoryStore } from '../../src/stores/memory/memory-store.js'
import { createPostgresStore } from '../../src/stores/postgres/index.js'
import { createSqliteStore } from '../../src/stores/sqlite/index.js'
import type { Store } from '../../src/ports/store.js'
import { pgliteDialect } from '../support/pglite-dialect.js'
import { DATABASE_URL, freshSchema, postgresServerAnswers } from '../support/postgres.js'

const TENANT = 'tenant-plans'
const OTHER = 'tenant-plans-other'
const COUNT = 4000
const data = createDemoData({ tickets: COUNT })
const SORTS = Object.keys(TICKET_SORT_COLUMNS) as TicketSortColumn[]
const reference = (async () => {
  const store = createMemoryStore()
  await store.seed(TENANT, data)
  return store
})()

/** A statement as the store sent it. */
interface Sent {
  text: string
  params: unknown[]
}

/**
 * Positions to seek from in `sort`: deep in the order, and (for a nullable column) the last record
 * with a value, so that the page also reads the nulls after it.
 */
async function positions(sort: TicketSortColumn, descending: boolean) {
  // The order, read whole from a memory store (the conformance suite proves the stores order alike).
  const query = { page: 1, limit: COUNT, sortColumn: sort, sortDesc: descending }
  const all = (await (await reference).list(tickets, TENANT, listRequest(tickets, query))).items
  const terms = sortOrder(tickets, sort, descending)
  const column = columnOf(tickets, terms[0]!.column)
  const lastValued = all.findLastIndex((t) => column.read(t) !== null)
  const picks = [Math.floor(all.length * 0.8), ...(column.nullable && lastValued > 0 ? [lastValued - 5] : [])]
  return { terms, afters: picks.map((i) => keysetOf(tickets, terms, all[i]!)) }
}

/** Runs a deep cursor page of every sort and direction, and returns what each sent. */
async function cursorPages(store: Store, sent: Sent[]) {
  const out: Array<{ label: string; column: string; statements: Sent[] }> = []
  for (const sort of SORTS) {
    for (const descending of [false, true]) {
      const { terms, afters } = await positions(sort, descending)
      for (const after of afters) {
        const query = { page: 1, limit: 101, sortColumn: sort, sortDesc: descending }
        const request = listRequest(tickets, query, after)
        await store.list(tickets, TENANT, request) // the first call counts; the next is the steady state
        sent.length = 0
        const { items } = await store.list(tickets, TENANT, request)
        expect(items.length).toBeGreaterThan(0)
        const statements = sent.filter((s) => /SELECT doc FROM/i.test(s.text))
        expect(statements.length, `${sort} ${descending}`).toBeGreaterThan(0)
        out.push({ label: `${sort} ${descending ? 'desc' : 'asc'}`, column: terms[0]!.column, statements })
      }
    }
  }
  return out
}

/** Each node of an EXPLAIN plan (its text before the costs) with the nodes above it, outermost first. */
function planNodes(plan: string): Array<{ node: string; above: string[] }> {
  const stack: Array<{ depth: number; node: string }> = []
  const out: Array<{ node: string; above: string[] }> = []
  for (const line of plan.split('\n')) {
    const match = /^(\s*)(?:->\s+)?(.*?)\s+\(cost=/.exec(line)
    if (match === null) continue
    const depth = match[1]!.length
    while (stack.length > 0 && stack.at(-1)!.depth >= depth) stack.pop()
    out.push({ node: match[2]!, above: stack.map((s) => s.node) })
    stack.push({ depth, node: match[2]! })
  }
  return out
}

describe('cursor pages are index seeks', () => {
  describe('SQLite (EXPLAIN QUERY PLAN)', () => {
    const database = new Database(':memory:')
    const sent: Sent[] = []
    let store: Store
    beforeAll(async () => {
      // Every statement the store prepares reports its text and parameters when it runs.
      const prepare = database.prepare.bind(database)
      database.prepare = ((text: string) => {
        const statement = prepare(text)
        const all = statement.all.bind(statement)
        statement.all = ((...params: unknown[]) => {
          sent.push({ text, params })
          return all(...params)
        }) as typeof statement.all
        return statement
      }) as typeof database.prepare
      store = await createSqliteStore({ database })
      await store.seed(TENANT, data)
      await store.seed(OTHER, data)
      database.exec('ANALYZE')
    })
    afterAll(() => store.close())

    it('seeks the sort index for every segment, in every sort and direction', async () => {
      for (const { label, column, statements } of await cursorPages(store, sent)) {
        for (const { text, params } of statements) {
          const plan = (database.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as Array<{ detail: string }>)
            .map((row) => row.detail)
            .join('\n')
          const onTickets = plan.split('\n').filter((line) => /\btickets\b/.test(line))
          expect(onTickets.length, `${label}\n${plan}`).toBeGreaterThan(0)
          for (const line of onTickets) {
            expect(line, `${label}\n${text}\n${plan}`).toMatch(/^SEARCH tickets USING (COVERING )?INDEX/)
            expect(line, `${label}\n${plan}`).toMatch(new RegExp(`tenant_id=\\? AND ${column}[=<>]`))
          }
          expect(plan, `${label}\n${plan}`).not.toMatch(/TEMP B-TREE|SCAN tickets/)
        }
      }
    })
  })

  describe('Postgres (EXPLAIN)', () => {
    const sent: Sent[] = []
    let store: Store
    let explain: (text: string, params: unknown[]) => Promise<string>
    let close: () => Promise<void>
    beforeAll(async () => {
      if (await postgresServerAnswers()) {
        const schema = freshSchema('plans')
        const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 })
        pool.on('connect', (client) => {
          const query = client.query.bind(client) as (...args: unknown[]) => unknown
          ;(client as unknown as { query: typeof query }).query = (...args) => {
            const [first, values] = args as [unknown, unknown]
            if (typeof first === 'string') sent.push({ text: first, params: Array.isArray(values) ? values : [] })
            else if (typeof first === 'object' && first !== null && 'text' in first) {
              const config = first as { text: string; values?: unknown[] }
              sent.push({ text: config.text, params: config.values ?? [] })
            }
            return query(...args)
          }
        })
        store = await createPostgresStore({ pool, schema })
        explain = async (text, params) => {
          const client = await pool.connect()
          try {
            await client.query(`SET search_path TO "${schema}"`)
            const rows = (await client.query(`EXPLAIN ${text}`, params)).rows as Array<{ 'QUERY PLAN': string }>
            return rows.map((r) => r['QUERY PLAN']).join('\n')
          } finally {
            client.release()
          }
        }
        close = async () => {
          await store.close()
          await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined)
          await pool.end().catch(() => undefined)
        }
        await store.seed(TENANT, data)
        await store.seed(OTHER, data)
        await pool.query(`ANALYZE "${schema}".tickets`)
      } else {
        // No server: embedded PGlite, Postgres's own planner, with its queries captured the same way.
        const [{ PGlite }, { pg_trgm }] = await Promise.all([
          import('@electric-sql/pglite'),
          import('@electric-sql/pglite/contrib/pg_trgm'),
        ])
        const db = await PGlite.create({ extensions: { pg_trgm } })
        const query = db.query.bind(db)
        db.query = ((text: string, params?: unknown[]) => {
          sent.push({ text, params: params ?? [] })
          return query(text, params)
        }) as typeof db.query
        store = await createPostgresStore({ dialect: pgliteDialect(db) })
        explain = async (text, params) =>
          (await query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n')
        close = () => store.close()
        await store.seed(TENANT, data)
        await store.seed(OTHER, data)
        await query('ANALYZE tickets')
      }
    }, 120_000)
    afterAll(() => close())

    it('seeks the sort index for every segment, in every sort and direction', { timeout: 180_000 }, async () => {
      for (const { label, column, statements } of await cursorPages(store, sent)) {
        // All the segments in one statement: one round trip per page.
        expect(statements.length, label).toBe(1)
        for (const { text, params } of statements) {
          const plan = await explain(text, params)
          expect(plan, `${label}\n${plan}`).toMatch(/Index (Only )?Scan/)
          expect(plan, `${label}\n${plan}`).toMatch(new RegExp(`Index Cond: .*${column}`))
          expect(plan, `${label}\n${plan}`).not.toMatch(/Seq Scan on tickets|Bitmap Heap Scan on tickets/)
          // The union of the segments is put in order again, but only ever the rows of a limited
          // segment: no sort has a read of tickets beneath it without a Limit in between.
          const scans = planNodes(plan).filter(({ node }) => /\bon tickets\b/.test(node))
          expect(scans.length, `${label}\n${plan}`).toBeGreaterThan(0)
          for (const { node, above } of scans) {
            expect(node, `${label}\n${plan}`).toMatch(/^Index (Only )?Scan/)
            const sort = above.findLastIndex((n) => /^(Incremental )?Sort\b/.test(n))
            expect(sort < above.findLastIndex((n) => /^Limit\b/.test(n)), `${label}\n${plan}`).toBe(true)
          }
        }
      }
    })
  })
})
