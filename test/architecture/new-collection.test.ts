/**
 * The cost of a new read-only collection, proved the cheapest honest way (issue 31, item 6): a scratch
 * copy of src/ gets a throwaway collection, `assets` (new-collection-files.ts: its definition and entry in
 * COLLECTIONS, its operations and registry entries, its migration and its index entry, its kit fixture
 * and its entry in FIXTURES, its (empty) entry in the demo tenant; its reads' samples derive), then
 * type-checks and runs the exported conformance suite's generic checks on the memory and SQLite stores.
 * The files the collection had to name are counted: a change that derives one more of them from the
 * definition lowers the count here (ARCHITECTURE.md, "How to add a resource").
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assetChanges } from './new-collection-files.js'
import { root } from './sources.js'

/**
 * The files a new read-only collection names today, written by hand (lower it when a change derives one
 * of them): src/model/assets.ts and model/index.ts (COLLECTIONS), src/operations/assets.ts and
 * operations/index.ts (the registry), its migration and migrations/index.ts, the kit's fixture-assets.ts
 * and fixtures.ts (FIXTURES), and src/demo/demo-data.ts. src/client/routes.ts names its operations too,
 * generated (`npm run reference`).
 */
const FILES_NAMING_IT = 9

/**
 * The conformance checks that reach every collection generically, by the names of their groups and
 * tests, and the registry's checks of the new operations.
 */
const GENERIC_CHECKS = [
  'store: gets and computed fields',
  // Its list's sorts and filters, derived from its list surface (list-sorts.ts, list-filters.ts).
  'store: lists',
  'store: tenant isolation',
  'host removals',
  'records a seed’s new records as created',
  '\\((listAssets|getAsset)\\)',
].join('|')

/** What the copy type-checks: the package's main, testing and SQLite entries, and the suite's file. */
const ENTRIES = [
  'src/index.ts',
  'src/client/index.ts',
  'src/testing/index.ts',
  'src/testing/conformance/index.ts',
  'src/stores/sqlite/index.ts',
  'conformance.test.ts',
]

const scratch = mkdtempSync(join(tmpdir(), 'new-collection-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The number of the next migration, after the highest under src/stores/sql/migrations. */
function nextMigration(): string {
  const numbers = readdirSync(join(root, 'src/stores/sql/migrations')).flatMap((name) => {
    const number = /^(\d{4})-/.exec(name)?.[1]
    return number === undefined ? [] : [Number(number)]
  })
  return String(Math.max(...numbers) + 1).padStart(4, '0')
}

/** Runs `args` with this Node.js in the scratch copy: its exit code and output. */
function run(args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: scratch, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, output }))
  })
}

/** Fails the test with the output of `what` unless it exited 0. */
function expectSuccess(what: string, result: { status: number | null; output: string }): void {
  expect(result.status, `${what} failed:\n${result.output.slice(-6000)}`).toBe(0)
}

const changes = assetChanges(nextMigration())

/** Writes the scratch copy: src/ and what it needs, the suite's file, and the new collection's changes. */
function writeScratch(): void {
  cpSync(join(root, 'src'), join(scratch, 'src'), { recursive: true })
  // The testing kit bundles the Node bridge's lightweight Response (ARCHITECTURE.md, "A request, end to end").
  cpSync(join(root, 'adapters'), join(scratch, 'adapters'), { recursive: true })
  cpSync(join(root, 'package.json'), join(scratch, 'package.json'))
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir')
  cpSync(join(root, 'scripts/generate-client-routes.ts'), join(scratch, 'scripts/generate-client-routes.ts'))
  // The package's entries and the suite's file: what a host, a store author and the kit compile.
  const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'))
  writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ENTRIES }))
  writeFileSync(join(scratch, 'vitest.config.ts'), "export default { test: { include: ['conformance.test.ts'] } }\n")
  writeFileSync(
    join(scratch, 'conformance.test.ts'),
    [
      "import { createMemoryStore } from './src/stores/memory/memory-store.js'",
      "import { createSqliteStore } from './src/stores/sqlite/index.js'",
      "import { runStoreConformance } from './src/testing/conformance/index.js'",
      "runStoreConformance({ name: 'memory', createStore: () => createMemoryStore() })",
      "runStoreConformance({ name: 'sqlite', createStore: () => createSqliteStore({ filename: ':memory:' }) })",
      '',
    ].join('\n'),
  )
  for (const { path, write } of changes) {
    const file = join(scratch, path)
    if (typeof write === 'string') {
      expect(() => readFileSync(file), `${path} is new`).toThrow()
      writeFileSync(file, write)
    } else {
      const before = readFileSync(file, 'utf8')
      // An anchor gone (the file changed on main): the message names the file to update in new-collection-files.ts.
      let after: string
      try {
        after = write(before)
      } catch (error) {
        throw new Error(`the edit of ${path} no longer applies: ${(error as Error).message}`)
      }
      expect(after, `the edit of ${path} changes it`).not.toBe(before)
      writeFileSync(file, after)
    }
  }
}

describe('a new read-only collection in a scratch copy', () => {
  // The type-check and the suite run side by side: neither needs the other.
  let typeCheck: ReturnType<typeof run>
  let suite: ReturnType<typeof run>
  beforeAll(async () => {
    writeScratch()
    const generated = await run([join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/generate-client-routes.ts'])
    expectSuccess('the client routes generator', generated)
    typeCheck = run([join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'])
    const vitest = join(root, 'node_modules/vitest/vitest.mjs')
    suite = run([
      vitest,
      'run',
      '-t',
      GENERIC_CHECKS,
      '--reporter=json',
      `--outputFile=${join(scratch, 'report.json')}`,
    ])
    await Promise.all([typeCheck, suite])
  }, 150_000)

  it('type-checks, the generated client routes regenerated', async () => {
    expect(readFileSync(join(scratch, 'src/client/routes.ts'), 'utf8')).toContain('getAsset')
    expectSuccess('tsc', await typeCheck)
  })

  it('passes the generic conformance checks on the memory and SQLite stores, assets among them', async () => {
    expectSuccess('vitest', await suite)
    const report = JSON.parse(readFileSync(join(scratch, 'report.json'), 'utf8'))
    const results: { fullName: string; status: string }[] = report.testResults.flatMap(
      (file: { assertionResults: unknown[] }) => file.assertionResults,
    )
    const ran = results.filter((test) => test.status !== 'skipped' && test.status !== 'pending')
    expect(ran.filter((test) => test.status !== 'passed')).toEqual([])
    for (const store of ['memory', 'sqlite']) {
      const names = ran.filter((test) => test.fullName.startsWith(`${store} `)).map((test) => test.fullName)
      expect(
        names.filter((name) => /removes assets by id/.test(name)),
        store,
      ).toHaveLength(1)
      expect(names.filter((name) => /\((listAssets|getAsset)\)/.test(name)).length, store).toBeGreaterThan(1)
      // Its list's default order, both sorts both ways and its filter, from its list surface alone.
      expect(names.filter((name) => /store: lists listAssets/.test(name)).length, store).toBeGreaterThan(3)
    }
  })

  it(`names the collection in ${FILES_NAMING_IT} files`, () => {
    const named = changes.map(({ path }) => path)
    for (const path of named) expect(readFileSync(join(scratch, path), 'utf8'), path).toMatch(/assets|Asset/)
    expect(new Set(named.map((path) => dirname(path))).size).toBeGreaterThan(1)
    expect(named).toHaveLength(FILES_NAMING_IT)
  })
})
