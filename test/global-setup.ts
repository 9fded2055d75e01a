/**
 * Once before any test file: build the package's ESM and CJS entries into dist/ (no type
 * declarations: seconds, not a minute). The Next.js, Bun and Deno examples run the built ESM, the
 * build test mixes the two formats, and building once here keeps parallel test files from writing
 * dist/ at the same time.
 */
import { build } from 'tsup'

export default async function setup(): Promise<void> {
  await build({
    config: 'tsup.config.ts',
    format: ['esm', 'cjs'],
    dts: false,
    sourcemap: false,
    clean: false,
    silent: true,
  })
}
