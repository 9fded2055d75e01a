/**
 * Every ```ts block of README.md and docs/*.md type-checks as a host's project compiles it: each block
 * is a module of a temporary app with the package installed as npm publishes it (its type
 * declarations, resolved through its `exports`: test/support/packed-package.ts), checked by one tsc
 * program per module resolution, `node16` (an ESM package on Node, where a CommonJS dependency's
 * default import is its whole `module.exports`: ioredis's is not constructable) and `bundler`.
 *
 * A fragment states what it assumes in an HTML comment among those right before its fence:
 *   <!-- ts-assumes: store: Store; keyResolver: KeyResolver; app: import('express').Express -->
 * Each `name: Type` is declared (`declare const name: Type`, at the module's end so line numbers hold;
 * the block's imports are in scope); a Type that is one bare name is the package's export of that
 * name. A name the block imports from one of the host's own modules (`./my-store.js`,
 * `@/lib/public-api`) or from a package this repository does not install is exported by a generated
 * module of that name instead. An entry starting `type ` or `interface ` is written as it stands.
 * A block that is not TypeScript (a shape, pseudo-code) is fenced as ```text or ```jsonc instead.
 * A control file, ioredis's default import, must fail under `node16` alone, so that mode is known to run.
 */
import { execFile } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packedPackage } from '../support/packed-package.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')

interface DocBlock {
  /** `docs/stores.md#4`: the file and the block's place among its ts blocks. */
  name: string
  code: string
  /** The `name: Type` entries and verbatim declarations of its `ts-assumes` comment. */
  assumes: string[]
}

/** The ts blocks of README.md and docs/*.md, with what each assumes. */
function docBlocks(): DocBlock[] {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).map((file) => `docs/${file}`)]
  return files
    .filter((file) => file.endsWith('.md'))
    .flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/((?:^<!--.*-->\n)*)^```ts\n([\s\S]*?)^```/gm)].map(
        (match, i) => {
          const comment = /<!-- ts-assumes: (.*?) -->/.exec(match[1]!)?.[1]
          const assumes = comment === undefined ? [] : comment.split(';').map((entry) => entry.trim())
          return { name: `${file}#${i + 1}`, code: match[2]!, assumes: assumes.filter(Boolean) }
        },
      ),
    )
}

/** The modules a block imports by name, each with the names it imports. */
function namedImports(code: string): Map<string, string[]> {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, false)
  const found = new Map<string, string[]>()
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue
    const bindings = statement.importClause?.namedBindings
    const names = bindings !== undefined && ts.isNamedImports(bindings) ? bindings.elements : []
    found.set(
      statement.moduleSpecifier.text,
      names.map((element) => element.name.text),
    )
  }
  return found
}

/**
 * Writes `block` as `app/dir/index.ts`, its assumptions declared: a name it imports from one of the
 * host's own modules (relative, or `@/`: a Next.js alias) or from a package the app has not installed
 * is exported by a generated module (a package under `app/node_modules`). The files tsc is to check.
 */
function writeBlock(app: string, dir: string, block: DocBlock): string[] {
  mkdirSync(join(app, dir), { recursive: true })
  const declared = new Map<string, string>()
  const verbatim: string[] = []
  for (const entry of block.assumes) {
    const named = /^(\w+)\s*:\s*([\s\S]+)$/.exec(entry)
    if (/^(type|interface)\s/.test(entry) || named === null) {
      verbatim.push(entry)
      continue
    }
    const [, name, type] = named
    declared.set(name!, /^[A-Z]\w*$/.test(type!) ? `import('tenant-public-api').${type}` : type!)
  }
  /** The declarations of `names` ts-assumes types; one it does not type is left out, and tsc names it. */
  const exported = (names: string[]) =>
    names.flatMap((name) => {
      const type = declared.get(name)
      declared.delete(name)
      return type === undefined ? [] : [`export declare const ${name}: ${type}\n`]
    })
  let code = block.code
  const files = [join(dir, 'index.ts')]
  for (const [specifier, names] of namedImports(block.code)) {
    if (specifier.startsWith('.') || specifier.startsWith('@/')) {
      // `@/lib/x` is the app's lib/x.ts; `./my-store.js` (or `./my-store`, which node16 refuses) is my-store.ts.
      const path = specifier.startsWith('@/') ? `./${specifier.slice(2)}.js` : specifier
      code = code.replace(`'${specifier}'`, `'${path}'`)
      const file = join(dir, `${path.replace(/^\.\//, '').replace(/\.js$/, '')}.ts`)
      mkdirSync(dirname(join(app, file)), { recursive: true })
      writeFileSync(join(app, file), exported(names).join('') || 'export {}\n')
      files.push(file)
    } else if (names.some((name) => declared.has(name))) {
      // A stub must not hide a package the check could read.
      if (existsSync(join(root, 'node_modules', specifier))) {
        throw new Error(`${block.name}: ts-assumes stands in for ${specifier}, which is installed: drop the entry`)
      }
      const folder = join(app, 'node_modules', specifier)
      mkdirSync(folder, { recursive: true })
      writeFileSync(
        join(folder, 'package.json'),
        JSON.stringify({ name: specifier, type: 'module', exports: { '.': { types: './index.d.ts' } } }),
      )
      writeFileSync(join(folder, 'index.d.ts'), exported(names).join(''))
    }
  }
  const declarations = [...verbatim, ...[...declared].map(([name, type]) => `declare const ${name}: ${type}`)]
  writeFileSync(join(app, dir, 'index.ts'), `${code}\n${declarations.join('\n')}\nexport {}\n`)
  return files
}

