/**
 * docs/stores.md#supported-releases states package.json's peer ranges: one row per peer, the range
 * as package.json has it (test/build/peer-matrix.test.ts tests both ends of each).
 */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

it('the table of supported releases is package.json peerDependencies, every peer once', () => {
  const { peerDependencies } = JSON.parse(readFileSync('package.json', 'utf8')) as {
    peerDependencies: Record<string, string>
  }
  const docs = readFileSync('docs/stores.md', 'utf8')
  const section = docs.slice(docs.indexOf('\n## Supported releases'), docs.indexOf('\n## Redis rate limits'))
  const rows = [...section.matchAll(/^\| `([^`]+)` \| `((?:[^`\\]|\\.)+)` \|/gm)].map(
    ([, name, range]) => [name!, range!.replaceAll('\\|', '|')] as const,
  )
  expect(rows.length).toBe(Object.keys(peerDependencies).length)
  expect(Object.fromEntries(rows)).toEqual(peerDependencies)
})
