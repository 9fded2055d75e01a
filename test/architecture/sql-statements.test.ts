/**
 * The SQL store writes SQL one way (ARCHITECTURE.md, "One way to write SQL"): a statement on one
 * tenant's rows says so with `ofTenant`, never `tenant_id = ${...}` by hand, its inserts with
 * `insertOfTenant` and `counterOfTenant` (no file but context.ts writes `tenant_id`), and a statement
 * built once is a `sql` template compiled by `ctx.compiled`, not text with a U+0000 placeholder (the
 * `template()` of before, removed). Every file but context.ts, where the helpers are, is checked: a
 * new hand-written condition fails here. And the store names no collection and branches on no engine
 * outside its seam (ARCHITECTURE.md, "Where engine differences live"): no file imports a collection by
 * name but the named writes, none reads `migrations/` but the migrator's caller, none asks an engine's
 * name but the engines and the migrator.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as model from '../../src/model/index.js'

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

/** A file's text without its comments (a comment may name anything). */
const code = (name: string) =>
  readFileSync(join(dir, name), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')

/**
 * The webhook part of the store: what is particular to the endpoints collection (its insert companion,
 * the cascade of its delete) is the one thing it is about, so it names that collection.
 */
const WEBHOOK_PART = 'webhooks.ts'

/** The names the model exports its collections under. */
const collectionNames = Object.entries(model)
  .filter(([, value]) => (model.COLLECTIONS as readonly unknown[]).includes(value))
  .map(([name]) => name)

describe('the SQL store names no collection and branches on no engine outside the seam', () => {
  it('knows every collection by its exported name', () => {
    expect(collectionNames).toHaveLength(model.COLLECTIONS.length)
  })

  it.each(files)('%s writes no tenant_id by hand', (name) => {
    expect(code(name).match(/\btenant_id\b/g) ?? []).toEqual([])
  })

  it.each(files.filter((name) => name !== WEBHOOK_PART))('%s imports no collection by name', (name) => {
    const imports = [...code(name).matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'[./]*\/model\/[^']*'/g)]
    const imported = imports.flatMap((match) => match[1]!.split(',').map((part) => part.trim().replace(/^type /, '')))
    expect(imported.filter((part) => collectionNames.includes(part))).toEqual([])
  })

  it.each(files.filter((name) => name !== 'sql-store.ts'))('%s reads nothing of migrations/', (name) => {
    expect(code(name).match(/from '\.\/migrations\//g) ?? []).toEqual([])
  })

  const ENGINES = ['engine.ts', 'sqlite-engine.ts', 'postgres-engine.ts', 'sql-store.ts']
  it.each(files.filter((name) => !ENGINES.includes(name)))("%s never asks an engine's name", (name) => {
    expect(code(name).match(/engine\.name\b|'sqlite'|'postgres'/g) ?? []).toEqual([])
  })
})
