/**
 * docs/mcp.md's tool table is the registry's: one row per tool, in order, with its method, path,
 * scope and read-only hint. When it fails, paste the rows it prints in place of the table's.
 */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { mcpTools } from '../../src/mcp/tools.js'

it('docs/mcp.md lists every tool as the registry declares it', () => {
  const rows = mcpTools().map(({ definition, operation }) => {
    const path = operation.path.replace(/:(\w+)/g, '{$1}')
    const read = definition.annotations.readOnlyHint ? 'yes' : 'no'
    return `| \`${definition.name}\` | ${operation.method} \`${path}\` | \`${operation.scope}\` | ${read} |`
  })
  const doc = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8')
  const table = doc
    .slice(doc.indexOf('## Tools\n'))
    .split('\n')
    .filter((line) => line.startsWith('| `'))
  expect(table, `docs/mcp.md is stale; its rows should be:\n${rows.join('\n')}`).toEqual(rows)
})
