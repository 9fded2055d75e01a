/**
 * The Postgres store's prepared statements (docs/stores.md#prepared-statements-on-postgres): a write's
 * chained statement is prepared on its connection from its second run, under one name per text; reads
 * never are; `preparedStatements: false` prepares nothing; a connection prepares at most 64 statements.
 */
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createPostgresStore, type SqlStore } from 'tenant-public-api/postgres'
import { createDemoData } from 'tenant-public-api/testing'
import { PREPARE } from '../../src/stores/sql/postgres-engine.js'
import { DATABASE_URL, dropSchemas, freshSchema, NO_SERVER, postgresServerAnswers } from '../support/postgres.js'
import { automationRules } from '../../src/model/automation-rules.js'
import { listRequest } from '../../src/model/list-request.js'
import { tickets } from '../../src/model/tickets.js'

const TENANT = 'tenant-prepared'
const server = await postgresServerAnswers()
const schemas: string[] = []
const closing: Array<() => Promise<void>> = []

afterAll(async () => {
  for (const close of closing) await close()
  if (server) await dropSchemas(schemas)
})

/** A store on a pool of one connection, and the statements that connection has prepared. */
async function oneConnectionStore(preparedStatements?: boolean) {
  expect(server, NO_SERVER).toBe(true)
  const schema = freshSchema('prepared')
  schemas.push(schema)
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 })
  const store = await createPostgresStore(
    preparedStatements === undefined ? { pool, schema } : { pool, schema, preparedStatements },
  )
  closing.push(() => store.close())
  const demo = createDemoData({ tickets: 3 })
  await store.seed(TENANT, demo as never)
  // The pool's one connection is the store's: this view lists what that session has prepared.
  const prepared = async () =>
    (await pool.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements')).rows
  return { store, demo, prepared }
}

/** `count` updates of the demo's first rule, each after its read; the last version. */
async function updateRule(store: SqlStore, id: string, count: number): Promise<number> {
  let version = 0
  for (let i = 0; i < count; i++) {
    const read = (await store.get(automationRules, TENANT, id))!
    version = read.version + 1
    expect(
      await store.replaceVersioned(automationRules, TENANT, { ...read, priority: (i % 90) + 1, version }, read.version),
    ).toBe(true)
  }
  return version
}

describe('prepared statements on Postgres', () => {
  it('prepares a write statement at its second run, once, and never a read', async () => {
    const { store, demo, prepared } = await oneConnectionStore()
    const rule = demo.automationRules.find((r) => r.companyIds.length === 0)!
    await updateRule(store, rule.id, 1)
    expect(await prepared()).toEqual([])
    await updateRule(store, rule.id, 4)
    const statements = await prepared()
    expect(statements).toHaveLength(1)
    expect(statements[0]!.name).toBe('tenant_public_api_1')
    expect(statements[0]!.statement.startsWith(`${PREPARE}WITH`)).toBe(true)
    // Reads, however often, are planned for their own parameters.
    const query = { page: 1, limit: 2, sortColumn: 'created_date', sortDesc: true }
    for (let i = 0; i < 3; i++) await store.list(tickets, TENANT, listRequest(tickets, query))
    expect(await prepared()).toHaveLength(1)
    // The prepared statement did the writes: every update is there, with its event, positions gap-free.
    const read = await store.get(automationRules, TENANT, rule.id)
    expect(read?.version).toBe(rule.version + 5)
    const page = await store.listEvents(TENANT, {
      after: null,
      order: 'desc',
      types: ['automation_rule.updated'],
      limit: 10,
    })
    const versions = page.state === 'ok' ? page.events.map((event) => event.data.object?.version) : []
    expect(versions).toEqual([5, 4, 3, 2, 1].map((n) => rule.version + n))
  })

  it('prepares nothing when told not to', async () => {
    const { store, demo, prepared } = await oneConnectionStore(false)
    await updateRule(store, demo.automationRules[0]!.id, 5)
    expect(await prepared()).toEqual([])
  })

  it('prepares at most 64 statements on a connection, then runs the rest unnamed', async () => {
    const { store, demo, prepared } = await oneConnectionStore()
    // A seed records its events in one chained statement whose text depends on how many it records:
    // 70 sizes, each seeded twice, are 70 texts run twice.
    const company = demo.companies[0]!
    for (let size = 1; size <= 70; size++)
      for (const round of [1, 2]) {
        const companies = Array.from({ length: size }, (_, i) => ({
          ...company,
          id: `c-${size}-${i}`,
          name: `${round}`,
        }))
        await store.seed(TENANT, { companies })
      }
    const statements = await prepared()
    expect(statements).toHaveLength(64)
    expect(new Set(statements.map((s) => s.name)).size).toBe(64)
    // Past the limit, writes still go through.
    await updateRule(store, demo.automationRules[0]!.id, 3)
    expect(await prepared()).toHaveLength(64)
  })
})
