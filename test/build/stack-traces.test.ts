/**
 * Stack traces a user can read (tsup.config.ts): the built classes keep their names (esbuild's
 * `keepNames`; without it `ApiResponseError` is built as `_ApiResponseError`), and the package
 * ships no source map without its sources. dist/ is the test run's build (test/global-setup.ts,
 * from tsup.config.ts); the maps are checked on a build of the client entry with the config as is.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'tsup'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, { import: { default: string }; require: { default: string } }>
}

/** The name each exported class is built with, when it differs from the name it is exported as. */
function renamed(module: Record<string, unknown>): string[] {
  return Object.entries(module)
    .filter(([, value]) => typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value)))
    .filter(([name, value]) => (value as { name: string }).name !== name)
    .map(([name, value]) => `${name} is named ${(value as { name: string }).name}`)
}

describe('the built package', () => {
  it('keeps the names of its classes, ESM and CommonJS alike', async () => {
    const require = createRequire(import.meta.url)
    const client = (await import(pathToFileURL(join(root, 'dist/client.js')).href)) as {
      ApiResponseError: new (init: { status: number; code: 'NOT_FOUND'; message: string }) => Error
    }
    const error = new client.ApiResponseError({ status: 404, code: 'NOT_FOUND', message: 'No such ticket' })
    expect(error.constructor.name).toBe('ApiResponseError')
    expect(error.stack?.split('\n')[0]).toBe('ApiResponseError: No such ticket')
    const problems: string[] = []
    let functions = 0
    for (const [subpath, { import: esm, require: cjs }] of Object.entries(pkg.exports)) {
      if (subpath === './package.json') continue
      const modules = [(await import(pathToFileURL(join(root, esm.default)).href)) as Record<string, unknown>]
      // The conformance suite's CommonJS build requires vitest, which refuses to be required.
      if (subpath !== './conformance') modules.push(require(join(root, cjs.default)) as Record<string, unknown>)
      for (const module of modules) {
        functions += Object.values(module).filter((value) => typeof value === 'function').length
        problems.push(...renamed(module).map((problem) => `${subpath}: ${problem}`))
      }
    }
    expect(functions).toBeGreaterThan(10)
    expect(problems).toEqual([])
  })

  const work = join(root, 'test-output')
  mkdirSync(work, { recursive: true })
  const outDir = mkdtempSync(join(work, 'stack-traces-'))
  afterAll(() => rmSync(outDir, { recursive: true, force: true }))

  it('ships no source map without its sources', { timeout: 120_000 }, async () => {
    await build({
      config: 'tsup.config.ts',
      entry: { client: 'src/client/index.ts' },
      outDir,
      dts: false,
      clean: false,
      silent: true,
    })
    const built = readdirSync(outDir)
    expect(built).toContain('client.js')
    const incomplete = built
      .filter((file) => file.endsWith('.map'))
      .filter((file) => {
        const map = JSON.parse(readFileSync(join(outDir, file), 'utf8')) as {
          sources: string[]
          sourcesContent?: Array<string | null>
        }
        return map.sources.some((_, i) => typeof map.sourcesContent?.[i] !== 'string')
      })
    expect(incomplete).toEqual([])
  })
})
