// The exported conformance suite on the SQLite store, over the installed Kysely and better-sqlite3.
import { runStoreConformance } from 'tenant-public-api/conformance'
import { createSqliteStore } from 'tenant-public-api/sqlite'

runStoreConformance({
  name: 'sqlite',
  createStore: () => createSqliteStore({ filename: ':memory:' }),
  createStoreWithRetention: (eventRetentionMs) => createSqliteStore({ filename: ':memory:' }, { eventRetentionMs }),
})
