// A store written outside the package, against its public names only (examples/map-store/map-store.ts,
// shown in docs/stores.md), passes the exported conformance suite: a third-party store is the
// methods of the Store port.
import { runStoreConformance } from 'tenant-public-api/conformance'
import { createMapStore } from '../../examples/map-store/map-store.js'
import { assertMatchesContract } from '../support/contract.js'

runStoreConformance({
  name: 'third-party (map store)',
  createStore: () => createMapStore(),
  createStoreWithRetention: (eventRetentionMs) => createMapStore({ eventRetentionMs }),
  onResponse: assertMatchesContract,
})
