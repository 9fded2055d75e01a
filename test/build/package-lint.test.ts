/**
 * The package as npm would publish it passes publint and are-the-types-wrong: built with its type
 * declarations into a temporary folder (dist/ is the test run's build without declarations), packed
 * by npm, and checked as npm packs it. are-the-types-wrong checks the
 * resolutions an app can use with `exports`: node16 from CommonJS and from ESM, and bundlers;
 * `node10` predates `exports` and resolves no subpath of any package that has them, so it is no target.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core'
import { publint } from 'publint'
import { build } from 'tsup'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

let folder: string
let tarball: Uint8Array

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'tpa-package-lint-'))
  for (const file of ['package.json', 'README.md', 'LICENSE']) copyFileSync(file, join(folder, file))
  await build({ config: 'tsup.config.ts', outDir: join(folder, 'dist'), sourcemap: false, silent: true })
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', folder], {
      cwd: folder,
      encoding: 'utf8',
      timeout: 60_000,
    }),
  ) as Array<{ filename: string }>
  tarball = new Uint8Array(readFileSync(join(folder, packed!.filename)))
}, 300_000)

afterAll(() => {
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
})

describe('the published package', () => {
  it('publint finds nothing to say, not even a suggestion', async () => {
    const { messages } = await publint({ pkgDir: folder, level: 'suggestion', pack: 'npm' })
    expect(messages).toEqual([])
  })

  it('are-the-types-wrong finds no problem for node16 (CommonJS and ESM) or bundlers, on every entry', async () => {
    const result = await checkPackage(createPackageFromTarballData(tarball))
    if (result.types === false) throw new Error('are-the-types-wrong found no types in the package')
    expect(Object.keys(result.entrypoints).sort()).toEqual(
      Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).exports as object).sort(),
    )
    const problems = result.problems.filter(
      (problem) => !('resolutionKind' in problem) || problem.resolutionKind !== 'node10',
    )
    expect(problems).toEqual([])
  })
})
