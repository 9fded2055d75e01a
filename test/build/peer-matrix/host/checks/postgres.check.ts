// The exported conformance suite on the Postgres store, over the installed Kysely and pg: each store
// in a fresh schema of the run's database, dropped after the file.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll } from 'vitest'
import { runStoreConformance } from 'tenant-public-api/conformance'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { required } from './env.js'

const DATABASE_URL = required('DATABASE_URL')
const schemas: string[] = []

function postgresStore(retention: { eventRetentionMs?: number } = {}) {
  const schema = `peer_matrix_${randomUUID().replaceAll('-', '')}`
  schemas.push(schema)
  return createPostgresStore({ connectionString: DATABASE_URL, schema, max: 4 }, retention)
}

afterAll(async () => {
  const client = new pg.Client({ connectionString: DATABASE_URL })
  await client.connect()
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  } finally {
    await client.end()
  }
})

runStoreConformance({
  name: 'postgres',
  createStore: () => postgresStore(),
  createStoreWithRetention: (eventRetentionMs) => postgresStore({ eventRetentionMs }),
})
