/**
 * How the SQL store writes statements (ARCHITECTURE.md, "Where engine differences live"): `ofTenant`
 * (the one tenant condition), statements compiled once from a `sql` template (`SqlContext.compiled`:
 * one text per engine, values bound in order and as the engine binds strings, usable inside a larger
 * statement).
 */
import Database from 'better-sqlite3'
import {
  type CompiledQuery,
  type DatabaseIntrospector,
  type DialectAdapter,
  type Driver,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  SqliteAdapter,
  SqliteDialect,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely'
import { describe, expect, it } from 'vitest'
import { createSqlContext, ofTenant } from '../../src/stores/sql/context.js'
import { postgresEngine } from '../../src/stores/sql/postgres-engine.js'
import { sqliteEngine } from '../../src/stores/sql/sqlite-engine.js'

/** A Kysely that only compiles (its driver answers no rows), with an engine's adapter, introspector and compiler. */
function compileOnly(
  Adapter: new () => DialectAdapter,
  Introspector: new (db: Kysely<unknown>) => DatabaseIntrospector,
  Compiler: new () => QueryCompiler,
  driver: Driver = new DummyDriver(),
): Kysely<unknown> {
  return new Kysely<unknown>({
    dialect: {
      createAdapter: () => new Adapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new Introspector(db),
      createQueryCompiler: () => new Compiler(),
    },
  })
}
const sqlite = compileOnly(SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler)
const postgres = compileOnly(PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler)

/** A Postgres Kysely whose driver keeps every query it is sent and answers no rows. */
function recordingPostgres(): { db: Kysely<unknown>; sent: CompiledQuery[] } {
  const sent: CompiledQuery[] = []
  const connection = {
    executeQuery: async (query: CompiledQuery) => {
      sent.push(query)
      return { rows: [] }
    },
    streamQuery: () => {
      throw new Error('not streamed')
    },
  }
  const driver = Object.assign(new DummyDriver(), { acquireConnection: async () => connection })
  return { db: compileOnly(PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, driver), sent }
}

describe('ofTenant', () => {
  it("is the tenant's condition, of an aliased table or with a SQL expression for the tenant", () => {
    const where = (condition: ReturnType<typeof ofTenant>) => sql`SELECT 1 FROM t WHERE ${condition}`.compile(postgres)
    expect(where(ofTenant('acme'))).toMatchObject({ sql: 'SELECT 1 FROM t WHERE tenant_id = $1', parameters: ['acme'] })
    expect(where(ofTenant('acme', 'e'))).toMatchObject({ sql: 'SELECT 1 FROM t WHERE e.tenant_id = $1' })
    expect(where(ofTenant(sql`(SELECT ${'acme'})`))).toMatchObject({
      sql: 'SELECT 1 FROM t WHERE tenant_id = (SELECT $1)',
      parameters: ['acme'],
    })
  })
})

describe('a statement compiled once', () => {
  it('runs with its values in order, a parameter used twice bound twice', async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) })
    try {
      const ctx = createSqlContext(db, sqliteEngine, undefined)
      await sql`CREATE TABLE goals (tenant_id TEXT, id TEXT, doc TEXT)`.execute(db)
      const insert = ctx.compiled(
        3,
        ([tenant, id, doc]) => sql`INSERT INTO ${ctx.table('goals')} VALUES (${tenant}, ${id}, ${doc})`,
      )
      await insert.rows(['t1', 'g1', '{"a":1}'])
      await insert.rows(['t2', 'g1', '{"b":2}'])
      const read = ctx.compiled(
        2,
        ([tenant, id]) =>
          sql`SELECT doc, ${sql.lit('x')} AS x FROM ${ctx.table('goals')} WHERE ${ofTenant(tenant)} AND id = ${id}
              AND id IN (${id}, ${sql.lit('none')})`,
      )
      expect(await read.rows(['t2', 'g1'])).toEqual([{ doc: '{"b":2}', x: 'x' }])
      expect(await read.rows(['t3', 'g1'])).toEqual([])
    } finally {
      await db.destroy()
    }
  })

  it('binds strings as its engine does: without U+0000 on Postgres', async () => {
    const { db, sent } = recordingPostgres()
    const ctx = createSqlContext(db, postgresEngine, 'a?b')
    const update = ctx.compiled(2, ([doc, id]) => sql`UPDATE ${ctx.table('goals')} SET doc = ${doc} WHERE id = ${id}`)
    await update.rows(['{"a":"x\u0000y"}', 7])
    expect(sent.map(({ sql: text, parameters }) => ({ text, parameters }))).toEqual([
      { text: 'UPDATE "a?b"."goals" SET doc = $1 WHERE id = $2', parameters: ['{"a":"xy"}', 7] },
    ])
  })

  it('is a template of one node per value inside a larger statement, its placeholders renumbered', () => {
    const ctx = createSqlContext(postgres, postgresEngine, undefined)
    const update = ctx.compiled(2, ([doc, id]) => sql`UPDATE ${ctx.table('goals')} SET doc = ${doc} WHERE id = ${id}`)
    expect(sql`WITH u AS (${update.sql(['{}', 'g1'])}) SELECT ${1}`.compile(postgres)).toMatchObject({
      sql: 'WITH u AS (UPDATE "goals" SET doc = $1 WHERE id = $2) SELECT $3',
      parameters: ['{}', 'g1', 1],
    })
  })

  it('refuses the wrong number of values, a value that is no parameter, and a parameter left out', async () => {
    const ctx = createSqlContext(sqlite, sqliteEngine, undefined)
    const read = ctx.compiled(2, ([tenant, id]) => sql`SELECT doc FROM goals WHERE ${ofTenant(tenant)} AND id = ${id}`)
    await expect(read.rows(['t1'])).rejects.toThrow('2 values expected, 1 given')
    expect(() => read.sql(['t1', 'g1', 'extra'])).toThrow('2 values expected, 3 given')
    const constant = ctx.compiled(1, ([id]) => sql`SELECT doc FROM goals WHERE id = ${id} AND version = ${3}`)
    expect(() => constant.sql(['g1'])).toThrow('Every value of a compiled statement is a parameter')
    const unused = ctx.compiled(2, ([id]) => sql`SELECT doc FROM goals WHERE id = ${id}`)
    expect(() => unused.sql(['g1', 'g2'])).toThrow('Each of 2 parameters must be used')
  })
})
