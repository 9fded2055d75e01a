/**
 * The Node.js lines the project supports, said once in package.json and matched by README.md:
 * `engines` for apps that install the package (npm warns `EBADENGINE` below it), `devEngines` for
 * contributors (npm refuses `install`, `ci` and `run` on another Node.js, saying which it needs).
 * Every package the lockfile installs accepts the oldest release `devEngines` admits on each line.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean
  minVersion(range: string): { version: string } | null
  intersects(a: string, b: string): boolean
  compare(a: string, b: string): number
}

/** The maintained Node.js lines: the release lines the package supports. */
const LINES = [22, 24, 26]

interface Manifest {
  engines: { node: string }
  devEngines: { runtime: { name: string; version: string; onFail: string } }
}

interface Locked {
  version?: string
  optional?: boolean
  engines?: { node?: string } | string[]
}

const own = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest
const develop = own.devEngines.runtime.version

/** The oldest release of `line` the range admits, or '' when it admits none. */
function oldest(range: string, line: number): string {
  const found = range
    .split('||')
    .map((set) => semver.minVersion(`${set.trim()} >=${line}.0.0 <${line + 1}.0.0`)?.version)
    .filter((version): version is string => version !== undefined)
  return found.sort(semver.compare)[0] ?? ''
}

describe('the supported Node.js lines', () => {
  it('engines admits the maintained lines and none older; the README says so', () => {
    expect(own.engines.node).toBe(`>=${LINES[0]}`)
    expect(semver.satisfies('20.19.0', own.engines.node)).toBe(false)
    for (const line of LINES) expect(semver.satisfies(`${line}.0.0`, own.engines.node)).toBe(true)
    const readme = readFileSync('README.md', 'utf8').replace(/\s+/g, ' ')
    expect(readme).toContain(`Requirements: Node.js ≥ ${LINES[0]} (the maintained lines: 22, 24 and 26)`)
  })

  it('devEngines makes npm refuse another Node.js to develop with, and the README names its range', () => {
    expect(own.devEngines.runtime).toEqual({ name: 'node', version: develop, onFail: 'error' })
    expect(semver.intersects(develop, '<22')).toBe(false)
    for (const line of LINES) expect(oldest(develop, line), `Node.js ${line}`).not.toBe('')
    expect(readFileSync('README.md', 'utf8').replace(/\s+/g, ' ')).toContain(`Node.js \`${develop}\``)
  })

  it('every package the lockfile installs accepts the oldest release devEngines admits on each line', () => {
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, Locked> }
    const refusing: string[] = []
    for (const line of LINES) {
      const version = oldest(develop, line)
      for (const [path, pkg] of Object.entries(lock.packages)) {
        const range = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node
        if (path === '' || pkg.optional === true || range === undefined) continue
        if (!semver.satisfies(version, range)) refusing.push(`${path}@${pkg.version}: node ${range} (not ${version})`)
      }
    }
    expect(refusing).toEqual([])
  })
})