const CONTROL = `import Redis from 'ioredis'\nexport const client = new Redis()\n`
/** A fragment that states one of the two names it uses: tsc must name the other, and only it. */
const CONTROL_FRAGMENT: DocBlock = {
  name: 'control-fragment',
  code: [
    "import { createPublicApi } from 'tenant-public-api'",
    'export const api = createPublicApi({ store, keyResolver })',
  ].join('\n'),
  assumes: ['store: Store'],
}

const work = join(root, 'test-output')
mkdirSync(work, { recursive: true })
const base = mkdtempSync(join(work, 'ts-blocks-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))
/** The published package, as a host's node_modules holds it. */
let installed = ''
beforeAll(async () => {
  installed = (await packedPackage()).folder
}, 300_000)

/** An app of every block and the control file under `resolution`; tsc's diagnostics by block name. */
async function check(resolution: 'node16' | 'bundler'): Promise<string[]> {
  const dir = join(base, resolution)
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  symlinkSync(installed, join(dir, 'node_modules/tenant-public-api'), 'dir')
  const blocks = [...docBlocks(), CONTROL_FRAGMENT]
  const folders = new Map(blocks.map((block, i) => [`block-${i + 1}/`, block.name]))
  const files = blocks.flatMap((block, i) => writeBlock(dir, `block-${i + 1}`, block))
  writeFileSync(join(dir, 'control.ts'), CONTROL)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  const module = resolution === 'node16' ? 'node16' : 'esnext'
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2024', 'DOM', 'DOM.Iterable'],
        module,
        moduleResolution: resolution,
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files: ['control.ts', ...files],
    }),
  )
  const result = await promisify(execFile)(process.execPath, [tsc, '-p', dir, '--pretty', 'false'], {
    cwd: dir,
    timeout: 240_000,
  }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string; message: string }) => error.stdout || error.message,
  )
  return result
    .split('\n')
    .filter((line) => /error TS\d+/.test(line))
    .map((line) => line.replace(/^(block-\d+\/)index\.ts/, (_, folder: string) => folders.get(folder)!))
}

describe('the ts blocks of README.md and docs/*.md', () => {
  it('are found, the Redis snippets (ioredis and node-redis) and the MCP SDK client among them', () => {
    const blocks = docBlocks().map(({ code }) => code)
    expect(blocks.length).toBeGreaterThan(30)
    const redis = blocks.filter((code) => code.includes("'tenant-public-api/redis'"))
    expect(redis.some((code) => code.includes("from 'ioredis'"))).toBe(true)
    expect(redis.some((code) => code.includes("from 'redis'"))).toBe(true)
    expect(blocks.some((code) => code.includes('StreamableHTTPClientTransport'))).toBe(true)
  })

  it('type-check under node16 module resolution (ioredis’s default import does not)', {
    timeout: 300_000,
  }, async () => {
    const errors = await check('node16')
    expect(errors.filter((line) => !line.startsWith('control'))).toEqual([])
    expect(errors.filter((line) => line.startsWith('control.ts')).join('\n')).toMatch(/TS2351/)
    expect(errors.filter((line) => line.startsWith('control-fragment'))).toEqual([
      expect.stringMatching(/^control-fragment\(2,45\): error TS18004: .*'keyResolver'/),
    ])
  })

  it('type-check under bundler module resolution', { timeout: 300_000 }, async () => {
    const errors = await check('bundler')
    expect(errors.filter((line) => !line.startsWith('control-fragment'))).toEqual([])
    expect(errors.filter((line) => line.startsWith('control-fragment'))).toHaveLength(1)
  })
})
