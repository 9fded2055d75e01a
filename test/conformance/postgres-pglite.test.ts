import { runStoreConformance } from 'tenant-public-api/conformance'
import { assertMatchesContract } from '../support/contract.js'
import { createPgliteStore } from '../support/postgres.js'

// The fallback path, forced: proves the suite passes on embedded PGlite too (no server needed).
runStoreConformance({
  name: 'postgres (pglite, forced)',
  createStore: () => createPgliteStore(),
  createStoreWithRetention: (eventRetentionMs) => createPgliteStore({ eventRetentionMs }),
  onResponse: assertMatchesContract,
})
