/**
 * The npm package stands on its own: what README.md and the shipped docs link to is in the tarball
 * (`npm pack --dry-run` lists it), with a LICENSE and the repository's address.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { posix } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packedOf } from '../support/npm-pack.js'

const packed = packedOf(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', timeout: 60_000 }),
)
const shipped = new Set(packed.files.map((file) => file.path))

describe('the npm package', () => {
  it('ships the README, LICENSE, ARCHITECTURE.md and every doc', () => {
    for (const file of ['README.md', 'LICENSE', 'ARCHITECTURE.md', 'docs/reference.md', 'docs/api-behaviour.md'])
      expect(shipped, file).toContain(file)
    expect(readFileSync('LICENSE', 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) 2026 tenant-public-api contributors/,
    )
  })

  it('every relative link of a shipped Markdown file resolves to a file in the tarball', () => {
    const markdown = [...shipped].filter((file) => file.endsWith('.md'))
    expect(markdown.length).toBeGreaterThan(5)
    const dead: string[] = []
    for (const file of markdown) {
      const text = readFileSync(file, 'utf8')
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (target === undefined || /^[a-z]+:/i.test(target)) continue
        const path = posix.normalize(posix.join(posix.dirname(file), target))
        if (!shipped.has(path)) dead.push(`${file} -> ${target}`)
      }
    }
    expect(dead).toEqual([])
  })

  it('names its repository, homepage and issue tracker, and its licence', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      license: string
      repository: { url: string }
      homepage: string
      bugs: { url: string }
    }
    expect(pkg.license).toBe('MIT')
    expect(pkg.repository.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/)
    expect(pkg.homepage).toMatch(/^https:\/\/github\.com\//)
    expect(pkg.bugs.url).toMatch(/^https:\/\/github\.com\/.+\/issues$/)
  })
})
