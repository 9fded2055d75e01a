import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
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
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // One test file per core (vitest's default leaves one core to itself: a single worker on two
    // cores). Most slow files wait on Postgres, child processes or timers rather than compute.
    maxWorkers: availableParallelism(),
    reporters: process.env.CI ? ['default'] : ['default'],
  },
})
