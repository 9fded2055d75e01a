/**
 * No `any` in the public surface: the type declarations of every entry of tsup.config.ts, emitted
 * by the TypeScript compiler as tsup's dts build does, hold no `any` keyword of our own. The
 * compiler emits one declaration file per source file of ours (dependencies' types are only
 * referenced, never copied), and its parser finds the keyword, so comments and words such as
 * "many" never count. The keyword also appears when a declaration is inferred from a library
 * function typed with `any`, as `v.transform(Number)` once gave `TransformAction<any, number>`.
 */
import { dirname, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import tsupConfig from '../../tsup.config.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The entry files of the package, as tsup builds them. */
function entries(): string[] {
  const config = Array.isArray(tsupConfig) ? tsupConfig[0] : tsupConfig
  const entry = typeof config === 'function' ? undefined : config?.entry
  if (entry === undefined || Array.isArray(entry)) throw new Error('tsup.config.ts: expected an entry object')
  return Object.values(entry).map((path) => `${root}${path}`)
}

/** Every declaration file the compiler emits for the entries, by source path, without writing any. */
function emitDeclarations(): Map<string, string> {
  const read = ts.readConfigFile(`${root}tsconfig.json`, ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(`${root}tsconfig.json`))
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    outDir: `${root}.declarations-test`,
    // The emit without checking every body (`npm run typecheck` does): the same declarations, and
    // the declaration emit's own errors are still reported.
    noCheck: true,
  }
  const program = ts.createProgram(entries(), options)
  const emitted = new Map<string, string>()
  const result = program.emit(undefined, (fileName, text) => emitted.set(relative(options.outDir!, fileName), text))
  const errors = result.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
  expect(errors, 'declaration emit').toEqual([])
  return emitted
}

/** The lines of `text` where the parser finds the `any` keyword. */
function anyKeywords(text: string): string[] {
  const source = ts.createSourceFile('emitted.d.ts', text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source))
      found.push(`${line + 1}: ${text.split('\n')[line]?.trim().slice(0, 160)}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('the public type declarations', () => {
  it('hold no `any` of our own', { timeout: 180_000 }, () => {
    const emitted = emitDeclarations()
    const ours = [...emitted.keys()].filter((path) => /^(src|adapters)\//.test(path))
    // The entries and what they reach: a handful would mean the emit found nothing to check.
    expect(ours.length).toBeGreaterThan(50)
    const offenders = Object.fromEntries(
      ours.map((path) => [path, anyKeywords(emitted.get(path)!)] as const).filter(([, found]) => found.length > 0),
    )
    expect(offenders).toEqual({})
  })

  it('the check finds `any` where it is', () => {
    const text = '/** any */\nexport interface R<T = any> { body: T; many: string }\n'
    expect(anyKeywords(text)).toEqual(['2: export interface R<T = any> { body: T; many: string }'])
    expect(anyKeywords('export declare const x: Array<any>;\nexport type Y = (a: any) => void\n')).toHaveLength(2)
  })
})
