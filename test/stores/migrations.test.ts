/**
 * The SQL schema against the model, and old databases against new code, on SQLite and Postgres:
 *
 * - a new database has every column the collection definitions (`src/model/`) name, with their types and
 *   nullability, and an index for every collection index, sort, indexed filter, fixed order and trigram
 *   search;
 * - a database of release 0.1.0 (the dumps in `fixtures/v0.1.0/`, made by that release's code)
 *   migrates to the latest schema, ends up with exactly a new database's schema, serves its records
 *   as a memory store given the same data serves them, and passes the conformance suite.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, memoryRateLimiter, type Store } from 'tenant-public-api'
import { runStoreConformance } from 'tenant-public-api/conformance'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { createSqliteStore, type SqlStore } from 'tenant-public-api/sqlite'
import { createDemoData, testKey, testKeyResolver } from 'tenant-public-api/testing'
import {
  automationRules,
  budgetLineItems,
  budgets,
  COLLECTIONS,
  companies,
  foldedName,
  reports,
  reportTypes,
  tickets as ticketsCollection,
  trainingCourses,
  trainingEnrollments,
} from '../../src/model/index.js'
import { listRequest } from '../../src/model/list-request.js'
import { quote } from '../../src/stores/sql/context.js'
import type { Engine } from '../../src/stores/sql/engine.js'
import { postgresEngine } from '../../src/stores/sql/postgres-engine.js'
import { ftsOf, generationTable, indexRebuild } from '../../src/stores/sql/schema.js'
import { sqliteEngine } from '../../src/stores/sql/sqlite-engine.js'
import { assertMatchesContract } from '../support/contract.js'
import { pgliteDialect } from '../support/pglite-dialect.js'
import { DATABASE_URL, dropSchemas, freshSchema, NO_SERVER, postgresServerAnswers } from '../support/postgres.js'

type Kind = 'sqlite' | 'postgres'
type Row = Record<string, unknown>

/** A store on its own database, and a way to query that database behind the store's back. */
interface Db {
  kind: Kind
  store: SqlStore
  /** Where the tables are: the Postgres schema (always named here), or null on SQLite. */
  schema: string | null
  query(text: string): Promise<Row[]>
}

