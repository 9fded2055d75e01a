import { runStoreConformance } from 'tenant-public-api/conformance'
import { assertMatchesContract } from '../support/contract.js'
import { createTestPostgresStore, postgresServerAnswers } from '../support/postgres.js'

// The server at DATABASE_URL (default 127.0.0.1:5432) in a fresh schema; embedded PGlite when none answers.
const engine = (await postgresServerAnswers()) ? 'server' : 'pglite'
console.info(`postgres conformance runs on: ${engine}`)

runStoreConformance({
  name: `postgres (${engine})`,
  createStore: async () => (await createTestPostgresStore({ force: engine })).store,
  createStoreWithRetention: async (eventRetentionMs) =>
    (await createTestPostgresStore({ force: engine, eventRetentionMs })).store,
  onResponse: assertMatchesContract,
})
