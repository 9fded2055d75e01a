/**
 * The peer matrix's machinery: the package packed by npm as it would be published, installed by npm
 * into a host app (./hosts.ts, with the checks of ./host/), and the host's own vitest run there on a
 * chosen Node.js. An installed host is kept in the system's temporary folder under a hash of what
 * made it (the tarball, its package.json, the checks), so a second run reuses it; a fresh machine
 * installs it from the registry.
 */
import { execFile, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { HostApp } from './hosts.js'

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const TEMPLATE = fileURLToPath(new URL('./host', import.meta.url))

/** Every file under `dir`, sorted, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(dir, path)).isFile())
    .sort()
}

/** The environment with the Node.js (and npm) of `nodeBin` first on PATH. */
function withNode(nodeBin: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, PATH: `${nodeBin}:${env.PATH ?? ''}` }
}

/**
 * Packs the package as `npm pack` would publish it, from the run's build in dist/ (test/global-setup.ts
 * builds it before any test file), into `into`, with the npm of `nodeBin`. Returns the tarball's path
 * and its SHA-256.
 */
export function packPackage(into: string, nodeBin: string): { tarball: string; sha256: string } {
  mkdirSync(into, { recursive: true })
  const report = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', into], {
      cwd: ROOT,
      env: withNode(nodeBin),
      encoding: 'utf8',
      timeout: 120_000,
    }),
  ) as Array<{ filename: string }> | Record<string, { filename: string }>
  // npm 10 and 11 report an array of packages, npm 12 an object keyed by the package's name.
  const [packed] = Array.isArray(report) ? report : Object.values(report)
  if (packed === undefined) throw new Error('npm pack reported no package')
  const tarball = join(into, packed.filename)
  return { tarball, sha256: createHash('sha256').update(readFileSync(tarball)).digest('hex') }
}

/** The host's package.json: every peer and extra at its exact version, and the packed package. */
function manifest(host: HostApp): Record<string, unknown> {
  return {
    name: `peer-matrix-${host.name}`,
    private: true,
    type: 'module',
    dependencies: { ...host.peers, ...host.extra, 'tenant-public-api': 'file:./tenant-public-api.tgz' },
  }
}

/**
 * The host app installed: reused when one made of the same tarball, manifest and checks is there,
 * else made and `npm install`ed by the npm of `nodeBin` (no flags: it must resolve as an app's would).
 * Throws with npm's output when the install fails (an ERESOLVE is a peer range that excludes a
 * host's version).
 */
export async function installHost(
  host: HostApp,
  packed: { tarball: string; sha256: string },
  nodeBin: string,
): Promise<string> {
  const hash = createHash('sha256')
    .update(packed.sha256)
    .update(JSON.stringify(manifest(host)))
  for (const file of filesUnder(TEMPLATE)) hash.update(file).update(readFileSync(join(TEMPLATE, file)))
  const prefix = `tpa-peer-matrix-${host.name}-`
  const dir = join(tmpdir(), `${prefix}${hash.digest('hex').slice(0, 16)}`)
  const done = join(dir, '.installed')
  pruneStale(prefix, dir)
  if (existsSync(done)) {
    // Marked as used: pruneStale keeps what a run used lately.
    utimesSync(done, new Date(), new Date())
    return dir
  }
  rmSync(dir, { recursive: true, force: true })
  cpSync(TEMPLATE, dir, { recursive: true })
  cpSync(packed.tarball, join(dir, 'tenant-public-api.tgz'))
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest(host), null, 2)}\n`)
  const { code, output } = await run('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: dir,
    env: withNode(nodeBin),
    timeoutMs: 600_000,
  })
  if (code !== 0) throw new Error(`npm install of the ${host.name} host app failed (${code}) in ${dir}:\n${output}`)
  writeFileSync(done, `${new Date().toISOString()}\n`)
  return dir
}

/** How long an installed host app no run has used is kept (each is a few hundred MB). */
const STALE_MS = 24 * 60 * 60 * 1000

/**
 * Deletes the host apps of this name made of other tarballs and unused for {@link STALE_MS}: not
 * sooner, since another checkout's run on this machine may be using its own.
 */
function pruneStale(prefix: string, keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    const dir = join(tmpdir(), name)
    if (!name.startsWith(prefix) || dir === keep) continue
    const marker = join(dir, '.installed')
    const used = existsSync(marker) ? statSync(marker).mtimeMs : statSync(dir).mtimeMs
    if (Date.now() - used > STALE_MS) rmSync(dir, { recursive: true, force: true })
  }
}

/** A child process's exit code and its output (stdout and stderr, interleaved as they came). */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = ''
    const child = execFile(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      timeout: options.timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    })
    child.stdout?.on('data', (chunk) => (output += chunk))
    child.stderr?.on('data', (chunk) => (output += chunk))
    child.on('close', (code, signal) => resolve({ code: signal === null ? code : null, output }))
  })
}

/** What a host's vitest run reported, per check file: its tests by state. */
export interface HostRun {
  node: string
  files: Record<string, { passed: number; failed: number; skipped: number }>
  passed: number
  failed: number
  skipped: number
  output: string
}

/**
 * Runs the host's checks (`checks/<name>.check.ts` for each name) with its own vitest on the Node.js
 * whose folder is `nodeBin` (first on PATH, so that the checks' child processes use it too).
 */
export async function runHost(
  dir: string,
  checks: readonly string[],
  options: { nodeBin: string; env: Record<string, string> },
): Promise<HostRun> {
  const results = join(dir, `results-${process.pid}-${Date.now()}.json`)
  const env = withNode(options.nodeBin, { ...process.env, ...options.env, CI: '1' })
  // The parent run's vitest leaves its markers in the environment: the host's own run must not see them.
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'TEST') delete env[name]
  const node = join(options.nodeBin, 'node')
  const vitest = join(dir, 'node_modules/vitest/vitest.mjs')
  const files = checks.map((name) => `checks/${name}.check.ts`)
  const args = [vitest, 'run', ...files, '--reporter=default', '--reporter=json', `--outputFile.json=${results}`]
  const { output } = await run(node, args, { cwd: dir, env, timeoutMs: 900_000 })
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
  if (!existsSync(results)) throw new Error(`the host's vitest wrote no results on Node.js ${version}:\n${output}`)
  const report = JSON.parse(readFileSync(results, 'utf8')) as {
    testResults: Array<{ name: string; assertionResults: Array<{ status: string }> }>
  }
  rmSync(results, { force: true })
  const run_: HostRun = { node: version, files: {}, passed: 0, failed: 0, skipped: 0, output }
  for (const file of report.testResults) {
    const counts = { passed: 0, failed: 0, skipped: 0 }
    for (const { status } of file.assertionResults) {
      if (status === 'passed') counts.passed++
      else if (status === 'failed') counts.failed++
      else counts.skipped++
    }
    // A file that failed to load reports no tests: count it as a failure.
    if (file.assertionResults.length === 0) counts.failed++
    run_.files[relative(dir, file.name)] = counts
    run_.passed += counts.passed
    run_.failed += counts.failed
    run_.skipped += counts.skipped
  }
  return run_
}
