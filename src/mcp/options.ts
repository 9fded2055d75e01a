/**
 * `createPublicApi({ mcp })`: the options of the MCP endpoint (docs/mcp.md), checked once when the
 * API is created.
 */

/**
 * Options of the MCP endpoint at `POST {basePath}/mcp` (docs/mcp.md). `mcp: true` means `{}`.
 *
 * @example
 * createPublicApi({ store, keyResolver, mcp: { readOnly: true, allowedOrigins: ['https://portal.example'] } })
 */
export interface McpOptions {
  /** List and serve only the read tools (those of `GET` operations). Default false. */
  readOnly?: boolean
  /**
   * The `Origin`s a request may carry (exact `scheme://host[:port]`). A request that sends another
   * `Origin` is refused with 403 `ORIGIN_NOT_ALLOWED` (DNS rebinding); one without `Origin` (not a
   * browser) is served. Default: none, so no browser page can call it.
   */
  allowedOrigins?: readonly string[]
  /** Tools per page of `tools/list` (then `nextCursor`). Default 100: one page for every tool of the API. */
  toolsPageSize?: number
}

/** {@link McpOptions} with every default applied. */
export interface McpConfig {
  readOnly: boolean
  allowedOrigins: ReadonlySet<string>
  toolsPageSize: number
}

/**
 * Checks and completes `createPublicApi`'s `mcp` option; undefined when the endpoint is off.
 *
 * @example
 * mcpConfig(true) // { readOnly: false, allowedOrigins: Set(0) {}, toolsPageSize: 100 }
 */
export function mcpConfig(option: boolean | McpOptions | undefined): McpConfig | undefined {
  if (option === undefined || option === false) return undefined
  if (option !== true && (typeof option !== 'object' || option === null))
    throw new TypeError('mcp must be true, false or { readOnly?, allowedOrigins?, toolsPageSize? }')
  const options: McpOptions = option === true ? {} : option
  if (options.readOnly !== undefined && typeof options.readOnly !== 'boolean')
    throw new TypeError('mcp.readOnly must be a boolean')
  const origins = options.allowedOrigins ?? []
  if (!Array.isArray(origins) || origins.some((origin) => typeof origin !== 'string'))
    throw new TypeError('mcp.allowedOrigins must be an array of origins such as https://portal.example')
  const pageSize = options.toolsPageSize ?? 100
  if (!Number.isSafeInteger(pageSize) || pageSize < 1)
    throw new TypeError('mcp.toolsPageSize must be a positive integer')
  return { readOnly: options.readOnly === true, allowedOrigins: new Set(origins), toolsPageSize: pageSize }
}
