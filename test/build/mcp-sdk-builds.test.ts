/**
 * `mcp` on without `@modelcontextprotocol/sdk` installed is a TypeError at createPublicApi(), from
 * both builds (docs/mcp.md): the ESM build asks `import.meta.resolve`, the CJS build `require.resolve`.
 * The built package is installed in a directory of its own, with its dependencies but not the SDK,
 * and run by plain Node as an app runs it; from the repository, where the SDK is installed, the same
 * scripts create the API. dist/ is built by test/global-setup.ts.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const app = mkdtempSync(join(tmpdir(), 'tpa-mcp-sdk-builds-'))
afterAll(() => rmSync(app, { recursive: true, force: true }))

/** The package as an app installs it: package.json and dist/, and its dependencies beside it, the SDK left out. */
function installWithoutSdk(): void {
  const installed = join(app, 'node_modules', 'tenant-public-api')
  mkdirSync(installed, { recursive: true })
  cpSync(join(root, 'package.json'), join(installed, 'package.json'))
  cpSync(join(root, 'dist'), join(installed, 'dist'), { recursive: true })
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
  }
  for (const dependency of Object.keys(manifest.dependencies)) {
    const link = join(app, 'node_modules', dependency)
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(realpathSync(join(root, 'node_modules', dependency)), link)
  }
}
installWithoutSdk()

/** Creates the API with `mcp` on and off; prints what each did. */
const body = `
const keyResolver = () => null
const made = {}
try {
  createPublicApi({ store: createMemoryStore(), keyResolver, mcp: true })
  made.on = 'created'
} catch (error) {
  made.on = error.name + ': ' + error.message
}
createPublicApi({ store: createMemoryStore(), keyResolver })
made.off = 'created'
console.log(JSON.stringify(made))
`
const SCRIPTS = {
  ESM: ['--input-type=module', '-e', `import { createMemoryStore, createPublicApi } from 'tenant-public-api'\n${body}`],
  CJS: ['-e', `const { createMemoryStore, createPublicApi } = require('tenant-public-api')\n${body}`],
}

function run(format: keyof typeof SCRIPTS, cwd: string): { on: string; off: string } {
  const out = execFileSync(process.execPath, SCRIPTS[format], { cwd, encoding: 'utf8', timeout: 30_000 })
  return JSON.parse(out.trim().split('\n').pop()!) as { on: string; off: string }
}

describe('mcp without the SDK, from the built package', () => {
  for (const format of ['ESM', 'CJS'] as const) {
    it(`is a TypeError at creation saying what to install (${format} build)`, () => {
      expect(run(format, app)).toEqual({
        on:
          'TypeError: createPublicApi({ mcp }) needs the optional peer @modelcontextprotocol/sdk (1.32 or later): ' +
          'npm install @modelcontextprotocol/sdk',
        off: 'created',
      })
    })

    it(`creates the API where the SDK is installed (${format} build)`, () => {
      expect(run(format, root)).toEqual({ on: 'created', off: 'created' })
    })
  }
})
