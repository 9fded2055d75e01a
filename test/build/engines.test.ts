/**
 * `npm install` on the oldest Node the README names warns of no package: every package the lockfile
 * installs (optional platform builds aside, which npm skips) accepts it.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { expect, it } from 'vitest'

const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean }

interface Locked {
  version?: string
  optional?: boolean
  engines?: { node?: string } | string[]
}

it('every package the lockfile installs accepts the Node version the README asks of developers', () => {
  const readme = readFileSync('README.md', 'utf8')
  const [, library, develop] = /Requirements: Node ≥ (\d+) \(≥ (\d+\.\d+) to develop/.exec(readme) ?? []
  expect(develop, 'README: "Requirements: Node ≥ N (≥ N.M to develop"').toBeDefined()
  const own = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }
  expect(own.engines.node).toBe(`>=${library}`)
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, Locked> }
  const refusing: string[] = []
  for (const [path, pkg] of Object.entries(lock.packages)) {
    const range = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node
    if (path === '' || pkg.optional === true || range === undefined) continue
    if (!semver.satisfies(`${develop}.0`, range)) refusing.push(`${path}@${pkg.version}: node ${range}`)
  }
  expect(refusing).toEqual([])
})
