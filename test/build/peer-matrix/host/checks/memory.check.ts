// The exported conformance suite on the memory store, as docs/stores.md shows a host running it.
import { createMemoryStore } from 'tenant-public-api'
import { runStoreConformance } from 'tenant-public-api/conformance'

runStoreConformance({
  name: 'memory',
  createStore: () => createMemoryStore(),
  createStoreWithRetention: (eventRetentionMs) => createMemoryStore({ eventRetentionMs }),
})
