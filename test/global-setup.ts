/**
 * Once before any test file: build the package's ESM and CJS entries into dist/ (no type
 * declarations: seconds, not a minute). The Next.js, Bun and Deno examples run the built ESM, the
 * build test mixes the two formats, and building once here keeps parallel test files from writing
 * dist/ at the same time.
 *
 * Then the run's Postgres server (test/support/postgres-server.ts): DATABASE_URL, else the local
 * server at 127.0.0.1:5432, else an embedded one started here and stopped after the run. The
 * choice is printed and handed to the test files as `inject('postgres')`.
 */
import { build } from 'tsup'
import type { TestProject } from 'vitest/node'
import { startTestPostgres } from './support/postgres-server.js'

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [{ postgres, stop }] = await Promise.all([
    startTestPostgres(),
    build({
      config: 'tsup.config.ts',
      format: ['esm', 'cjs'],
      dts: false,
      sourcemap: false,
      clean: false,
      silent: true,
    }),
  ])
  project.provide('postgres', postgres)
  if (postgres.failure === null) console.info(`Postgres for the tests: ${postgres.description}`)
  else console.error(`Postgres for the tests: ${postgres.description}\n  ${postgres.failure}`)
  return stop
}
