/**
 * The docs stay true: the reference is the registry's, the README states the command CI runs and
 * stays a short door, and every relative link between the docs resolves.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { operations, SCOPES } from 'tenant-public-api'
import { REFERENCE_PATH, renderReference, withReference } from '../../scripts/generate-reference.js'
import { SEED_REFERENCE_PATH, withSeedReference } from '../../scripts/generate-seed-reference.js'
import { SEED_KEYS } from '../../src/model/removal.js'

const root = resolve(import.meta.dirname, '../..')
const readme = readFileSync(join(root, 'README.md'), 'utf8')

/** Every Markdown file of the repository that a maintainer reads. */
function markdownFiles(): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'))
  const others = ['README.md', 'ARCHITECTURE.md', 'bench/README.md'].filter((name) => existsSync(join(root, name)))
  return [...others, ...docs.map((name) => `docs/${name}`)]
}

describe('docs', () => {
  it('docs/reference.md carries the reference generated from the registry (`npm run reference` after a change)', () => {
    const reference = readFileSync(REFERENCE_PATH, 'utf8')
    expect(reference).toBe(withReference(reference))
  })

  it('docs/seed.md carries the seed reference generated from the seed schemas (`npm run reference`)', () => {
    const seed = readFileSync(SEED_REFERENCE_PATH, 'utf8')
    expect(seed).toBe(withSeedReference(seed))
    for (const key of SEED_KEYS) expect(seed).toContain(`\n### ${key}\n`)
    expect(seed).toContain('\n#### budgets[].lineItems[]\n')
  })

  it('the reference documents every operation', () => {
    const reference = renderReference()
    for (const op of operations)
      expect(reference).toContain(`\`${op.method} /api/public/v1${op.path.replace(/:(\w+)/g, '{$1}')}\``)
  })

  it('the README states the test command that CI runs, and stays a door (at most 300 lines)', () => {
    const ci = readFileSync(join(root, '.ci/run'), 'utf8')
    expect(ci).toMatch(/^npm test$/m)
    expect(readme).toMatch(/^npm test\b/m)
    expect(readme.split('\n').length).toBeLessThanOrEqual(300)
  })

  it('every relative link between the docs resolves', () => {
    const broken: string[] = []
    for (const file of markdownFiles()) {
      const text = readFileSync(join(root, file), 'utf8')
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (target === undefined || /^[a-z]+:/i.test(target)) continue
        if (!existsSync(resolve(root, dirname(file), target))) broken.push(`${file} -> ${target}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('every doc and example awaits the async store factories (a pending store is refused by createPublicApi)', () => {
    const examples = readdirSync(join(root, 'examples'), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.(ts|mjs|js)$/.test(name) && !name.includes('node_modules'))
      .map((name) => `examples/${name}`)
    const calls = /(?<!function |await |typeof )\bcreate(?:Sqlite|Postgres)Store\(/g
    for (const file of [...markdownFiles(), ...examples]) {
      const text = readFileSync(join(root, file), 'utf8')
      // In prose a factory is named as `createSqliteStore()`: only calls that make a store count.
      const unawaited = [...text.matchAll(calls)].filter((match) => /=\s*$/.test(text.slice(0, match.index)))
      expect(
        unawaited.map((match) => text.slice(match.index - 20, match.index + 30)),
        file,
      ).toEqual([])
    }
  })

  it('every source or test file a doc cites in backticks exists', () => {
    const missing: string[] = []
    for (const file of markdownFiles()) {
      const text = readFileSync(join(root, file), 'utf8')
      for (const [, cited] of text.matchAll(/`((?:src|test|scripts|adapters|examples)\/[\w./-]+\.[cm]?[jt]s)`/g)) {
        if (cited !== undefined && !existsSync(join(root, cited))) missing.push(`${file} -> ${cited}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('every scope a doc names is one of the scope table, so none names a scope no key can hold', () => {
    const unknown: string[] = []
    for (const file of markdownFiles()) {
      for (const [, scope] of readFileSync(join(root, file), 'utf8').matchAll(/`([a-z]+\.(?:read|write))`/g))
        if (!(SCOPES as readonly string[]).includes(scope!)) unknown.push(`${file}: ${scope}`)
    }
    expect(unknown).toEqual([])
  })

  it('no doc or source cites the contract files outside the repository', () => {
    for (const file of markdownFiles()) expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/\.\.\/shared/)
  })
})
