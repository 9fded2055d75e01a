/**
 * The `tools/list` cache (docs/mcp.md): the pages of at most MAX_CACHED_SCOPE_SETS sets of allowed
 * tools are kept, least recently used dropped first, so keys with ever new scope sets cannot grow it;
 * a dropped set's pages come back the same.
 */
import { describe, expect, it } from 'vitest'
import { SCOPES, type Scope } from '../../src/http/auth.js'
import type { Principal } from '../../src/http/principal.js'
import { MAX_CACHED_SCOPE_SETS, ToolCatalog } from '../../src/mcp/catalog.js'
import { mcpConfig } from '../../src/mcp/options.js'

const principalOf = (scopes: readonly Scope[]): Principal => ({
  tenantId: 'tenant-a',
  keyId: `key:${scopes.join(',')}`,
  scopes: [...scopes],
  actor: { id: '00000000-0000-4000-8000-00000000a11c', name: 'Test Key' },
})

/** Each read scope allows its own read tools and no other, so distinct sets of them allow distinct tools. */
const readScopes = SCOPES.filter((scope) => scope.endsWith('.read'))

/** A key with the `n`-th non-empty set of read scopes (by the bits of n + 1): distinct n, distinct tools. */
const setOf = (n: number): Principal => principalOf(readScopes.filter((_, bit) => ((n + 1) >> bit) & 1))

describe('the tools/list cache', () => {
  it('keeps the pages of at most 64 sets of allowed tools, however many sets list', () => {
    const catalog = new ToolCatalog(mcpConfig(true)!)
    const listed = new Set<string>()
    for (let n = 0; n < 4 * MAX_CACHED_SCOPE_SETS; n++) {
      const page = JSON.parse(catalog.page(setOf(n), undefined)) as { tools: Array<{ name: string }> }
      listed.add(page.tools.map((tool) => tool.name).join())
      expect(catalog.cachedSets).toBe(Math.min(n + 1, MAX_CACHED_SCOPE_SETS))
    }
    expect([listed.size, MAX_CACHED_SCOPE_SETS]).toEqual([4 * MAX_CACHED_SCOPE_SETS, 64])
  })

  it('drops the least recently listed set first, and serves a dropped set the same pages again', () => {
    const catalog = new ToolCatalog(mcpConfig({ toolsPageSize: 3 })!)
    const first = principalOf([...SCOPES])
    const second = principalOf([readScopes[0]!])
    const firstPages = [catalog.page(first, undefined)]
    const cursor = (JSON.parse(firstPages[0]!) as { nextCursor: string }).nextCursor
    firstPages.push(catalog.page(first, cursor))
    const secondPage = catalog.page(second, undefined)
    // 62 more sets fill the cache; listing `first` again makes `second` the least recently used.
    for (let n = 0; catalog.cachedSets < MAX_CACHED_SCOPE_SETS; n++) catalog.page(setOf(n), undefined)
    catalog.page(first, undefined)
    for (let n = MAX_CACHED_SCOPE_SETS; n < 2 * MAX_CACHED_SCOPE_SETS && catalog.isCached(second); n++)
      catalog.page(setOf(n), undefined)
    expect([catalog.isCached(first), catalog.isCached(second), catalog.cachedSets]).toEqual([
      true,
      false,
      MAX_CACHED_SCOPE_SETS,
    ])
    expect(catalog.page(second, undefined)).toBe(secondPage)
    expect([catalog.page(first, undefined), catalog.page(first, cursor)]).toEqual(firstPages)
  })
})
