/**
 * A child process for the large-seed test, run with a small V8 stack (`--stack-size`): measures the
 * most arguments a spread call takes here, then seeds `tickets` demo tickets and their companies into
 * a new store of `store` and reads the newest event's position. Prints
 * `{ argumentLimit, lastPosition, records }` as its last line.
 * Run with `node --stack-size=128 --import tsx test/stores/large-seed-worker.ts <json-args>`.
 */
import { createDemoData } from '../../src/demo/demo-data.js'
import type { Store } from '../../src/ports/store.js'
import { createMemoryStore } from '../../src/stores/memory/memory-store.js'
import { createSqliteStore } from '../../src/stores/sqlite/index.js'

interface Args {
  store: 'memory' | 'sqlite'
  tickets: number
}

/** The most arguments `[].push(...values)` takes on this process's stack (a binary search). */
function argumentLimit(): number {
  let fits = 0
  let overflows = 10_000_000
  while (overflows - fits > 100) {
    const n = Math.floor((fits + overflows) / 2)
    try {
      ;[].push(...(new Array(n).fill(0) as never[]))
      fits = n
    } catch {
      overflows = n
    }
  }
  return fits
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args
const limit = argumentLimit()
const data = createDemoData({ tickets: args.tickets })
const seed = { companies: data.companies, tickets: data.tickets }
const store: Store & { close?: () => Promise<void> } =
  args.store === 'memory' ? createMemoryStore() : await createSqliteStore({ filename: ':memory:' })
await store.seed('big', seed)
const page = await store.listEvents('big', { after: null, order: 'desc', types: null, limit: 1 })
await store.close?.()
const lastPosition = page.state === 'ok' ? page.lastPosition : null
console.log(JSON.stringify({ argumentLimit: limit, lastPosition, records: seed.companies.length + args.tickets }))
