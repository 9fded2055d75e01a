/**
 * The package as `npm publish` would ship it, built once per change of what goes into it and
 * shared by every test file (and every run) that needs it: tsup's full build (ESM, CJS, type
 * declarations, sourcemaps: tsup.config.ts as it is) into a staging folder holding what
 * package.json's `files` lists, and the tarball `npm pack` makes of that folder. The declaration
 * build alone costs about a minute of CPU, so it is never done twice for the same sources.
 *
 * The copy is kept under node_modules/.cache/tenant-public-api/, keyed by a hash of the files npm
 * ships (`npm pack --dry-run`, dist/ aside), the sources, the build configs and the build tools'
 * versions; copies older than an hour are removed. Test files in parallel processes wait for the
 * one building it (a lock folder).
 * dist/ itself stays the test run's quick build (test/global-setup.ts), untouched here.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'tsup'
import { packedOf } from './npm-pack.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const cache = join(root, 'node_modules/.cache/tenant-public-api')
/** A builder that left its lock this long ago died: the lock is taken over. */
const STALE_LOCK_MS = 15 * 60_000
const OLD_COPY_MS = 60 * 60_000

/** A packed copy of the package. */
export interface PackedPackage {
  /**
   * The staged package folder, as npm would unpack the tarball: the files `npm pack` ships
   * (package.json, README.md, LICENSE, docs...) and dist/ from the full build. Read it; never write to it.
   */
  folder: string
  /** The absolute path of the `.tgz` `npm pack` made of `folder` (say, for `npm install <tarball>`). */
  tarball: string
  /** The key of this copy: it changes with anything that goes into the package. */
  hash: string
}

/** Every file under `path` (a file or a folder), relative to the repository, sorted. */
function filesUnder(path: string): string[] {
  return readdirSync(join(root, path), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort()
}

/** The files npm would pack besides dist/ (which is built here), as `npm pack --dry-run` lists them. */
function shippedFiles(): string[] {
  const listed = packedOf(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    }),
  )
  return listed.files.map((file) => file.path).filter((path) => !path.startsWith('dist/'))
}

/**
 * A key of what tsup builds from the working tree: the sources, package.json (its dependencies stay
 * external), the build configs, the build tools' versions, and `extra` files.
 *
 * @example
 * if (readFileSync('dist/.test-build', 'utf8') !== buildInputsHash()) await build(...)
 */
export function buildInputsHash(extra: readonly string[] = []): string {
  const hash = createHash('sha256')
  const inputs = ['package.json', 'tsup.config.ts', 'tsconfig.json', ...filesUnder('src'), ...filesUnder('adapters')]
  inputs.push(...extra)
  for (const file of [...new Set(inputs)].sort())
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0')
  for (const tool of ['tsup', 'typescript', 'esbuild']) {
    const manifest = JSON.parse(readFileSync(join(root, 'node_modules', tool, 'package.json'), 'utf8'))
    hash.update(`${tool}@${(manifest as { version: string }).version}\0`)
  }
  return hash.digest('hex').slice(0, 16)
}

/** Builds and packs the package into `into` (a new folder), with the `shipped` files besides dist/. */
async function buildInto(into: string, shipped: readonly string[]): Promise<void> {
  const folder = join(into, 'package')
  for (const file of shipped) {
    mkdirSync(dirname(join(folder, file)), { recursive: true })
    copyFileSync(join(root, file), join(folder, file))
  }
  await build({ config: join(root, 'tsup.config.ts'), outDir: join(folder, 'dist'), silent: true })
  const packed = packedOf(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', into], {
      cwd: folder,
      encoding: 'utf8',
      timeout: 120_000,
    }),
  )
  writeFileSync(join(into, 'tarball'), packed.filename)
}

/** Copies of other sources not made within OLD_COPY_MS: a run still reading one is long over. */
function removeOldCopies(): void {
  for (const name of readdirSync(cache)) {
    const path = join(cache, name)
    if (name.startsWith('package-') && Date.now() - statSync(path).mtimeMs > OLD_COPY_MS)
      rmSync(path, { recursive: true, force: true })
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let packing: Promise<PackedPackage> | undefined

/**
 * The package as npm would publish it, built and packed at most once per change of its inputs.
 *
 * @example
 * const { folder, tarball } = await packedPackage()
 * execFileSync('npm', ['install', tarball], { cwd: hostApp })
 */
export function packedPackage(): Promise<PackedPackage> {
  packing ??= pack()
  return packing
}

async function pack(): Promise<PackedPackage> {
  const shipped = shippedFiles()
  const hash = buildInputsHash(shipped)
  const done = join(cache, `package-${hash}`)
  const lock = `${done}.lock`
  const ready = (): PackedPackage => ({
    folder: join(done, 'package'),
    tarball: join(done, readFileSync(join(done, 'tarball'), 'utf8')),
    hash,
  })
  mkdirSync(cache, { recursive: true })
  for (;;) {
    if (existsSync(done)) return ready()
    try {
      mkdirSync(lock)
    } catch {
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs
      if (since !== undefined && Date.now() - since > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true })
      else await sleep(500)
      continue
    }
    try {
      removeOldCopies()
      const building = `${done}.building`
      rmSync(building, { recursive: true, force: true })
      await buildInto(building, shipped)
      renameSync(building, done)
      return ready()
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }
}
