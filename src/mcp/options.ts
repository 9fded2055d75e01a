/**
 * `createPublicApi({ mcp })`: the options of the MCP endpoint (docs/mcp.md), checked once when the
 * API is created.
 */
import { checkOptions, is, type OptionChecks, show } from '../model/options.js'
import { type Resolve, runtimeResolve, SDK_MISSING, sdkStatus } from './sdk.js'

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
const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024
/** The least answer budget: room for every error a batch's messages can answer (docs/mcp.md). */
const MIN_MAX_ANSWER_BYTES = 64 * 1024

/** {@link McpOptions} with every default applied. */
export interface McpConfig {
  readOnly: boolean
  allowedOrigins: ReadonlySet<string>
  toolsPageSize: number
  maxAnswerBytes: number
}

/** What each option must be (src/model/options.ts states how a problem is reported). */
const CHECKS: OptionChecks<McpOptions> = {
  readOnly: is.boolean,
  allowedOrigins: (value) => {
    if (!Array.isArray(value)) return 'must be an array of origins such as https://portal.example'
    const bad = value.find((origin) => typeof origin !== 'string' || !isOrigin(origin))
    return bad === undefined
      ? undefined
      : `must hold origins such as https://portal.example (scheme://host[:port], nothing more), not ${show(bad)}`
  },
  toolsPageSize: is.integer(1),
  maxAnswerBytes: (value) =>
    Number.isSafeInteger(value) && (value as number) >= MIN_MAX_ANSWER_BYTES
      ? undefined
      : `must be an integer of at least ${MIN_MAX_ANSWER_BYTES} (64 KiB)`,
}

/** Whether `text` is an origin exactly as a browser sends it in `Origin`. */
function isOrigin(text: string): boolean {
  try {
    return new URL(text).origin === text
  } catch {
    return false
  }
}

/**
 * Checks and completes `createPublicApi`'s `mcp` option; undefined when the endpoint is off. Unknown
 * keys and values of the wrong kind are a TypeError naming each of them, as is `mcp` on where
 * `@modelcontextprotocol/sdk` is not installed (when the runtime can tell: src/mcp/sdk.ts).
 *
 * @example
 * mcpConfig(true) // { readOnly: false, allowedOrigins: Set(0) {}, toolsPageSize: 100, maxAnswerBytes: 4194304 }
 * mcpConfig({ readonly: true }) // TypeError: mcp has no option "readonly" (did you mean readOnly?) ...
 */
export function mcpConfig(
  option: boolean | McpOptions | undefined,
  resolve: Resolve | undefined = runtimeResolve(),
): McpConfig | undefined {
  if (option === undefined || option === false) return undefined
  if (option !== true && (typeof option !== 'object' || option === null || Array.isArray(option)))
    throw new TypeError(
      `mcp must be true, false or an object of options (${Object.keys(CHECKS).join(', ')}), not ${show(option)}`,
    )
  const options: McpOptions = option === true ? {} : option
  checkOptions(options, CHECKS, { name: 'mcp', prefix: 'mcp.' })
  if (sdkStatus(resolve) === 'missing') throw new TypeError(SDK_MISSING)
  return {
    readOnly: options.readOnly === true,
    allowedOrigins: new Set(options.allowedOrigins ?? []),
    toolsPageSize: options.toolsPageSize ?? 100,
    maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
  }
}
