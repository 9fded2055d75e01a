/**
 * The docs' Redis snippets type-check as a host's project compiles them: under TypeScript's `node16`
 * module resolution (an ESM package on Node, where a CommonJS dependency's default import is its
 * whole `module.exports`: ioredis's is not constructable) and under `bundler`. Each snippet is
 * written to a temporary project with the package installed as npm publishes it (its type
 * declarations, resolved through its `exports`: test/support/packed-package.ts), `store` and
 * `keyResolver` declared, and checked by tsc. A control file, ioredis's default import, must fail
 * under `node16` alone, so the check is known to run in that mode.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packedPackage } from '../support/packed-package.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')

/** The `ts` blocks of README.md and docs/*.md that use `tenant-public-api/redis`, named by file and order. */
function redisSnippets(): Array<{ name: string; code: string }> {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).map((file) => `docs/${file}`)]
  return files
    .filter((file) => file.endsWith('.md'))
    .flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)]
        .map((match) => match[1]!)
        .filter((code) => code.includes("'tenant-public-api/redis'"))
        .map((code, i) => ({ name: `${file.replace(/\W/g, '-')}-${i + 1}`, code })),
    )
}

const CONTROL = `import Redis from 'ioredis'\nexport const client = new Redis()\n`

const work = join(root, 'test-output')
mkdirSync(work, { recursive: true })
const base = mkdtempSync(join(work, 'redis-snippets-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))
/** The published package, as a host's node_modules holds it. */
let installed = ''
beforeAll(async () => {
  installed = (await packedPackage()).folder
}, 300_000)

/** A project of the snippets and the control file under `resolution`; tsc's diagnostics, one per line. */
async function check(resolution: 'node16' | 'bundler'): Promise<string[]> {
  const dir = join(base, resolution)
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  symlinkSync(installed, join(dir, 'node_modules/tenant-public-api'), 'dir')
  const snippets = redisSnippets()
  for (const { name, code } of snippets) writeFileSync(join(dir, `${name}.ts`), `${code}\nexport {}\n`)
  writeFileSync(join(dir, 'control.ts'), CONTROL)
  writeFileSync(
    join(dir, 'host.d.ts'),
    "declare const store: import('tenant-public-api').Store\n" +
      "declare const keyResolver: import('tenant-public-api').KeyResolver\n",
  )
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
      files: ['host.d.ts', 'control.ts', ...snippets.map(({ name }) => `${name}.ts`)],
    }),
  )
  const result = await promisify(execFile)(process.execPath, [tsc, '-p', dir, '--pretty', 'false'], {
    cwd: root,
    timeout: 240_000,
  }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string; message: string }) => error.stdout ?? error.message,
  )
  return result
    .split('\n')
    .filter((line) => /error TS\d+/.test(line))
    .map((line) => line.replace(`${relative(root, dir)}/`, '').replace(`${dir}/`, ''))
}

describe('the docs’ Redis snippets', () => {
  it('are found: one with ioredis, one with node-redis', () => {
    const snippets = redisSnippets().map(({ code }) => code)
    expect(snippets.some((code) => code.includes("from 'ioredis'"))).toBe(true)
    expect(snippets.some((code) => code.includes("from 'redis'"))).toBe(true)
  })

  it('type-check under node16 module resolution (ioredis’s default import does not)', {
    timeout: 300_000,
  }, async () => {
    const errors = await check('node16')
    expect(errors.filter((line) => !line.startsWith('control.ts'))).toEqual([])
    expect(errors.filter((line) => line.startsWith('control.ts')).join('\n')).toMatch(/TS2351/)
  })

  it('type-check under bundler module resolution', { timeout: 300_000 }, async () => {
    expect(await check('bundler')).toEqual([])
  })
})
