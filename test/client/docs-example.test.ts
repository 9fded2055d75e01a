import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, it, vi } from 'vitest'

it('the client example of docs/client-and-testing.md runs as printed', async () => {
  const notes = readFileSync('docs/client-and-testing.md', 'utf8')
  const block = /<!-- client-example -->\s*```ts\n([\s\S]*?)```/.exec(notes)?.[1]
  expect(block, 'the client-example block').toBeDefined()
  expect(block!.trim().split('\n').length).toBeLessThanOrEqual(25)
  mkdirSync('test-output', { recursive: true })
  const file = resolve('test-output/docs-client-example.ts')
  writeFileSync(file, `${block!}\nexport {}\n`)
  const log = vi.spyOn(console, 'log').mockImplementation(() => {})
  try {
    // Imported through vitest, so `tenant-public-api/*` resolve to the sources as they will to the package.
    await import(/* @vite-ignore */ pathToFileURL(file).href)
    const lines = log.mock.calls.map((args) => args.join(' '))
    expect(lines[0]).toMatch(/^\d+ open tickets, first: .+/)
    expect(lines[1]).toMatch(/^\d+ active staff besides the primary admin$/)
    expect(lines[2]).toMatch(/^412 PRECONDITION_FAILED [0-9a-f-]{36}$/)
  } finally {
    log.mockRestore()
  }
})
