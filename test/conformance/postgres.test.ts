import { runStoreConformance } from 'tenant-public-api/conformance'
import { assertMatchesContract } from '../support/contract.js'
import { createTestPostgresStore, POSTGRES_SERVER, postgresServerAnswers } from '../support/postgres.js'

// The run's server (DATABASE_URL, the local one or embedded Postgres; test/global-setup.ts) in a
// fresh schema per store; embedded PGlite only when none answers. Either way the engine is printed.
const engine = (await postgresServerAnswers()) ? 'server' : 'pglite'
console.info(`postgres conformance runs on: ${engine === 'server' ? POSTGRES_SERVER : 'PGlite (no server answers)'}`)

runStoreConformance({
  name: `postgres (${engine})`,
  createStore: async () => (await createTestPostgresStore({ force: engine })).store,
  createStoreWithRetention: async (eventRetentionMs) =>
    (await createTestPostgresStore({ force: engine, eventRetentionMs })).store,
  onResponse: assertMatchesContract,
})
