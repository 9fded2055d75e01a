/**
 * A new SQLite database gets 4 KiB pages (a write rewrites each page it touches into the log);
 * an existing database keeps the page size it was made with. A write checkpoints the log on its own
 * only past 16,000 pages (the background checkpointer does it before), on the caller's handle too.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { createSqliteStore } from 'tenant-public-api/sqlite'

const dir = mkdtempSync(join(tmpdir(), 'tpa-page-size-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const pageSize = (file: string) => {
  const database = new Database(file, { readonly: true })
  try {
    return database.pragma('page_size', { simple: true })
  } finally {
    database.close()
  }
}

describe('SQLite page size', () => {
  it('is 4 KiB for a new database', async () => {
    const file = join(dir, 'new.db')
    const store = await createSqliteStore({ filename: file })
    await store.close()
    expect(pageSize(file)).toBe(4096)
  })

  it('stays what it was for an existing database', async () => {
    const file = join(dir, 'existing.db')
    const existing = new Database(file)
    existing.pragma('page_size = 16384')
    existing.exec('CREATE TABLE host_table (x)')
    existing.close()
    const store = await createSqliteStore({ filename: file })
    await store.seed('tenant-page-size', { tickets: [] })
    await store.close()
    expect(pageSize(file)).toBe(16384)
  })

  it('leaves checkpoints to the background below 16,000 pages of log, also on a handle the caller passes', async () => {
    const database = new Database(join(dir, 'handle.db'))
    const store = await createSqliteStore({ database })
    try {
      expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(16_000)
      expect(database.pragma('journal_mode', { simple: true })).toBe('wal')
    } finally {
      await store.close()
    }
  })
})
