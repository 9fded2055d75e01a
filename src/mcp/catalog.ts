/**
 * What `tools/list` shows a key, and which tools `tools/call` serves (docs/mcp.md): the tools its
 * scopes allow (and only the read ones with `readOnly`), in pages of `toolsPageSize`. Each page is
 * kept as JSON text per set of allowed tools, so listing costs one lookup after the first time.
 */
import { hasScope } from '../http/auth.js'
import type { Principal } from '../http/principal.js'
import type { McpConfig } from './options.js'
import { INVALID_PARAMS, JsonRpcError } from './results.js'
import { findTool, mcpTools, type McpTool } from './tools.js'

/** The tools one endpoint serves, with its cached `tools/list` pages. */
export class ToolCatalog {
  readonly #config: McpConfig
  /** Page texts keyed by the allowed tools (a string of 0 and 1, one per tool). */
  readonly #pages = new Map<string, string[]>()

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
    const tools = mcpTools()
    let mask = ''
    for (const tool of tools) mask += this.#shows(tool, principal) ? '1' : '0'
    let pages = this.#pages.get(mask)
    if (pages === undefined) {
      pages = this.#render(tools.filter((_, index) => mask[index] === '1'))
      this.#pages.set(mask, pages)
    }
    const index = cursor === undefined ? 0 : pageOf(cursor)
    const page = pages[index]
    if (page === undefined) throw new JsonRpcError(INVALID_PARAMS, 'Invalid cursor')
    return page
  }

  #shows(tool: McpTool, principal: Principal): boolean {
    return (
      (!this.#config.readOnly || tool.operation.method === 'GET') && hasScope(principal.scopes, tool.operation.scope)
    )
  }

  #render(tools: readonly McpTool[]): string[] {
    const size = this.#config.toolsPageSize
    const pages: string[] = []
    for (let start = 0; start === 0 || start < tools.length; start += size) {
      const next = start + size < tools.length ? `,"nextCursor":${JSON.stringify(cursorOf(pages.length + 1))}` : ''
      const definitions = tools.slice(start, start + size).map((tool) => tool.definition)
      pages.push(asciiJson(`{"tools":${JSON.stringify(definitions)}${next}}`))
    }
    return pages
  }
}

/**
 * The same JSON with every character past ASCII written as a `\uXXXX` escape, held one byte a
 * character. V8 keeps a string with one character past Latin-1 (a dash in a description) two bytes a
 * character, even after such characters are replaced, and undici's `Response` checks a two-byte
 * body for lone surrogates at about 15 ns a character: about 2 ms of the 2.9 ms a full-scope page
 * cost (bench/README.md#mcp). Outside strings JSON text is ASCII, so only string contents change; the
 * round trip through UTF-8 is what makes the string one byte a character again.
 */
function asciiJson(text: string): string {
  const escaped = text.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return new TextDecoder().decode(new TextEncoder().encode(escaped))
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
