// The package's CommonJS build, required by a CommonJS host: the SQLite store finds Kysely's Migrator
// (src/stores/sql/migrations/kysely-migrator.ts) and answers.
import { execFileSync } from 'node:child_process'
import { expect, it } from 'vitest'

it('require() of the CommonJS build: the SQLite store migrates and serves a page', () => {
  const output = execFileSync(process.execPath, ['cjs-sqlite.cjs'], { encoding: 'utf8', timeout: 60_000 })
  expect(JSON.parse(output.trim())).toEqual({ status: 200, tickets: 3 })
})
