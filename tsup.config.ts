import { defineConfig } from 'tsup'

/**
 * One entry per subpath export; drivers and frameworks stay external (optional peers). The mounts
 * import the core as 'tenant-public-api', kept external too: dist/node.js loads dist/index.js (and
 * dist/node.cjs loads dist/index.cjs) through the package's own name, so an app and its mount share
 * one copy of the core instead of each bundle carrying its own.
 */
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    sqlite: 'src/stores/sqlite/index.ts',
    postgres: 'src/stores/postgres/index.ts',
    redis: 'src/stores/redis/index.ts',
    node: 'adapters/node.ts',
    express: 'adapters/express.ts',
    next: 'adapters/next.ts',
    bun: 'adapters/bun.ts',
    deno: 'adapters/deno.ts',
    client: 'src/client/index.ts',
    testing: 'src/testing/index.ts',
    conformance: 'src/testing/conformance/index.ts',
    webhooks: 'src/webhooks/index.ts',
    // The `tenant-public-api` bin (package.json `bin`): esbuild keeps its `#!/usr/bin/env node` line and
    // tsup makes the file executable. It imports the package by name, as the mounts do.
    cli: 'src/cli/main.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  // No source maps ship: the built JavaScript is not minified and keeps its names, so a stack trace
  // into dist/ reads as it is, at a file that ships. Maps (with their sources, esbuild's default)
  // would more than double the package, for traces that only Node's --enable-source-maps or a
  // debugger applies, and then name src/ files a user does not have on disk.
  sourcemap: false,
  // Classes and functions keep their names (`ApiResponseError`, not esbuild's `_ApiResponseError`):
  // an error's `constructor.name` and a stack trace say what the source says.
  keepNames: true,
  target: 'es2022',
  splitting: true,
  treeshake: true,
  // import.meta.url in the CJS build (the SQLite checkpointer resolves its driver from where the store is)
  shims: true,
  external: [
    'tenant-public-api',
    'vitest',
    'better-sqlite3',
    'pg',
    'kysely',
    'express',
    'next',
    'rate-limiter-flexible',
    '@opentelemetry/api',
  ],
})
