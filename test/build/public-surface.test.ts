/**
 * The main entry exports the public surface only (ARCHITECTURE.md, "The public surface"): its names
 * are compared with the checked-in list in public-surface.json, so a new export (or a lost one) is a
 * deliberate change of that list; and every name a code block of README.md or docs/*.md imports from
 * the package, or from one of its subpaths, is exported there.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const PACKAGE = 'tenant-public-api'
const SURFACE_PATH = join(root, 'test/build/public-surface.json')
const surface = JSON.parse(readFileSync(SURFACE_PATH, 'utf8')) as { values: string[]; types: string[] }

function compilerOptions(): ts.CompilerOptions {
  const read = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile)
  return ts.parseJsonConfigFileContent(read.config, ts.sys, root).options
}

/** The entry file of each specifier of the package, as tsconfig.json's `paths` map them. */
function entryFiles(options: ts.CompilerOptions): Map<string, string> {
  const paths = options.paths ?? {}
  return new Map(
    Object.entries(paths)
      .filter(([specifier]) => specifier === PACKAGE || specifier.startsWith(`${PACKAGE}/`))
      .map(([specifier, [file]]) => [specifier, join(root, file ?? '')]),
  )
}

/** Every name each entry exports, split into values (there at run time) and types only. */
function exportedNames(files: Map<string, string>, options: ts.CompilerOptions) {
  const program = ts.createProgram([...files.values()], options)
  const checker = program.getTypeChecker()
  const result = new Map<string, { values: string[]; types: string[] }>()
  for (const [specifier, file] of files) {
    const source = program.getSourceFile(file)
    const symbol = source && checker.getSymbolAtLocation(source)
    if (symbol === undefined) throw new Error(`${file}: no module symbol`)
    const values: string[] = []
    const types: string[] = []
    for (const name of checker.getExportsOfModule(symbol)) {
      const target = name.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(name) : name
      ;(target.flags & ts.SymbolFlags.Value ? values : types).push(name.name)
    }
    result.set(specifier, { values: values.sort(), types: types.sort() })
  }
  return result
}

/** The names each ```ts (or js) block of README.md and docs/*.md imports from the package, by specifier. */
function documentedImports(): { doc: string; specifier: string; name: string }[] {
  const docs = ['README.md', ...readdirSync(join(root, 'docs')).map((file) => `docs/${file}`)].filter((file) =>
    file.endsWith('.md'),
  )
  const found: { doc: string; specifier: string; name: string }[] = []
  for (const doc of docs) {
    const text = readFileSync(join(root, doc), 'utf8')
    for (const [, code] of text.matchAll(/^```(?:ts|typescript|tsx|js|mjs)\n([\s\S]*?)^```/gm)) {
      const source = ts.createSourceFile('block.ts', code ?? '', ts.ScriptTarget.Latest, false)
      for (const statement of source.statements) {
        if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue
        const from = statement.moduleSpecifier
        if (from === undefined || !ts.isStringLiteral(from)) continue
        if (from.text !== PACKAGE && !from.text.startsWith(`${PACKAGE}/`)) continue
        const bindings = ts.isImportDeclaration(statement)
          ? statement.importClause?.namedBindings
          : statement.exportClause
        if (bindings === undefined || ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings)) continue
        for (const element of bindings.elements) {
          found.push({ doc, specifier: from.text, name: (element.propertyName ?? element.name).text })
        }
      }
    }
  }
  return found
}

describe('the public surface', () => {
  const options = compilerOptions()
  const files = entryFiles(options)
  const names = exportedNames(files, options)

  it('the main entry exports exactly the names of public-surface.json', () => {
    const main = names.get(PACKAGE)
    expect(main, 'a new or removed export: change test/build/public-surface.json with it').toEqual(surface)
  })

  it('its run-time names are the values of the list', async () => {
    const loaded = await import('tenant-public-api')
    expect(Object.keys(loaded).sort()).toEqual(surface.values)
  })

  it('every name a doc imports from the package is exported by that entry', () => {
    const imports = documentedImports()
    // The docs import from the main entry and from subpaths: the check is not vacuous.
    expect(imports.some((i) => i.specifier === PACKAGE)).toBe(true)
    expect(imports.some((i) => i.specifier !== PACKAGE)).toBe(true)
    const missing = imports
      .filter(({ specifier, name }) => {
        const entry = names.get(specifier)
        return entry === undefined || (!entry.values.includes(name) && !entry.types.includes(name))
      })
      .map(({ doc, specifier, name }) => `${doc}: ${name} from '${specifier}'`)
    expect(missing).toEqual([])
  })
})
