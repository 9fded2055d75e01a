/**
 * `template` (statements written once as SQL text): it compiles to its text with each engine's
 * placeholders and its values in order, keeps a `?` of a name as it is, and refuses a call with the
 * wrong number of values.
 */
import {
  type DatabaseIntrospector,
  type DialectAdapter,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely'
import { describe, expect, it } from 'vitest'
import { PARAM, template } from '../../src/stores/sql/context.js'

/** A Kysely that only compiles, with an engine's adapter, introspector and query compiler. */
function compileOnly(
  Adapter: new () => DialectAdapter,
  Introspector: new (db: Kysely<unknown>) => DatabaseIntrospector,
  Compiler: new () => QueryCompiler,
): Kysely<unknown> {
  return new Kysely<unknown>({
    dialect: {
      createAdapter: () => new Adapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new Introspector(db),
      createQueryCompiler: () => new Compiler(),
    },
  })
}
const sqlite = compileOnly(SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler)
const postgres = compileOnly(PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler)

describe('template', () => {
  // A schema name may hold a `?`: it stays a character of the name, not a parameter.
  const update = template(
    `UPDATE "a?b"."rules" SET "name" = ${PARAM}, "doc" = ${PARAM} ` +
      `WHERE tenant_id = ${PARAM} AND id = ${PARAM} RETURNING id`,
  )

  it('compiles to its text with the engine placeholders, values in order', () => {
    expect(update('Name', '{}', 't', 'r').compile(sqlite)).toMatchObject({
      sql: 'UPDATE "a?b"."rules" SET "name" = ?, "doc" = ? WHERE tenant_id = ? AND id = ? RETURNING id',
      parameters: ['Name', '{}', 't', 'r'],
    })
    expect(update('Name', '{}', 't', 'r').compile(postgres)).toMatchObject({
      sql: 'UPDATE "a?b"."rules" SET "name" = $1, "doc" = $2 WHERE tenant_id = $3 AND id = $4 RETURNING id',
      parameters: ['Name', '{}', 't', 'r'],
    })
  })

  it('refuses the wrong number of values', () => {
    expect(() => update('Name', '{}', 't')).toThrow('4 values expected')
    expect(() => update('Name', '{}', 't', 'r', 'extra')).toThrow('4 values expected')
  })
})
