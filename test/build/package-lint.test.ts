/**
 * The package as npm would publish it passes publint and are-the-types-wrong: built with its type
 * declarations and packed by npm (test/support/packed-package.ts: once per change of the sources,
 * shared with every test that needs the packed package), and checked as npm packs it.
 * are-the-types-wrong checks the resolutions an app can use with `exports`: node16 from CommonJS
 * and from ESM, and bundlers; `node10` predates `exports` and resolves no subpath of any package
 * that has them, so it is no target.
 */
import { readFileSync } from 'node:fs'
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core'
import { publint } from 'publint'
import { beforeAll, describe, expect, it } from 'vitest'
import { packedPackage } from '../support/packed-package.js'

let folder: string
let tarball: Uint8Array

beforeAll(async () => {
  const packed = await packedPackage()
  folder = packed.folder
  tarball = new Uint8Array(readFileSync(packed.tarball))
}, 300_000)

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
