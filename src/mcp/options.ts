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
  /**
   * The byte budget of one answer (the whole HTTP body, a lone message's or a batch's): a list tool's
   * page is cut to fit (with `nextCursor`), anything else that does not fit is an error naming it.
   * Default {@link DEFAULT_MAX_ANSWER_BYTES} (4 MiB); at least {@link MIN_MAX_ANSWER_BYTES} (64 KiB).
   */
  maxAnswerBytes?: number
}

/**
 * The default answer budget, 4 MiB: a REST events page at its default budget (1 MiB) fits whole,
 * its JSON being in an answer twice (`structuredContent` and the text block, where escaping can
 * double it).
 */
export const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024
/** The least answer budget: room for every error a batch's messages can answer (docs/mcp.md). */
export const MIN_MAX_ANSWER_BYTES = 64 * 1024

/** {@link McpOptions} with every default applied. */
export interface McpConfig {
  readOnly: boolean
  allowedOrigins: ReadonlySet<string>
  toolsPageSize: number
  maxAnswerBytes: number
}

/**
 * Checks and completes `createPublicApi`'s `mcp` option; undefined when the endpoint is off.
 *
 * @example
 * mcpConfig(true) // { readOnly: false, allowedOrigins: Set(0) {}, toolsPageSize: 100, maxAnswerBytes: 4194304 }
 */
export function mcpConfig(option: boolean | McpOptions | undefined): McpConfig | undefined {
  if (option === undefined || option === false) return undefined
  if (option !== true && (typeof option !== 'object' || option === null))
    throw new TypeError('mcp must be true, false or { readOnly?, allowedOrigins?, toolsPageSize?, maxAnswerBytes? }')
  const options: McpOptions = option === true ? {} : option
  if (options.readOnly !== undefined && typeof options.readOnly !== 'boolean')
    throw new TypeError('mcp.readOnly must be a boolean')
  const origins = options.allowedOrigins ?? []
  if (!Array.isArray(origins) || origins.some((origin) => typeof origin !== 'string'))
    throw new TypeError('mcp.allowedOrigins must be an array of origins such as https://portal.example')
  const pageSize = options.toolsPageSize ?? 100
  if (!Number.isSafeInteger(pageSize) || pageSize < 1)
    throw new TypeError('mcp.toolsPageSize must be a positive integer')
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES
  if (!Number.isSafeInteger(maxAnswerBytes) || maxAnswerBytes < MIN_MAX_ANSWER_BYTES)
    throw new TypeError(`mcp.maxAnswerBytes must be an integer of at least ${MIN_MAX_ANSWER_BYTES} (64 KiB)`)
  return {
    readOnly: options.readOnly === true,
    allowedOrigins: new Set(origins),
    toolsPageSize: pageSize,
    maxAnswerBytes,
  }
}
