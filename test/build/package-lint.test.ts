/**
 * The package as npm would publish it passes publint and are-the-types-wrong: built with its type
 * declarations and packed by npm (test/support/packed-package.ts: once per change of the sources,
 * shared with every test that needs the packed package), and checked as npm packs it.
 * are-the-types-wrong checks the resolutions an app can use with `exports`: node16 from CommonJS
 * and from ESM, and bundlers; `node10` predates `exports` and resolves no subpath of any package
 * that has them, so it is no target. Then an app installs the tarball and TypeScript 5.9, 6 (the
 * build's) and 7 type-check it.
 */
import { execFile, execFileSync } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core'
import { publint } from 'publint'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packedPackage } from '../support/packed-package.js'

let folder: string
let tarballPath: string
let appFolder: string
let tarball: Uint8Array

beforeAll(async () => {
  const packed = await packedPackage()
  folder = packed.folder
  tarballPath = packed.tarball
  tarball = new Uint8Array(readFileSync(tarballPath))
  // The app is written beside, never into, the shared packed copy.
  appFolder = mkdtempSync(join(tmpdir(), 'tpa-package-lint-'))
}, 300_000)

afterAll(() => {
  if (appFolder !== undefined) rmSync(appFolder, { recursive: true, force: true })
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

/**
 * The compilers an app may use: TypeScript 6 (`typescript`, the build's), 5.9 and 7 (aliased
 * devDependencies). Each checks the app's code against the package's declarations, which it parses,
 * and names every type the app's own declarations need. TypeScript 7, the native compiler, also
 * checks every declaration file (`skipLibCheck: false`: the package's and its dependencies'), which
 * costs it seconds where it would cost the others a minute of the test run.
 */
const COMPILERS = [
  { version: '5.9', pkg: 'typescript-5.9', skipLibCheck: true },
  { version: '6', pkg: 'typescript', skipLibCheck: true },
  { version: '7', pkg: 'typescript-7', skipLibCheck: false },
]

/** The examples that run on Node: apps that import only the package (and Node, Express). */
const EXAMPLES = ['node-server/server.ts', 'express/server.ts', 'webhook-receiver/server.ts', 'map-store/map-store.ts']

/**
 * A module of the app that touches every function every entry exports: its arguments and its result,
 * as exported values whose declarations the compiler writes out, naming each type from where the app
 * can reach it; a type the package uses but does not export cannot be named (TS2742/TS2883). Two
 * lines must fail (`@ts-expect-error`): an unknown export and a wrong argument, so a package whose
 * types did not resolve, or resolved to `any`, fails too.
 */
function everyEntry(entries: Map<string, string>): string {
  const functions = functionsOf([...entries.values()])
  const lines: string[] = []
  let index = 0
  for (const [specifier, declarations] of entries) {
    const name = `entry${index++}`
    lines.push(`import * as ${name} from '${specifier}'`)
    for (const fn of functions.get(declarations) ?? []) {
      const type = `typeof ${name}.${fn}`
      lines.push(`export const ${name}_${fn} = (...args: Parameters<${type}>) =>`)
      lines.push(`  ({ args, result: null as unknown as ReturnType<${type}> })`)
    }
  }
  lines.push(
    '// @ts-expect-error: no such export',
    "import { noSuchExport } from 'tenant-public-api'",
    "import { createMemoryStore } from 'tenant-public-api'",
    '// @ts-expect-error: not an options object',
    'createMemoryStore(42)',
  )
  return `${lines.join('\n')}\n`
}

/** The functions each declaration file exports, by file (the compiler's view: re-exports included). */
function functionsOf(files: string[]): Map<string, string[]> {
  const program = ts.createProgram(files, { skipLibCheck: true, noEmit: true, types: [] })
  const checker = program.getTypeChecker()
  const isFunction = (symbol: ts.Symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
    return (target.flags & ts.SymbolFlags.Function) !== 0
  }
  return new Map(
    files.map((file) => {
      const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!
      return [
        file,
        checker
          .getExportsOfModule(module)
          .filter(isFunction)
          .map((symbol) => symbol.name)
          .sort(),
      ]
    }),
  )
}

describe('an app that installs the package', () => {
  it('type-checks under TypeScript 5.9, 6 and 7: the examples, and every function of every entry', {
    timeout: 240_000,
  }, async () => {
    const app = join(appFolder, 'app')
    const modules = join(app, 'node_modules')
    const installed = join(modules, 'tenant-public-api')
    mkdirSync(installed, { recursive: true })
    execFileSync('tar', ['xzf', tarballPath, '-C', installed, '--strip-components=1'])
    // The app's other packages, the package's dependencies and peers and @types/node, are the repository's.
    for (const name of readdirSync('node_modules')) {
      if (name !== '.bin' && name !== 'tenant-public-api')
        symlinkSync(resolve('node_modules', name), join(modules, name))
    }
    for (const example of EXAMPLES) copyFileSync(join('examples', example), join(app, example.replace('/', '-')))
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, unknown> }
    const entries = new Map(
      Object.keys(manifest.exports)
        .filter((subpath) => subpath !== './package.json')
        .map((subpath) => [
          subpath.replace(/^\./, 'tenant-public-api'),
          join(installed, 'dist', `${subpath === '.' ? 'index' : subpath.slice(2)}.d.ts`),
        ]),
    )
    writeFileSync(join(app, 'every-entry.ts'), everyEntry(entries))
    writeFileSync(join(app, 'package.json'), '{ "type": "module", "private": true }\n')
    const compilerOptions = {
      strict: true,
      module: 'nodenext',
      target: 'es2022',
      types: ['node'],
      declaration: true,
      emitDeclarationOnly: true,
    }
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }))
    const run = promisify(execFile)
    const results = await Promise.all(
      COMPILERS.map(async ({ version, pkg, skipLibCheck }) => {
        const tsc = resolve('node_modules', pkg, 'bin', 'tsc')
        const found = await run(process.execPath, [tsc, '--version'], { cwd: app })
        expect(found.stdout, pkg).toContain(`Version ${version}`)
        const args = [tsc, '-p', '.', '--skipLibCheck', String(skipLibCheck), '--outDir', `out-${version}`]
        const checked = await run(process.execPath, args, { cwd: app, maxBuffer: 1 << 24 }).then(
          () => '',
          (error: { stdout?: string }) => error.stdout ?? String(error),
        )
        return [version, checked.trim()] as const
      }),
    )
    expect(Object.fromEntries(results)).toEqual({ '5.9': '', '6': '', '7': '' })
  })
})
