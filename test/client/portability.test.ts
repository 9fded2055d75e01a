import { build } from 'esbuild'
import { expect, it } from 'vitest'

it('bundles for browsers (and so Deno and Bun) with no Node built-in and no server code', async () => {
  const result = await build({
    entryPoints: ['src/client/index.ts'],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    metafile: true,
    logLevel: 'silent',
  })
  const inputs = Object.keys(result.metafile.inputs)
  expect(inputs.filter((input) => input.startsWith('node:') || !input.startsWith('src/client/'))).toEqual([])
  const code = result.outputFiles[0]!.text
  expect(code).not.toMatch(/\bfrom\s+["']node:|require\(["']/)
  expect(code.length).toBeLessThan(20_000)
})
