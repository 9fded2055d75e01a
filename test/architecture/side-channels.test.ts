/**
 * The pipeline and the MCP endpoint hand each other what they need explicitly (ARCHITECTURE.md, "The
 * layers"): a tool call's principal, span and counted buckets go with its request through the
 * router's `answerToolCall`, which create-public-api.ts gives the MCP route. A module-level WeakMap or
 * WeakSet in either would let one reach into the other unseen (a tool call was once marked on its
 * request in such a table), so neither holds one; a cache belongs in the closure that uses it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { productionFiles, root } from './sources.js'

const files = [...productionFiles('src/http', /\.ts$/), ...productionFiles('src/mcp', /\.ts$/)]

describe('no side channels between the pipeline and the MCP endpoint', () => {
  it('finds the files it checks', () => {
    expect(files).toEqual(expect.arrayContaining(['src/http/pipeline.ts', 'src/http/tool-call.ts', 'src/mcp/call.ts']))
  })

  it.each(files)('%s declares no module-level WeakMap or WeakSet', (path) => {
    const text = readFileSync(join(root, path), 'utf8')
    expect(text.match(/^(?:export )?(?:const|let|var) \w+(?:: [^=]+)? = new Weak(?:Map|Set)\b/gm) ?? []).toEqual([])
  })
})
