/**
 * The peer matrix: the package packed by npm, installed without flags into two host apps, one with
 * every peer at the lowest version package.json's ranges admit and one with every peer at its
 * newest release (test/build/peer-matrix/hosts.ts), and each host's own vitest run there
 * (test/build/peer-matrix/host/checks): the exported conformance suite on the memory, SQLite and
 * Postgres stores, the Redis limiter with ioredis and node-redis, the Node, Express and Next.js
 * mounts, MCP through the SDK's client, OpenTelemetry, and the CommonJS build. Both hosts run on
 * Node.js 26; the newest also on 22 and 24 (the stores' conformance, mounts, MCP, CommonJS). The Node.js lines
 * and npm come from scripts/install-node.sh; Postgres is the run's (test/global-setup.ts), Redis the
 * one of test/support/redis.ts. A check that does not run is a failure, never a skip.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startTestRedis, type TestRedis } from '../support/redis.js'
import { type HostRun, installHost, packPackage, ROOT, runHost } from './peer-matrix/host-app.js'
import { HOSTS, type HostApp } from './peer-matrix/hosts.js'

const ALL = ['memory', 'sqlite', 'postgres', 'http', 'redis', 'mounts', 'tracing', 'cjs', 'next'] as const
/** On the other lines: the stores' conformance, the Node and Express mounts with MCP, the CommonJS build. */
const OTHER_LINES = ['memory', 'sqlite', 'postgres', 'mounts', 'cjs'] as const

const peerRanges = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>
  }
).peerDependencies

/** The Node.js bin folder of a line, fetched from the npm registry by scripts/install-node.sh. */
function nodeLine(line: 22 | 24 | 26): string {
  return execFileSync('bash', [join(ROOT, 'scripts/install-node.sh'), String(line)], {
    encoding: 'utf8',
    timeout: 600_000,
  }).trim()
}

/**
 * The lowest version a range of package.json's form admits: the smallest lower bound of its
 * alternatives (`^a.b`, `~a.b.c`, `>=a.b.c <d`, `a.b.c`), missing parts as 0.
 *
 * @example
 * lowestOf('^4.17 || ^5') // '4.17.0'
 */
function lowestOf(range: string): string {
  const bounds = range.split('||').map((alternative) => {
    const match = /^\s*(?:\^|~|>=)?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(alternative)
    if (match === null) throw new Error(`unreadable peer range: ${range}`)
    return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] as const
  })
  bounds.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2])
  return bounds[0]!.join('.')
}

describe('the peer ranges', () => {
  it('each host app has every peer of package.json and no other', () => {
    for (const host of HOSTS) expect(Object.keys(host.peers).sort(), host.name).toEqual(Object.keys(peerRanges).sort())
  })

  it("the lowest host app holds each peer at the lowest version of package.json's range", () => {
    const lowest = HOSTS.find((host) => host.name === 'lowest')!
    const expected = Object.fromEntries(Object.entries(peerRanges).map(([name, range]) => [name, lowestOf(range)]))
    expect(lowest.peers).toEqual(expected)
  })
})

describe('the packed package in host apps', () => {
  let redis: TestRedis
  let folder: string
  const runs = new Map<string, Promise<HostRun>>()
  const postgres = inject('postgres')

  beforeAll(async () => {
    if (postgres.failure !== null) throw new Error(`the peer matrix needs a Postgres server: ${postgres.failure}`)
    redis = await startTestRedis()
    folder = mkdtempSync(join(tmpdir(), 'tpa-peer-matrix-pack-'))
    // Fetched before any host runs: the download blocks this process, which serves the stand-in Redis.
    const lines = { 22: nodeLine(22), 24: nodeLine(24), 26: nodeLine(26) }
    // npm 12 on Node.js 26 packs and installs, as on a fresh machine of today.
    const packed = packPackage(folder, lines[26])
    const env = { DATABASE_URL: postgres.url, REDIS_URL: redis.url }
    const installed = new Map<HostApp['name'], Promise<string>>(
      HOSTS.map((host) => [host.name, installHost(host, packed, lines[26])] as const),
    )
    // Two runs at a time, each with its own vitest workers: more only contend for the cores.
    let slots: Promise<unknown> = Promise.resolve()
    const pairs: Array<Promise<unknown>> = []
    const start = (host: HostApp['name'], line: 22 | 24 | 26, checks: readonly string[]) => {
      const run = Promise.all([installed.get(host)!, slots]).then(([dir]) =>
        runHost(dir, checks, { nodeBin: lines[line], env }),
      )
      runs.set(`${host}@${line}`, run)
      pairs.push(run)
      if (pairs.length === 2) slots = Promise.allSettled(pairs.splice(0))
    }
    start('lowest', 26, ALL)
    start('newest', 26, ALL)
    start('newest', 22, OTHER_LINES)
    start('newest', 24, OTHER_LINES)
    // A run's failure is reported by its own test below; none may go unhandled meanwhile.
    for (const run of runs.values()) run.catch(() => undefined)
  }, 900_000)

  afterAll(async () => {
    await Promise.allSettled(runs.values())
    await redis?.stop()
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
  })

  const cases = [
    ['lowest', 26, ALL],
    ['newest', 26, ALL],
    ['newest', 22, OTHER_LINES],
    ['newest', 24, OTHER_LINES],
  ] as const

  it.each(cases)(
    '%s peers on Node.js %i: every check passes, none skipped',
    async (host, line, checks) => {
      const run = await runs.get(`${host}@${line}`)!
      const summary = Object.entries(run.files).map(([file, counts]) => `${file} ${counts.passed}`)
      console.info(`[peer matrix] ${host} peers on ${run.node}: ${run.passed} passed (${summary.join(', ')})`)
      expect(run.node.startsWith(`v${line}.`), run.node).toBe(true)
      const failures = { failed: run.failed, skipped: run.skipped }
      expect(failures, run.output).toEqual({ failed: 0, skipped: 0 })
      expect(Object.keys(run.files).sort(), run.output).toEqual(checks.map((name) => `checks/${name}.check.ts`).sort())
      for (const [file, counts] of Object.entries(run.files)) expect(counts.passed, file).toBeGreaterThan(0)
    },
    1_200_000,
  )
})
