/**
 * A new SQLite database gets 16 KiB pages (index builds of a bulk load scan the table faster);
 * an existing database keeps the page size it was made with.
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
  it('is 16 KiB for a new database', async () => {
    const file = join(dir, 'new.db')
    const store = await createSqliteStore({ filename: file })
    await store.close()
    expect(pageSize(file)).toBe(16384)
  })

  it('stays what it was for an existing database', async () => {
    const file = join(dir, 'existing.db')
    const existing = new Database(file)
    existing.exec('CREATE TABLE host_table (x)')
    existing.close()
    const store = await createSqliteStore({ filename: file })
    await store.seed('tenant-page-size', { tickets: [] })
    await store.close()
    expect(pageSize(file)).toBe(4096)
  })
})
