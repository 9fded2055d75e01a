/**
 * Bun and Deno, for real: the built ESM (dist/, built once by test/global-setup.ts) runs unchanged on both
 * runtimes through the examples, and the core imports nothing Node-only.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installRuntimes } from './install-runtimes.js'
import { freePort, printedKey, runMountScenario, startProcess, type ServedProcess } from './support.js'
import { repositoryBuildConfigs } from '../support/example-apps.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
let bun = ''
let deno = ''

beforeAll(async () => {
  // Asynchronous, so the hook's own limit holds too; the script bounds the install (150 s) and says why it failed.
  const [bunPath, denoPath] = (await installRuntimes()).split('\n')
  bun = bunPath!
  deno = denoPath!
}, 180_000)

describe('the core is runtime-neutral', () => {
  function sources(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : []
    })
  }
  it('imports no node: module and uses no Node global outside SQL stores, webhooks, the CLI and Node mounts', () => {
    const neutral = [
      ...sources(join(root, 'src')),
      join(root, 'adapters/bun.ts'),
      join(root, 'adapters/deno.ts'),
      join(root, 'adapters/next.ts'),
      join(root, 'adapters/client-address.ts'),
    ]
      // src/webhooks/ delivers webhooks over node:http(s), like the SQL stores it runs beside the database;
      // src/cli/ is the `tenant-public-api` command, a Node program (docs/cli.md).
      .filter((path) => !/src\/(stores\/(sqlite|postgres|kysely)|webhooks|cli)\//.test(path))
      .filter((path) => !path.includes('/testing/conformance/'))
    expect(neutral.length).toBeGreaterThan(30)
    const offenders = neutral.flatMap((path) => {
      const text = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
      const imports = /from\s+['"](node:[^'"]+|fs|path|http|crypto|stream|buffer|url|events|os|util)['"]/g
      const globals = /\b(Buffer|process|__dirname|require|setImmediate)\s*[.(]/g
      const found = [...text.matchAll(imports), ...text.matchAll(globals)]
      return found.map((match) => `${relative(root, path)}: ${match[0]}`)
    })
    expect(offenders).toEqual([])
  })
  it('has no node: import in the built ESM the runtimes load', () => {
    const built = readdirSync(join(root, 'dist')).filter((name) =>
      /^(index|bun|deno|testing|chunk-[\w-]+)\.js$/.test(name),
    )
    const offenders = built.filter((name) =>
      /from\s*["']node:|require\(["']node:/.test(readFileSync(join(root, 'dist', name), 'utf8')),
    )
    expect(offenders).toEqual([])
  })
})

describe('the handler on Bun and Deno, without a mount', () => {
  // Both servers refuse anything but their own Response: there the API answers with native ones.
  it.each(['bun', 'deno'])(
    '%s serves createPublicApi(...) directly as its fetch handler',
    (runtime) => {
      const args =
        runtime === 'bun'
          ? ['test/adapters/fixtures/serve-api-directly.mjs']
          : [
              'run',
              '--allow-all',
              '--config',
              repositoryBuildConfigs().denoConfig,
              'test/adapters/fixtures/serve-api-directly.mjs',
            ]
      const output = execFileSync(runtime === 'bun' ? bun : deno, args, {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' },
      })
      expect(JSON.parse(output.trim().split('\n').pop()!)).toEqual({ status: 401, code: 'UNAUTHORIZED', native: true })
    },
    60_000,
  )
})

describe('Bun mount (examples/bun)', () => {
  let served: ServedProcess
  let base = ''
  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}/api/public/v1`
    served = await startProcess(
      bun,
      ['--tsconfig-override', repositoryBuildConfigs().tsconfig, 'examples/bun/server.ts'],
      {
        cwd: root,
        env: { PORT: String(port) },
        readyUrl: `${base}/openapi.json`,
      },
    )
  }, 60_000)
  afterAll(() => served?.stop())

  it('serves the scenario on the real runtime', async () => {
    await runMountScenario(base, await printedKey(served))
    expect(served.output()).toContain('Bun: ')
  })
})

describe('Deno mount (examples/deno)', () => {
  let served: ServedProcess
  let base = ''
  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}/api/public/v1`
    served = await startProcess(
      deno,
      [
        'run',
        '--allow-net',
        '--allow-env',
        '--allow-read',
        '--config',
        repositoryBuildConfigs().denoConfig,
        'examples/deno/server.ts',
      ],
      {
        cwd: root,
        env: { PORT: String(port), DENO_NO_UPDATE_CHECK: '1' },
        readyUrl: `${base}/openapi.json`,
        timeoutMs: 60_000,
      },
    )
  }, 90_000)
  afterAll(() => served?.stop())

  it('serves the scenario on the real runtime', async () => {
    await runMountScenario(base, await printedKey(served))
    expect(served.output()).toContain('Deno: ')
  })
})
