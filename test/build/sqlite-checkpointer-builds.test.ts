/**
 * The SQLite store's background checkpointer starts from both builds: the worker resolves the driver
 * from the store's own module (`import.meta.url`, shimmed in the CJS build), under plain Node as an
 * installed app runs it. dist/ is built by test/global-setup.ts.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'tpa-checkpointer-builds-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A script that opens a store on a new file and prints whether the file caught up with the log by itself. */
const script = (load: string, file: string) => `
const { statSync } = require('node:fs')
;(async () => {
  const { createSqliteStore } = ${load}
  const store = await createSqliteStore({ filename: ${JSON.stringify(file)} })
  const deadline = Date.now() + 10_000
  const size = () => statSync(${JSON.stringify(file)}).size
  while (size() <= 4096 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  console.log(JSON.stringify({ caughtUp: size() > 4096 }))
  await store.close()
})()
`

describe('the background checkpointer from the built package', () => {
  for (const [format, load] of [
    ['CJS', "require('tenant-public-api/sqlite')"],
    ['ESM', "await import('tenant-public-api/sqlite')"],
  ] as const) {
    it(`runs from the ${format} build`, () => {
      const out = execFileSync(process.execPath, ['-e', script(load, join(dir, `${format}.db`))], {
        cwd: root,
        encoding: 'utf8',
        timeout: 30_000,
      })
      expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ caughtUp: true })
    })
  }
})