const RELEASE = 'v0.1.0'
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${RELEASE}/${name}`, import.meta.url), 'utf8')
const release = JSON.parse(fixture('data.json')) as { writes: { method: string; args: unknown[] }[] }

const onServer = await postgresServerAnswers()

/** A SQLite file, loaded with `dump` first when given, and a store on it (which migrates it). */
async function sqliteDb(dump?: string, eventRetentionMs?: number): Promise<Db> {
  const filename = join(mkdtempSync(join(tmpdir(), 'tenant-api-migrations-')), 'db.sqlite')
  if (dump !== undefined) {
    const loader = new Database(filename)
    loader.exec(dump)
    loader.close()
  }
  const handle = new Database(filename)
  const store = await createSqliteStore({ database: handle }, retention(eventRetentionMs))
  return { kind: 'sqlite', store, schema: null, query: async (text) => handle.prepare(text).all() as Row[] }
}

/** A fresh Postgres schema (the server's, else PGlite's), loaded with `dump` first when given, and a store on it. */
async function postgresDb(dump?: string, eventRetentionMs?: number): Promise<Db> {
  const schema = freshSchema('migrations')
  const load = async (run: (text: string) => Promise<unknown>, one: (text: string) => Promise<Row[]>) => {
    if (dump === undefined) return
    await run('CREATE EXTENSION IF NOT EXISTS pg_trgm')
    const [extension] = await one(
      `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
       WHERE e.extname = 'pg_trgm'`,
    )
    await run(
      dump
        .replaceAll('__schema__', schema)
        .replaceAll('public.gin_trgm_ops', `"${String(extension?.schema)}".gin_trgm_ops`),
    )
    // The dump empties the session's search_path.
    await run('RESET search_path')
  }
  if (onServer) {
    const client = new pg.Client({ connectionString: DATABASE_URL })
    await client.connect()
    const query = async (text: string) => (await client.query(text)).rows as Row[]
    await load(query, query)
    const store = await createPostgresStore(
      { connectionString: DATABASE_URL, schema, max: 4 },
      retention(eventRetentionMs),
    )
    const close = store.close.bind(store)
    store.close = async () => {
      await close()
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await client.end()
    }
    return { kind: 'postgres', store, schema, query }
  }
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ])
  const db = await PGlite.create({ extensions: { pg_trgm } })
  const query = async (text: string) => (await db.query<Row>(text)).rows
  await load((text) => db.exec(text), query)
  const store = await createPostgresStore({ dialect: pgliteDialect(db), schema }, retention(eventRetentionMs))
  return { kind: 'postgres', store, schema, query }
}

const open = (kind: Kind, dump?: string, eventRetentionMs?: number) =>
  kind === 'sqlite' ? sqliteDb(dump, eventRetentionMs) : postgresDb(dump, eventRetentionMs)

/** The stores' retention option, when one is given. */
const retention = (eventRetentionMs: number | undefined) => (eventRetentionMs === undefined ? {} : { eventRetentionMs })

/** A column as the database describes it. */
interface ColumnInfo {
  type: string
  nullable: boolean
}

/** The columns of `table`, by name. */
async function columnsOf(db: Db, table: string): Promise<Map<string, ColumnInfo>> {
  if (db.kind === 'sqlite') {
    const rows = await db.query(`PRAGMA table_info("${table}")`)
    return new Map(
      rows.map((r) => [String(r.name), { type: String(r.type).toUpperCase(), nullable: Number(r.notnull) === 0 }]),
    )
  }
  const rows = await db.query(
    `SELECT column_name, data_type, collation_name, is_nullable FROM information_schema.columns
     WHERE table_schema = '${db.schema}' AND table_name = '${table}'`,
  )
  return new Map(
    rows.map((r) => [
      String(r.column_name),
      {
        type: `${r.data_type}${r.collation_name ? ` COLLATE "${r.collation_name}"` : ''}`,
        nullable: r.is_nullable === 'YES',
      },
    ]),
  )
}

/** The type `engine` gives a column of the model's `type`, as {@link columnsOf} reports it. */
function expectedType(kind: Kind, engine: Engine, type: string): string {
  const { ddl } = engine
  const declared = { text: ddl.textType, real: ddl.realType, integer: 'integer', boolean: ddl.booleanType }
  const name = declared[type as keyof typeof declared] ?? ddl.bigintType
  return kind === 'sqlite' ? name.toUpperCase() : name
}

/** The primary key's columns of `table`, in order. */
async function primaryKeyOf(db: Db, table: string): Promise<string[]> {
  if (db.kind === 'sqlite') {
    const rows = await db.query(`PRAGMA table_info("${table}")`)
    return rows
      .filter((r) => Number(r.pk) > 0)
      .sort((a, b) => Number(a.pk) - Number(b.pk))
      .map((r) => String(r.name))
  }
  const rows = await db.query(
    `SELECT k.column_name FROM information_schema.table_constraints c
     JOIN information_schema.key_column_usage k
       ON k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema
     WHERE c.table_schema = '${db.schema}' AND c.table_name = '${table}' AND c.constraint_type = 'PRIMARY KEY'
     ORDER BY k.ordinal_position`,
  )
  return rows.map((r) => String(r.column_name))
}

/** An index: how it is made (`btree`, `gin`...) and its columns, `'<column> DESC'` for descending ones. */
interface IndexInfo {
  method: string
  columns: string[]
  definition: string
}

/** The indexes of `table` (primary keys included). */
async function indexesOf(db: Db, table: string): Promise<IndexInfo[]> {
  if (db.kind === 'sqlite') {
    const out: IndexInfo[] = []
    for (const index of await db.query(`PRAGMA index_list("${table}")`)) {
      const keys = (await db.query(`PRAGMA index_xinfo("${String(index.name)}")`)).filter((k) => Number(k.key) === 1)
      const columns = keys.map((k) => `${String(k.name)}${Number(k.desc) === 1 ? ' DESC' : ''}`)
      out.push({ method: 'btree', columns, definition: String(index.name) })
    }
    return out
  }
  const rows = await db.query(
    `SELECT indexdef FROM pg_indexes WHERE schemaname = '${db.schema}' AND tablename = '${table}'`,
  )
  return rows.map((r) => {
    const definition = String(r.indexdef)
    const [, method = '', list = ''] = /USING (\w+) \((.*)\)$/.exec(definition) ?? []
    const columns = list.split(', ').map((part) => {
      const [name = '', ...rest] = part.replace(/ NULLS (LAST|FIRST)$/, '').split(' ')
      return `${name.replaceAll('"', '')}${rest.includes('DESC') ? ' DESC' : ''}`
    })
    return { method, columns, definition }
  })
}

/** True when some btree index of `indexes` starts with `lead`. */
const led = (indexes: IndexInfo[], lead: readonly string[]) =>
  indexes.some((i) => i.method === 'btree' && lead.every((c, n) => i.columns[n] === c))

describe.each(['sqlite', 'postgres'] as const)('the model against a new %s database', (kind) => {
  let db: Db
  beforeAll(async () => {
    db = await open(kind)
  })
  afterAll(() => db.store.close())
  const engine = kind === 'sqlite' ? sqliteEngine : postgresEngine

  it.each(COLLECTIONS.map((collection) => [collection.table, collection] as const))(
    '%s has every column of its collection, typed and nullable as the collection says, and no other',
    async (table, collection) => {
      const expected = new Map<string, ColumnInfo>([['tenant_id', { type: 'text', nullable: false }]])
      for (const key of collection.key) expected.set(key.name, { type: key.type, nullable: false })
      for (const c of collection.columns) expected.set(c.name, { type: c.type, nullable: c.nullable })
      for (const c of collection.columns)
        if (c.folded) expected.set(foldedName(c.name), { type: 'text', nullable: c.nullable })
      expected.set('doc', { type: 'text', nullable: false })
      for (const part of Object.keys(collection.parts)) expected.set(part, { type: 'text', nullable: false })
      const want = Object.fromEntries(
        [...expected].map(([name, c]) => [name, { type: expectedType(kind, engine, c.type), nullable: c.nullable }]),
      )
      expect(Object.fromEntries(await columnsOf(db, table))).toEqual(want)
      expect(await primaryKeyOf(db, table)).toEqual(['tenant_id', ...collection.key.map((k) => k.name)])
    },
  )

  it.each(COLLECTIONS.map((collection) => [collection.table, collection] as const))(
    '%s has every index of its collection, and one for each sort (both ways), indexed filter and fixed order',
    async (table, collection) => {
      const indexes = await indexesOf(db, table)
      const shown = indexes.map((i) => i.columns.join(', '))
      for (const index of collection.indexes) expect(shown, `index (${index.join(', ')})`).toContain(index.join(', '))
      for (const column of Object.values(collection.sorts)) {
        expect(led(indexes, ['tenant_id', column]), `sort on ${column}`).toBe(true)
        expect(led(indexes, ['tenant_id', `${column} DESC`]), `sort on ${column} DESC`).toBe(true)
      }
      for (const [param, filter] of Object.entries(collection.filters)) {
        if (filter.scan) continue
        const column = filter.op === 'equalsFolded' ? foldedName(filter.column) : filter.column
        const found = led(indexes, ['tenant_id', column]) || led(indexes, ['tenant_id', `${column} DESC`])
        expect(found, `filter ${param} on ${column}`).toBe(true)
      }
      if (collection.order.length > 0) {
        const lead = collection.order.map((t) => `${t.column}${t.descending ? ' DESC' : ''}`)
        expect(led(indexes, ['tenant_id', ...lead]), 'the fixed order').toBe(true)
      }
    },
  )

  it("the generation counters schema.ts reads are the database's, a (tenant_id, generation) each", async () => {
    const stated = COLLECTIONS.flatMap((collection) => generationTable(collection) ?? [])
    expect(stated.length).toBeGreaterThan(0)
    const tables =
      kind === 'sqlite'
        ? await db.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%_generations'`)
        : await db.query(
            `SELECT table_name AS name FROM information_schema.tables
             WHERE table_schema = '${db.schema}' AND table_name LIKE '%_generations'`,
          )
    expect(tables.map((r) => String(r.name)).sort()).toEqual([...stated].sort())
    for (const table of stated) {
      const bigint = expectedType(kind, engine, 'bigint')
      expect(Object.fromEntries(await columnsOf(db, table))).toEqual({
        tenant_id: { type: expectedType(kind, engine, 'text'), nullable: false },
        generation: { type: bigint, nullable: false },
      })
      expect(await primaryKeyOf(db, table)).toEqual(['tenant_id'])
    }
  })

  it.each(COLLECTIONS.filter((c) => c.indexes.length > 0).map((collection) => [collection.table, collection] as const))(
    "%s: the indexes a bulk load drops and rebuilds (schema.ts) are the database's, named and written as it made them",
    async (table, collection) => {
      const namer = (name: string) => (db.schema === null ? quote(name) : `${quote(db.schema)}.${quote(name)}`)
      const { drop, create } = indexRebuild(collection, engine, namer)
      const made =
        kind === 'sqlite'
          ? await db.query(`SELECT name, sql FROM sqlite_master WHERE tbl_name = '${table}' AND sql IS NOT NULL`)
          : await db.query(
              `SELECT indexname AS name FROM pg_indexes WHERE schemaname = '${db.schema}' AND tablename = '${table}'`,
            )
      const names = new Set(made.map((r) => String(r.name)))
      for (const statement of drop) {
        const [, name = ''] = /^DROP (?:INDEX|TRIGGER) IF EXISTS "?([^" ]+)"?$/.exec(statement) ?? []
        expect(names, statement).toContain(name)
      }
      if (kind !== 'sqlite') return
      // SQLite keeps each CREATE as written, less IF NOT EXISTS: the rebuild makes what the migration made.
      const texts = new Set(made.map((r) => String(r.sql)))
      for (const statement of create.filter((c) => c.startsWith('CREATE ')))
        expect(texts, statement).toContain(statement.replace(' IF NOT EXISTS', ''))
    },
  )

  it('events are indexed by position and by type, not by time (0006: pruned by position)', async () => {
    const shown = (await indexesOf(db, 'events')).map((i) => i.columns.join(', '))
    expect(shown.sort()).toEqual(['tenant_id, position', 'tenant_id, type, position'])
  })

  it.each(
    COLLECTIONS.filter((collection) => collection.search?.trigram).map(
      (collection) => [collection.table, collection] as const,
    ),
  )(
    "%s's trigram search has its trigram index (on SQLite, the FTS5 table schema.ts names)",
    async (table, collection) => {
      for (const column of collection.search?.columns ?? []) {
        const folded = foldedName(column)
        if (kind === 'sqlite') {
          const fts = await db.query(
            `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING fts5%'`,
          )
          const over = fts.filter((r) => {
            const text = String(r.sql)
            return text.includes(`fts5(${folded},`) && text.includes(`content='${table}'`) && text.includes('trigram')
          })
          expect(over, `FTS5 over ${table}.${folded}`).toHaveLength(1)
          if (folded === ftsOf(collection)?.column) expect(over[0]?.name).toBe(ftsOf(collection)?.table)
        } else {
          const gin = (await indexesOf(db, table)).filter(
            (i) => i.method === 'gin' && i.definition.includes(`(${folded} `) && i.definition.includes('gin_trgm_ops'),
          )
          expect(gin, `pg_trgm index on ${table}.${folded}`).toHaveLength(1)
        }
      }
    },
  )
})

