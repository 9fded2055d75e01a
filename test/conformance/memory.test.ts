import { createMemoryStore } from 'tenant-public-api'
import { runHttpConformance, runStoreConformance } from 'tenant-public-api/conformance'
import { expect, it, type RunnerTestSuite } from 'vitest'
import { assertMatchesContract } from '../support/contract.js'

// The memory store costs nothing to create, so its two groups run apart: the same checks as one
// run, and proof that `groups` registers exactly the groups asked for.
const createStore = () => createMemoryStore()
runStoreConformance({ name: 'memory: store group', createStore, groups: { http: false } })
runStoreConformance({
  name: 'memory: http group',
  createStore,
  groups: { store: false },
  onResponse: assertMatchesContract,
})

// Authentication, scopes, schema-level validation and the HTTP list walks do not depend on the store:
// they run once per test run, here (a file of their own would cost a worker's start and imports).
runHttpConformance({ onResponse: assertMatchesContract })

/** The names of every describe block under `suite`, at any depth. */
function describeNames(suite: RunnerTestSuite): string[] {
  return suite.tasks.flatMap((task) => (task.type === 'suite' ? [task.name, ...describeNames(task)] : []))
}

it('runStoreConformance registers only the groups asked for', ({ task }) => {
  const names = (name: string) => {
    const suite = task.file.tasks.find((child) => child.name === name)
    expect(suite?.type, name).toBe('suite')
    return describeNames(suite as RunnerTestSuite)
  }
  const storeOnly = names('memory: store group')
  const httpOnly = names('memory: http group')
  expect(storeOnly).toContain('store: lists')
  expect(storeOnly).toContain('store: idempotency reservations')
  expect(storeOnly).not.toContain('every operation of the registry')
  expect(storeOnly).not.toContain('budgets and line items')
  expect(httpOnly).toContain('every operation of the registry')
  expect(httpOnly).toContain('budgets and line items')
  expect(httpOnly.some((name) => name.startsWith('store:'))).toBe(false)
})
runStoreConformance({
  name: 'memory',
  createStore: () => createMemoryStore(),
  createStoreWithRetention: (eventRetentionMs) => createMemoryStore({ eventRetentionMs }),
  onResponse: assertMatchesContract,
})
