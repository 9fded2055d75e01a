/**
 * The SQL store writes SQL one way (ARCHITECTURE.md, "One way to write SQL"): a statement on one
 * tenant's rows says so with `ofTenant`, never `tenant_id = ${...}` by hand, and a statement built
 * once is a `sql` template compiled by `ctx.compiled`, not text with a U+0000 placeholder (the
 * `template()` of before, removed). Every file but context.ts, where the helpers are, is checked: a
 * new hand-written condition fails here.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const dir = join(import.meta.dirname, '../../src/stores/sql')
/** Where the helpers are defined. */
const HELPERS = 'context.ts'
const files = readdirSync(dir).filter((name) => name.endsWith('.ts') && name !== HELPERS)

describe('SQL written one way', () => {
  it('finds the files it checks', () => {
    expect(files).toEqual(
      expect.arrayContaining(['records.ts', 'versioned.ts', 'record-writes.ts', 'queries.ts', 'seeding.ts']),
    )
  })

  it.each(files)('%s scopes its rows with ofTenant, not a tenant_id condition by hand', (name) => {
    const text = readFileSync(join(dir, name), 'utf8')
    expect(text.match(/\btenant_id\s*=\s*\$\{/g) ?? []).toEqual([])
  })

  it.each(files)('%s builds no statement from text with placeholders', (name) => {
    const text = readFileSync(join(dir, name), 'utf8')
    expect(text.match(/\btemplate\(|\bPARAM\b|\.placeholder\(/g) ?? []).toEqual([])
  })
})
