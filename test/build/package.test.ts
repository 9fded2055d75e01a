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
  it('ships the README, LICENSE and every doc, and none of the contributor documents', () => {
    for (const file of ['README.md', 'LICENSE', 'docs/reference.md', 'docs/api-behaviour.md'])
      expect(shipped, file).toContain(file)
    // They describe src/ and benches a user of the package cannot run: the docs link to them in the repository.
    for (const file of ['ARCHITECTURE.md', 'CONTRIBUTING.md', 'bench/README.md'])
      expect(shipped, file).not.toContain(file)
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

  it('no shipped Markdown file names a repository path that is not in the tarball', () => {
    // A path the package does not ship is a link to the repository's file instead. The links point at
    // `main`: no release is tagged yet (once one is, they can name the released version's tag).
    // A link to the repository (its text too, which names the path) or a bare address of it.
    const repository = /(?:\[[^\]]*\]\()?https:\/\/github\.com\/tenant-public-api\/tenant-public-api\/[^\s)>]*\)?/g
    const path = /\b(?:src|test|scripts|adapters|bench|\.ci)\/[\w./-]+/g
    // Every folder of the tarball, with its trailing slash (`examples/next/`), for a mention of a folder.
    const folders = new Set(
      [...shipped].flatMap((file) =>
        file
          .split('/')
          .slice(0, -1)
          .map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`),
      ),
    )
    const unshipped: string[] = []
    for (const file of [...shipped].filter((name) => name.endsWith('.md'))) {
      const text = readFileSync(file, 'utf8').replace(repository, '')
      for (const [mention] of text.matchAll(path)) {
        const named = mention.replace(/\.$/, '')
        if (!shipped.has(named) && !folders.has(named.endsWith('/') ? named : `${named}/`))
          unshipped.push(`${file}: ${named}`)
      }
    }
    expect(unshipped).toEqual([])
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