/** The schema of a database, as text to compare: tables, columns, keys, indexes, triggers. */
async function schemaOf(db: Db): Promise<string[]> {
  // Kysely's own tables follow Kysely's version, not the store's migrations.
  if (db.kind === 'sqlite') {
    const rows = await db.query(
      `SELECT type, name, tbl_name, sql FROM sqlite_master
       WHERE name NOT LIKE 'tenant_api_migrations%' ORDER BY type, name`,
    )
    return rows.map((r) => `${r.type} ${r.name} ${r.tbl_name}: ${r.sql}`)
  }
  const columns = await db.query(
    `SELECT table_name, column_name, ordinal_position, data_type, collation_name, is_nullable, column_default
     FROM information_schema.columns
     WHERE table_schema = '${db.schema}' AND table_name NOT LIKE 'tenant_api_migrations%'
     ORDER BY table_name, ordinal_position`,
  )
  const indexes = await db.query(
    `SELECT tablename, indexname, indexdef FROM pg_indexes
     WHERE schemaname = '${db.schema}' AND tablename NOT LIKE 'tenant_api_migrations%' ORDER BY indexname`,
  )
  return [
    ...columns.map((r) => Object.values(r).join(' ')),
    ...indexes.map((r) => Object.values(r).join(' ').replaceAll(String(db.schema), '<schema>')),
  ]
}

