import { createMemoryStore } from 'tenant-public-api'
import { runHttpConformance, runStoreConformance } from 'tenant-public-api/conformance'
import { expect, it, type RunnerTestCase, type RunnerTestSuite } from 'vitest'
import { assertMatchesContract } from '../support/contract.js'

// The memory store costs nothing to create, so its two groups run apart: the same checks as one
// run, and proof that `groups` registers exactly the groups asked for.
const createStore = () => createMemoryStore()
runStoreConformance({ name: 'memory: store group', createStore, groups: { http: false } })
runStoreConformance({
  name: 'memory: http group',
  createStore,
  createStoreWithRetention: (eventRetentionMs) => createMemoryStore({ eventRetentionMs }),
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

/** Every test under `suite`, at any depth. */
function testsUnder(suite: RunnerTestSuite): RunnerTestCase[] {
  return suite.tasks.flatMap((task) => (task.type === 'suite' ? testsUnder(task) : task.type === 'test' ? [task] : []))
}

/** The top-level suite of this file named `name`. */
function suiteNamed(task: RunnerTestCase, name: string): RunnerTestSuite {
  const suite = task.file.tasks.find((child) => child.name === name)
  expect(suite?.type, name).toBe('suite')
  return suite as RunnerTestSuite
}

it('runStoreConformance registers only the groups asked for', ({ task }) => {
  const storeOnly = describeNames(suiteNamed(task, 'memory: store group'))
  const httpOnly = describeNames(suiteNamed(task, 'memory: http group'))
  expect(storeOnly).toContain('store: lists')
  expect(storeOnly).toContain('store: idempotency reservations')
  expect(storeOnly).not.toContain('every operation of the registry')
  expect(storeOnly).not.toContain('budgets and line items')
  expect(httpOnly).toContain('every operation of the registry')
  expect(httpOnly).toContain('budgets and line items')
  expect(httpOnly.some((name) => name.startsWith('store:'))).toBe(false)
})

// The retention test once went unregistered on every store: the events group never saw the option.
it('runStoreConformance hands createStoreWithRetention to the events group, whose retention test runs', ({ task }) => {
  const retention = testsUnder(suiteNamed(task, 'memory: http group')).find((test) =>
    test.name.startsWith('prunes events past the retention'),
  )
  expect(retention, 'the retention test is registered').toBeDefined()
  // Skipped for want of the option, it carries a note (set by the runner, untyped); filtered out by -t, none.
  const note = (retention?.result as { note?: string } | undefined)?.note
  expect(note, 'the retention test is not skipped').toBeUndefined()
})
