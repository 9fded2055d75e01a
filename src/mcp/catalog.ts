/**
 * What `tools/list` shows a key, and which tools `tools/call` serves (docs/mcp.md): the tools its
 * scopes allow (and only the read ones with `readOnly`), in pages of `toolsPageSize`. The pages of
 * the {@link MAX_CACHED_SCOPE_SETS} sets of allowed tools listed last are kept as JSON text, so
 * listing costs one lookup after the first time; older sets are dropped, least recently used first
 * (keys with distinct scope sets would otherwise grow the cache without bound, about 60 KB a set).
 * A page is joined from each tool's definition text, rendered once per endpoint, so a set that was
 * dropped costs a join, not a new rendering.
 */
import { hasScope } from '../http/auth.js'
import type { Principal } from '../http/principal.js'
import type { McpConfig } from './options.js'
import { INVALID_PARAMS, JsonRpcError } from './results.js'
import { findTool, mcpTools, type McpTool } from './tools.js'

/** How many sets of allowed tools keep their `tools/list` pages (docs/mcp.md). */
export const MAX_CACHED_SCOPE_SETS = 64

/** The tools one endpoint serves, with its cached `tools/list` pages. */
export class ToolCatalog {
  readonly #config: McpConfig
  /** Page texts keyed by the allowed tools (a string of 0 and 1, one per tool), least recently used first. */
  readonly #pages = new Map<string, string[]>()
  /** Each tool's definition as ASCII JSON text, in the order of mcpTools(); rendered at the first listing. */
  #texts: readonly string[] | undefined
  /** The set listed last, the last entry of the pages. */
  #newest: string | undefined

  constructor(config: McpConfig) {
    this.#config = config
  }

  /** The tool `tools/call` may run: any tool of the endpoint (the pipeline answers a missing scope with 403). */
  served(name: string): McpTool | undefined {
    const tool = findTool(name)
    return tool === undefined || (this.#config.readOnly && tool.operation.method !== 'GET') ? undefined : tool
  }

  /**
   * The `tools/list` result text for `principal` at `cursor` (undefined for the first page).
   *
   * @example
   * catalog.page(principal, undefined) // '{"tools":[...]}'
   */
  page(principal: Principal, cursor: unknown): string {
    const mask = this.#maskOf(principal)
    let pages = this.#pages.get(mask)
    if (pages === undefined) {
      pages = this.#render(mask)
      if (this.#pages.size >= MAX_CACHED_SCOPE_SETS) this.#pages.delete(this.#pages.keys().next().value!)
      this.#pages.set(mask, pages)
    } else if (mask !== this.#newest) {
      // Most recently used last; a set listed again in a row (one busy key) is already there.
      this.#pages.delete(mask)
      this.#pages.set(mask, pages)
    }
    this.#newest = mask
    const index = cursor === undefined ? 0 : pageOf(cursor)
    const page = pages[index]
    if (page === undefined) throw new JsonRpcError(INVALID_PARAMS, 'Invalid cursor')
    return page
  }

  /** How many sets of allowed tools have their pages kept (at most {@link MAX_CACHED_SCOPE_SETS}). */
  get cachedSets(): number {
    return this.#pages.size
  }

  /** Whether the pages of what `principal` is allowed are kept. */
  isCached(principal: Principal): boolean {
    return this.#pages.has(this.#maskOf(principal))
  }

  #maskOf(principal: Principal): string {
    let mask = ''
    for (const tool of mcpTools()) mask += this.#shows(tool, principal) ? '1' : '0'
    return mask
  }

  #shows(tool: McpTool, principal: Principal): boolean {
    return (
      (!this.#config.readOnly || tool.operation.method === 'GET') && hasScope(principal.scopes, tool.operation.scope)
    )
  }

  #render(mask: string): string[] {
    const tools = mcpTools()
    this.#texts ??= tools.map((tool) => asciiJson(JSON.stringify(tool.definition)))
    const texts = this.#texts.filter((_, index) => mask[index] === '1')
    const size = this.#config.toolsPageSize
    const pages: string[] = []
    for (let start = 0; start === 0 || start < texts.length; start += size) {
      const next = start + size < texts.length ? `,"nextCursor":"${cursorOf(pages.length + 1)}"` : ''
      pages.push(sequential(`{"tools":[${texts.slice(start, start + size).join(',')}]${next}}`))
    }
    return pages
  }
}

/**
 * The same JSON with every character past ASCII written as a `\uXXXX` escape, held one byte a character. V8
 * keeps a string with one character past Latin-1 (a dash in a description) two bytes a character, even after
 * such characters are replaced, and undici's `Response` checks a two-byte body for lone surrogates character
 * by character: most of what a full-scope page cost
 * (bench/README.md#mcp-a-tool-call-beside-its-rest-request). Outside strings JSON text is ASCII, so only
 * string contents change; the round trip through UTF-8 is what makes the string one byte a character again
 * (and a page joined of such texts is one byte a character too).
 */
function asciiJson(text: string): string {
  const escaped = text.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return sequential(escaped)
}

/**
 * The same text as one fresh sequential string (not a rope of joined pieces), as every listing of
 * the page hands it over: what a page cost to serve does not depend on how it was put together.
 */
function sequential(text: string): string {
  return new TextDecoder().decode(new TextEncoder().encode(text))
}

/** An opaque cursor naming a page of `tools/list`. */
function cursorOf(page: number): string {
  // Plain ASCII: btoa and atob are on every runtime the API mounts on (no Buffer on edge hosts).
  return btoa(`tools:${page}`).replaceAll('=', '')
}

function pageOf(cursor: unknown): number {
  let text = ''
  try {
    if (typeof cursor === 'string' && cursor.length <= 16) text = atob(cursor)
  } catch {
    // Not base64: an invalid cursor, refused below.
  }
  const match = /^tools:([1-9]\d{0,5})$/.exec(text)
  if (match === null) throw new JsonRpcError(INVALID_PARAMS, 'Invalid cursor')
  return Number(match[1])
}