/**
 * The fixture's calls of the release's named writes, as the store takes them now: the generic write
 * of the collection (first), and a new versioned record's expected version null.
 */
const RENAMED_CALLS: Readonly<Record<string, { method: keyof Store; args: (args: unknown[]) => unknown[] }>> = {
  insertAutomationRule: {
    method: 'replaceVersioned',
    args: ([tenantId, rule, write]) => [automationRules, tenantId, rule, null, write],
  },
  replaceAutomationRule: { method: 'replaceVersioned', args: (args) => [automationRules, ...args] },
  replaceReport: { method: 'replaceVersioned', args: (args) => [reports, ...args] },
  updateBudget: { method: 'patch', args: (args) => [budgets, ...args] },
  addBudgetLineItem: { method: 'addChild', args: (args) => [budgetLineItems, ...args] },
  deleteTrainingEnrollment: { method: 'delete', args: (args) => [trainingEnrollments, ...args] },
}

/** Replays the release fixture's writes on `store`. */
async function replay(store: Store): Promise<void> {
  for (const { method, args } of release.writes) {
    let call = [...args]
    if (method === 'reserveIdempotencyKey') call[3] = new Date(String(call[3]))
    const renamed = RENAMED_CALLS[method]
    if (renamed !== undefined) call = renamed.args(call)
    const name = renamed === undefined ? method : renamed.method
    await (store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!(...call)
  }
}

type Seed = Record<string, { id: string; [field: string]: unknown }[] | undefined>
const seeded = release.writes.filter((w) => w.method === 'seed')
const tenantsOf = [...new Set(seeded.map((w) => String(w.args[0])))]
/** Every record id of the tenant's seeds, by collection. */
const idsOf = (tenantId: string, collection: string) => [
  ...new Set(
    seeded
      .filter((w) => w.args[0] === tenantId)
      .flatMap((w) => (w.args[1] as Seed)[collection] ?? [])
      .map((r) => r.id),
  ),
]
const first = (tenantId: string, collection: string) =>
  ((seeded.find((w) => w.args[0] === tenantId)?.args[1] as Seed | undefined)?.[collection] ?? [])[0]

/** Every read the API offers on the tenant's records: lists in every sort and with filters, and every record. */
function readsOf(tenantId: string): string[] {
  const paths: string[] = []
  const sorts = (path: string, names: string[], asc: string, desc: string, field: string) => {
    paths.push(path)
    for (const name of names) paths.push(`${path}?${field}=${name}&${asc}`, `${path}?${field}=${name}&${desc}`)
  }
  const byId = (path: string, collection: string, query = '') =>
    paths.push(...idsOf(tenantId, collection).map((id) => `${path}/${id}${query}`))
  const collectionNamed = (name: string) => COLLECTIONS.find((c) => c.name === name)!
  const ticket = first(tenantId, 'tickets')
  const ticketSorts = Object.keys(collectionNamed('tickets').sorts)
  sorts('/tickets', ticketSorts, 'sortDesc=false', 'sortDesc=true', 'sortColumn')
  paths.push(
    '/tickets?page=2&limit=5',
    '/tickets?search=pr',
    '/tickets?search=printer',
    '/tickets?isClosed=true',
    '/tickets?provider=psa_a&sortColumn=title&sortDesc=false',
    `/tickets?status=${encodeURIComponent(String(ticket?.status ?? 'open'))}`,
    `/tickets?companyId=${String(ticket?.companyId ?? '')}`,
    '/tickets?dateFrom=2024-01-05&dateTo=2024-01-20',
  )
  byId('/tickets', 'tickets', '?includeNotes=true&notesLimit=2')
  byId('/tickets', 'tickets')
  if (ticket !== undefined) paths.push(`/tickets/${String(ticket.ticketNumber)}?includeNotes=true`)
  sorts(
    '/report-templates',
    Object.keys(collectionNamed('reportTemplates').sorts),
    'sortOrder=asc',
    'sortOrder=desc',
    'sortBy',
  )
  paths.push('/report-templates?isShared=true', '/report-templates?isShared=false&limit=2')
  byId('/report-templates', 'reportTemplates', '?includeStructure=true')
  byId('/report-templates', 'reportTemplates')
  const compliance = Object.keys(collectionNamed('complianceTemplates').sorts)
  sorts('/compliance/templates', compliance, 'sortOrder=asc', 'sortOrder=desc', 'sortBy')
  paths.push('/compliance/templates?search=a', '/compliance/templates?approvalStatus=approved')
  byId('/compliance/templates', 'complianceTemplates')
  byId('/compliance/checks', 'complianceChecks')
  paths.push('/training/enrollments', '/training/enrollments?status=completed', '/training/enrollments?limit=2&page=2')
  byId('/training/courses', 'trainingCourses')
  sorts('/users', Object.keys(collectionNamed('users').sorts), 'sortDesc=false', 'sortDesc=true', 'sortColumn')
  paths.push('/users?search=a', '/users?status=active', '/users?isPrimaryAdmin=true')
  paths.push('/calendar/types', '/calendar/types?limit=3&page=2')
  sorts('/companies', Object.keys(collectionNamed('companies').sorts), 'sortOrder=asc', 'sortOrder=desc', 'sortBy')
  byId('/goals', 'goals')
  byId('/surveys/nps', 'npsSurveys')
  byId('/planner/types', 'plannerItemTypes')
  return paths
}

/** The status and body of every read of the tenant, on `store`. */
async function served(store: Store, tenantId: string): Promise<string[]> {
  const api = createPublicApi({
    store,
    keyResolver: testKeyResolver(),
    rateLimiter: memoryRateLimiter({ limit: 1_000_000, windowMs: 60_000 }),
  })
  const out: string[] = []
  for (const path of readsOf(tenantId)) {
    const response = await api(
      new Request(`http://api.test/api/public/v1${path}`, {
        headers: { authorization: `Bearer ${testKey(tenantId)}`, 'x-request-id': 'migrations-test' },
      }),
    )
    out.push(`${response.status} ${path} ${await response.text()}`)
  }
  return out
}

/** What the store holds that no read of the API shows whole: budgets, rules, reports, courses, idempotency keys. */
async function held(store: Store, tenantId: string): Promise<unknown[]> {
  const later = new Date(Date.parse('2024-02-01T12:00:10.000Z'))
  return [
    await Promise.all(idsOf(tenantId, 'budgets').map((id) => store.get(budgets, tenantId, id))),
    await Promise.all(
      release.writes
        .filter((w) => w.args[0] === tenantId && w.method.endsWith('AutomationRule'))
        .map((w) => store.get(automationRules, tenantId, (w.args[1] as { id: string }).id)),
    ),
    await Promise.all(idsOf(tenantId, 'reports').map((id) => store.get(reports, tenantId, id))),
    await Promise.all(idsOf(tenantId, 'reportTypes').map((id) => store.get(reportTypes, tenantId, id))),
    await Promise.all(idsOf(tenantId, 'trainingCourses').map((id) => store.get(trainingCourses, tenantId, id))),
    await store.findNames(companies, tenantId, idsOf(tenantId, 'companies')),
    await store.reserveIdempotencyKey(tenantId, 'release-key-done', 'fingerprint-1', later),
    await store.reserveIdempotencyKey(tenantId, 'release-key-open', 'fingerprint-2', later),
  ]
}

describe.each(['sqlite', 'postgres'] as const)(`a %s database of release ${RELEASE}`, (kind) => {
  let old: Db
  let fresh: Db
  const reference = createMemoryStore()
  beforeAll(async () => {
    ;[old, fresh] = await Promise.all([open(kind, fixture(`${kind}.sql`)), open(kind)])
    await replay(reference)
  })
  afterAll(async () => {
    await Promise.all([old.store.close(), fresh.store.close()])
  })

  it('migrates to exactly the schema of a new database', async () => {
    const [was, now] = await Promise.all([schemaOf(old), schemaOf(fresh)])
    expect(was.length).toBeGreaterThan(50)
    expect(was).toEqual(now)
  })

  it.each(tenantsOf)(
    'serves the records of %s as a memory store given the same data does, byte for byte',
    async (tenantId) => {
      const [got, want] = await Promise.all([served(old.store, tenantId), served(reference, tenantId)])
      expect(got.filter((line) => line.startsWith('200 ')).length).toBeGreaterThan(20)
      expect(got).toEqual(want)
    },
  )

  it.each(tenantsOf)('holds the budgets, rules, reports, courses and idempotency keys of %s', async (tenantId) => {
    expect(await held(old.store, tenantId)).toEqual(await held(reference, tenantId))
  })
})

describe('a SQLite bulk load', () => {
  it("drops and rebuilds the indexes of the current schema: the schema is a new database's after it", async () => {
    const [loaded, fresh] = await Promise.all([sqliteDb(), sqliteDb()])
    const memory = createMemoryStore()
    try {
      // 50,000 tickets into an empty table: the indexes and the FTS trigger are dropped, then rebuilt.
      const { tickets } = createDemoData({ tickets: 50_000 })
      await loaded.store.seed('bulk', { tickets })
      await memory.seed('bulk', { tickets })
      expect(await schemaOf(loaded)).toEqual(await schemaOf(fresh))
      const query = { page: 1, limit: 5, sortColumn: 'title', sortDesc: false, search: 'print' } as const
      const request = listRequest(ticketsCollection, query)
      expect(await loaded.store.list(ticketsCollection, 'bulk', request)).toEqual(
        await memory.list(ticketsCollection, 'bulk', request),
      )
    } finally {
      await Promise.all([loaded.store.close(), fresh.store.close()])
    }
    // Two 50,000-ticket seeds: about 20 s on a quiet 2-core machine, twice that on a busy one.
  }, 120_000)
})

for (const kind of ['sqlite', 'postgres'] as const) {
  runStoreConformance({
    name: `a ${kind} database of release ${RELEASE}, migrated`,
    createStore: async () => (await open(kind, fixture(`${kind}.sql`))).store,
    createStoreWithRetention: async (eventRetentionMs) =>
      (await open(kind, fixture(`${kind}.sql`), eventRetentionMs)).store,
    onResponse: assertMatchesContract,
  })
}

describe('a Postgres store given no schema', () => {
  it("migrates into the schema its names resolve to, though another schema has a store's tables", async () => {
    expect(await postgresServerAnswers(), NO_SERVER).toBe(true)
    const [other, own] = [freshSchema('other'), freshSchema('own')]
    try {
      // A store in a schema of its own first: its migration tables are the ones the migrator would find.
      await (await createPostgresStore({ connectionString: DATABASE_URL, schema: other })).close()
      const admin = new pg.Client({ connectionString: DATABASE_URL })
      await admin.connect()
      await admin.query(`CREATE SCHEMA "${own}"`)
      await admin.end()
      const pool = new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path="${own}"` })
      const store = await createPostgresStore({ pool })
      await store.seed('tenant-own', {
        companies: [
          {
            id: 'c1',
            name: 'Own',
            status: 'active',
            createdAt: '2025-01-01T00:00:00.000Z',
            updatedAt: '2025-01-01T00:00:00.000Z',
          },
        ],
      })
      const byName = { page: 1, limit: 5, sortBy: 'name', sortOrder: 'asc' }
      expect((await store.list(companies, 'tenant-own', listRequest(companies, byName))).totalCount).toBe(1)
      await store.close()
      const check = new pg.Client({ connectionString: DATABASE_URL })
      await check.connect()
      const { rows } = await check.query(
        `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = $1 AND tablename = 'tenant_api_migrations'`,
        [own],
      )
      await check.end()
      expect(rows[0].n).toBe(1)
    } finally {
      await dropSchemas([other, own])
    }
  })
})
