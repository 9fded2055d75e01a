import { availableParallelism } from 'node:os'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/**
 * The files that run longest, longest first. Without timings of its own (a fresh clone, CI), vitest
 * starts the largest files first, and these are small: a full store conformance run in ten lines
 * would start last and leave the other cores idle while it runs. An entry out of date costs only order.
 */
const LONGEST_FIRST = [
  'test/stores/large-events.test.ts',
  'test/conformance/postgres-pglite.test.ts',
  'test/adapters/next.test.ts',
  'test/examples/standalone.test.ts',
  'test/conformance/postgres.test.ts',
  'test/build/package-lint.test.ts',
  'test/stores/large-seed.test.ts',
  'test/stores/dead-connections.test.ts',
  'test/build/declarations.test.ts',
  'test/stores/migrations.test.ts',
  'test/examples/node-server.test.ts',
]

/** Vitest's order (by its own timings of the last run, else by size), with {@link LONGEST_FIRST} ahead of it. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(relative(here('.'), file.moduleId))
      return at === -1 ? LONGEST_FIRST.length : at
    }
    return (await super.sort(files))
      .map((file, order) => ({ file, order, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ file }) => file)
  }
}

/**
 * The peer matrix packs the package and installs host apps from the npm registry at both ends of every
 * peer range, on three Node.js lines: minutes of installs and runs that say nothing new of a change to
 * the sources. It runs on its own, `npm run test:peers` (vitest's mode `peers`), which CI runs after
 * `npm test` (CONTRIBUTING.md).
 */
const PEER_MATRIX = 'test/build/peer-matrix.test.ts'

export default defineConfig(({ mode }) => ({
  resolve: {
    // Tests import the package by its public names, resolved to the sources.
    alias: [
      { find: /^tenant-public-api\/(sqlite|postgres|redis)$/, replacement: here('./src/stores/$1/index.ts') },
      { find: /^tenant-public-api\/(node|express|next|bun|deno)$/, replacement: here('./adapters/$1.ts') },
      { find: /^tenant-public-api\/conformance$/, replacement: here('./src/testing/conformance/index.ts') },
      { find: /^tenant-public-api\/(client|testing|webhooks)$/, replacement: here('./src/$1/index.ts') },
      { find: /^tenant-public-api$/, replacement: here('./src/index.ts') },
    ],
  },
  test: {
    include: mode === 'peers' ? [PEER_MATRIX] : ['test/**/*.test.ts'],
    exclude: mode === 'peers' ? [] : [...configDefaults.exclude, PEER_MATRIX],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // One test file per core (vitest's default leaves one core to itself: a single worker on two
    // cores). Most slow files wait on Postgres, child processes or timers rather than compute.
    maxWorkers: availableParallelism(),
    sequence: { sequencer: LongestFirst },
    reporters: process.env.CI ? ['default'] : ['default'],
  },
}))
