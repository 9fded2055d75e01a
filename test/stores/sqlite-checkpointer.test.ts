/**
 * The background checkpointer (src/stores/sqlite/checkpointer.ts): a worker thread copies the log
 * into the database file, so that writes do not wait for the disk; it never keeps a process alive
 * and stops with the last store that uses it.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { backgroundCheckpointerRunning, CHECKPOINT_EVERY_MS } from '../../src/stores/sqlite/checkpointer.js'

const dir = mkdtempSync(join(tmpdir(), 'tpa-checkpointer-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const tickets = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    ticketNumber: `T-${i}`,
    title: `Ticket ${i}`,
    status: 'Open',
    priority: 'Low',
    isClosed: false,
    provider: 'psa_a' as const,
    createdAt: '2024-01-01T00:00:00.000Z',
  }))

/** Polls until `done` holds; fails after `ms`. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('the background checkpointer', () => {
  it('copies the log into the database file with no write checkpointing', async () => {
    const file = join(dir, 'background.db')
    const store = await createSqliteStore({ filename: file })
    try {
      await until(() => statSync(file).size > 4096, 20 * CHECKPOINT_EVERY_MS) // the migrations' pages
      const before = statSync(file).size
      // Far below the 16,000 pages at which a write would checkpoint on its own.
      await store.seed('tenant-checkpoints', { tickets: tickets(2_000, 'a') })
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(0)
      await until(() => statSync(file).size > before, 20 * CHECKPOINT_EVERY_MS)
    } finally {
      await store.close()
    }
    expect(existsSync(`${file}-wal`)).toBe(false) // the last connection closed checkpoints and removes the log
  })

  it('is not started for an in-memory database, and stops with the last store of a file', async () => {
    const memory = await createSqliteStore({ filename: ':memory:' })
    expect(backgroundCheckpointerRunning()).toBe(false)
    const file = join(dir, 'shared.db')
    const first = await createSqliteStore({ filename: file })
    const second = await createSqliteStore({ database: new Database(file) })
    expect(backgroundCheckpointerRunning()).toBe(true)
    await first.close()
    expect(backgroundCheckpointerRunning()).toBe(true)
    await second.seed('tenant-shared', { tickets: tickets(500, 'b') })
    const before = statSync(file).size
    await until(() => statSync(file).size > before, 20 * CHECKPOINT_EVERY_MS)
    await second.close()
    expect(backgroundCheckpointerRunning()).toBe(false)
    await memory.close()
  })

  it('never keeps a process alive: one that leaves its store open exits, and its data is there', () => {
    const file = join(dir, 'open.db')
    const script = join(dir, 'leave-open.mts')
    const store = fileURLToPath(new URL('../../src/stores/sqlite/index.ts', import.meta.url))
    writeFileSync(
      script,
      `import { createSqliteStore } from ${JSON.stringify(store)}\n` +
        `const s = await createSqliteStore({ filename: ${JSON.stringify(file)} })\n` +
        `await s.seed('t', { tickets: [{ id: 'x', ticketNumber: 'T-1', title: 'Left open', status: 'Open', ` +
        `priority: 'Low', isClosed: false, provider: 'psa_a', createdAt: '2024-01-01T00:00:00.000Z' }] })\n` +
        `console.log('written')\n`,
    )
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], { timeout: 20_000, encoding: 'utf8' })
    expect(out.trim()).toBe('written')
    const database = new Database(file, { readonly: true })
    try {
      expect(database.prepare('SELECT count(*) AS n FROM tickets').get()).toEqual({ n: 1 })
    } finally {
      database.close()
    }
  })
})
