/**
 * Once before any test file: build the package's ESM and CJS entries into dist/ (no type
 * declarations: seconds, not a minute), unless dist/ already holds that build of the same inputs
 * (dist/.test-build keeps their key, test/support/packed-package.ts). The Next.js, Bun and Deno
 * examples run the built ESM, the build test mixes the two formats, and building once here keeps
 * parallel test files from writing dist/ at the same time.
 *
 * Then the run's Postgres server (test/support/postgres-server.ts): DATABASE_URL, else the local
 * server at 127.0.0.1:5432, else an embedded one started here and stopped after the run. The
 * choice is printed and handed to the test files as `inject('postgres')`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { build } from 'tsup'
import type { TestProject } from 'vitest/node'
import { buildInputsHash } from './support/packed-package.js'
import { startTestPostgres } from './support/postgres-server.js'

/** dist/'s quick build (ESM and CJS, no declarations nor sourcemaps), when its inputs changed since the last. */
async function buildDist(): Promise<void> {
  const marker = 'dist/.test-build'
  const key = buildInputsHash()
  if (existsSync(marker) && readFileSync(marker, 'utf8') === key) return
  await build({
    config: 'tsup.config.ts',
    format: ['esm', 'cjs'],
    dts: false,
    sourcemap: false,
    clean: false,
    silent: true,
  })
  writeFileSync(marker, key)
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [{ postgres, stop }] = await Promise.all([startTestPostgres(), buildDist()])
  project.provide('postgres', postgres)
  if (postgres.failure === null) console.info(`Postgres for the tests: ${postgres.description}`)
  else console.error(`Postgres for the tests: ${postgres.description}\n  ${postgres.failure}`)
  return stop
}
