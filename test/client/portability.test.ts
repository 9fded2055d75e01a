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
  // Besides its own files, only the options check every factory shares (no imports of its own), standardwebhooks
  // (verifyWebhook) and its two pure-JavaScript dependencies.
  const allowed =
    /^(src\/client\/|src\/model\/options\.ts$|(.*\/)?node_modules\/(standardwebhooks|@stablelib\/base64|fast-sha256)\/)/
  expect(inputs.filter((input) => input.startsWith('node:') || !allowed.test(input))).toEqual([])
  const code = result.outputFiles[0]!.text
  expect(code).not.toMatch(/\bfrom\s+["']node:|require\(["']/)
  // About 20 KB of it is verifyWebhook's HMAC-SHA256 and base64 (standardwebhooks) and 3 KB the options check,
  // unminified.
  expect(code.length).toBeLessThan(48_000)
})
