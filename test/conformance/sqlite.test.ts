import { createSqliteStore } from 'tenant-public-api/sqlite'
import { runStoreConformance } from 'tenant-public-api/conformance'
import { assertMatchesContract } from '../support/contract.js'

// A private in-memory database per run: the same schema, indexes, FTS and transactions as a file.
runStoreConformance({
  name: 'sqlite',
  createStore: () => createSqliteStore({ filename: ':memory:' }),
  createStoreWithRetention: (eventRetentionMs) => createSqliteStore({ filename: ':memory:' }, { eventRetentionMs }),
  onResponse: assertMatchesContract,
})
