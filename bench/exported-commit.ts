/**
 * A commit's sources for a baseline measured in the same run as the current ones: exported with
 * `git archive` (never a worktree) into a temporary directory that shares node_modules, then
 * imported beside the current modules (tsx compiles them as it does ours). Each run exports afresh
 * (no cache: a commit's export takes about a second) and the directory is removed when the process
 * ends, on an error or a signal too (bench/cleanup.ts).
 */
import { execSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { removeAtExit } from './cleanup.js'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * Exports `commit`'s `paths` (default `src`) and returns the directory, removed when this process
 * ends; `label` names it in the bench's output.
 *
 * @example
 * const dir = exportCommit('9915d86', 'baseline')
 * const base = (await import(pathToFileURL(join(dir, 'src/index.ts')).href)) as typeof import('../src/index.js')
 */
export function exportCommit(commit: string, label: string, paths: readonly string[] = ['src']): string {
  const dir = removeAtExit(mkdtempSync(join(tmpdir(), 'tpa-bench-base-')))
  try {
    execSync(`git archive ${commit} ${paths.join(' ')} | tar -x -C ${dir}`, { cwd: root })
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  // The commit's mounts import the package by name: let that name mean the commit's own sources.
  const self = { name: 'tenant-public-api', type: 'module', exports: { '.': './src/index.ts' } }
  writeFileSync(join(dir, 'package.json'), JSON.stringify(self))
  if (paths.includes('adapters')) pointMountsAtOwnSources(dir)
  console.log(`  ${label}: ${commit} exported to ${dir}`)
  return dir
}

/**
 * Rewrites the exported mounts' `from 'tenant-public-api'` to a relative import of the commit's own
 * `src/index.ts`. The package.json above is not enough: tsx applies this repository's tsconfig
 * `paths` to every file it compiles, exported ones included, so the name would mean the current
 * sources, and a commit's mount would run on today's core (or fail on a name it no longer exports).
 */
function pointMountsAtOwnSources(dir: string): void {
  const adapters = join(dir, 'adapters')
  for (const name of readdirSync(adapters, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.ts')) continue
    const file = join(adapters, name)
    const entry = relative(dirname(file), join(dir, 'src/index.js')).replaceAll('\\', '/')
    const text = readFileSync(file, 'utf8')
    const own = text.replaceAll(/from 'tenant-public-api'/g, `from '${entry.startsWith('.') ? entry : `./${entry}`}'`)
    if (own !== text) writeFileSync(file, own)
  }
}

/**
 * Imports the module at `path` (relative to the repository root, e.g. `src/index.ts`) from an
 * exported commit's directory.
 *
 * @example
 * const base = await importFrom<typeof import('../src/index.js')>(dir, 'src/index.ts')
 */
export async function importFrom<T>(dir: string, path: string): Promise<T> {
  return (await import(pathToFileURL(join(dir, path)).href)) as T
}
