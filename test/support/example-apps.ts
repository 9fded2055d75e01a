/**
 * The examples are standalone apps (examples/<name>/package.json depends on `tenant-public-api` by
 * version), so they carry no mapping into the repository. Two ways tests run them:
 * - against the repository's build (dist/, built by test/global-setup.ts), in place, with the mapping
 *   supplied here: a tsconfig for tsx and Bun, an import map for Deno;
 * - as a user would, copied out and installed from the packed tarball ({@link installExample}).
 */
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const root = fileURLToPath(new URL('../..', import.meta.url))
const dist = join(root, 'dist')

/** The package's entries by their public names (`tenant-public-api/deno`), each the built file it loads. */
function builtEntries(): Record<string, string> {
  const entries = readdirSync(dist).filter((name) => /^[a-z]+\.js$/.test(name))
  return Object.fromEntries(
    entries.map((name) => {
      const entry = name.replace(/\.js$/, '')
      return [entry === 'index' ? 'tenant-public-api' : `tenant-public-api/${entry}`, join(dist, name)]
    }),
  )
}

let configs: { tsconfig: string; denoConfig: string } | undefined

/**
 * A tsconfig.json (for `tsx --tsconfig` and `bun --tsconfig-override`) and a deno.json (for
 * `deno run --config`) that resolve `tenant-public-api` and its subpaths to the repository's dist/.
 */
export function repositoryBuildConfigs(): { tsconfig: string; denoConfig: string } {
  if (configs !== undefined) return configs
  const folder = mkdtempSync(join(tmpdir(), 'tpa-build-configs-'))
  const entries = builtEntries()
  const paths = Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, [file]]))
  const tsconfig = join(folder, 'tsconfig.json')
  writeFileSync(tsconfig, JSON.stringify({ compilerOptions: { paths } }))
  const denoConfig = join(folder, 'deno.json')
  const deno = { imports: entries, compilerOptions: { lib: ['deno.window'] }, nodeModulesDir: 'manual' }
  writeFileSync(denoConfig, JSON.stringify(deno))
  configs = { tsconfig, denoConfig }
  return configs
}

/**
 * examples/<name> copied to a new temporary folder and `npm install`ed there as printed, with the
 * packed `tarball` as its `tenant-public-api` (`--no-save`: its package.json stays as shipped). Its
 * other dependencies come from the npm cache when it holds them (`--prefer-offline`), else the registry;
 * `pinned` names exact versions of some (`next@16.4.5`) that the example's ranges admit.
 */
export async function installExample(name: string, tarball: string, pinned: string[] = []): Promise<string> {
  const app = join(mkdtempSync(join(tmpdir(), `tpa-example-${name}-`)), name)
  mkdirSync(app)
  cpSync(join(root, 'examples', name), app, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|\.next)$/.test(source),
  })
  const args = ['install', '--no-save', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...pinned]
  await promisify(execFile)('npm', args, { cwd: app, timeout: 150_000 })
  return app
}

/** Removes an app {@link installExample} made (its installed packages run to hundreds of megabytes). */
export function removeExample(app: string): void {
  rmSync(dirname(app), { recursive: true, force: true })
}
