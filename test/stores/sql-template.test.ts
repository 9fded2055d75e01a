/**
 * `template` (statements written once as SQL text): it compiles to its text with each engine's
 * placeholders and its values in order, and refuses a call with the wrong number of values.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely'
import { describe, expect, it } from 'vitest'
import { template } from '../../src/stores/sql/context.js'

const sqlite = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
})
const postgres = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})

describe('template', () => {
  const update = template('UPDATE "rules" SET "name" = ?, "doc" = ? WHERE tenant_id = ? AND id = ? RETURNING id')

  it('compiles to its text with the engine placeholders, values in order', () => {
    expect(update('Name', '{}', 't', 'r').compile(sqlite)).toMatchObject({
      sql: 'UPDATE "rules" SET "name" = ?, "doc" = ? WHERE tenant_id = ? AND id = ? RETURNING id',
      parameters: ['Name', '{}', 't', 'r'],
    })
    expect(update('Name', '{}', 't', 'r').compile(postgres)).toMatchObject({
      sql: 'UPDATE "rules" SET "name" = $1, "doc" = $2 WHERE tenant_id = $3 AND id = $4 RETURNING id',
      parameters: ['Name', '{}', 't', 'r'],
    })
  })

  it('refuses the wrong number of values', () => {
    expect(() => update('Name', '{}', 't')).toThrow('4 values expected')
    expect(() => update('Name', '{}', 't', 'r', 'extra')).toThrow('4 values expected')
  })
})
