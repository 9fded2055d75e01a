import { createMemoryStore } from 'tenant-public-api'
import { runStoreConformance } from 'tenant-public-api/conformance'
import { assertMatchesContract } from '../support/contract.js'

runStoreConformance({
  name: 'memory',
  createStore: () => createMemoryStore(),
  createStoreWithRetention: (eventRetentionMs) => createMemoryStore({ eventRetentionMs }),
  onResponse: assertMatchesContract,
})
