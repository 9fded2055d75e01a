/**
 * `@modelcontextprotocol/sdk`, an optional peer: loaded with a dynamic import once an API is created
 * with `mcp` on, so a host without the endpoint never loads it (docs/mcp.md). Whether it is installed
 * is asked synchronously at creation, where the runtime can resolve a module without loading it.
 */
import type * as ServerModule from '@modelcontextprotocol/sdk/server/index.js'
import type * as TransportModule from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js'

/** What the MCP endpoint uses of the SDK. */
export interface Sdk {
  Server: typeof ServerModule.Server
  Transport: typeof TransportModule.WebStandardStreamableHTTPServerTransport
  McpError: typeof TypesModule.McpError
  ListToolsRequestSchema: typeof TypesModule.ListToolsRequestSchema
  CallToolRequestSchema: typeof TypesModule.CallToolRequestSchema
  InitializeRequestSchema: typeof TypesModule.InitializeRequestSchema
  supportedVersions: readonly string[]
}

// Variable specifiers, marked for webpack: bundlers must not try to resolve an optional peer.
const SERVER = '@modelcontextprotocol/sdk/server/index.js'
const TRANSPORT = '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
const TYPES = '@modelcontextprotocol/sdk/types.js'

/** What to install, in every message about a missing SDK. */
export const SDK_MISSING =
  'createPublicApi({ mcp }) needs the optional peer @modelcontextprotocol/sdk (1.32 or later): ' +
  'npm install @modelcontextprotocol/sdk'

/** Resolves a module specifier as the dynamic import of this module would, without loading it. */
export type Resolve = (specifier: string) => unknown

/** What the CommonJS build reads of its own `module`: Node's `Module`, whose `createRequire` is public. */
interface CommonJsModule {
  filename?: unknown
  constructor?: { createRequire?: unknown }
}

/**
 * The runtime's synchronous resolver, or undefined where there is none: `import.meta.resolve` in the
 * ESM build (Node 20, Bun, Deno), a `require` of its own module in the CommonJS build (where
 * `import.meta` is empty; made with `Module.createRequire`, since a bare `require` would make the
 * bundler add a `require` shim to the ESM build too). A bundler may offer neither (webpack and
 * Rspack make `import.meta.resolve` undefined): then the SDK is not looked for. The specifier is a
 * parameter, so no bundler takes it into its module graph.
 */
export function runtimeResolve(): Resolve | undefined {
  if (typeof import.meta.resolve === 'function') return (specifier) => import.meta.resolve(specifier)
  const own = typeof module === 'object' && module !== null ? (module as CommonJsModule) : undefined
  const createRequire = own?.constructor?.createRequire
  if (typeof createRequire !== 'function' || typeof own?.filename !== 'string') return undefined
  const ownRequire = (createRequire as (filename: string) => NodeJS.Require)(own.filename)
  return (specifier) => ownRequire.resolve(specifier)
}

/** The codes Node (and Bun) give a specifier whose package is not installed, for `import` and `require`. */
const NOT_FOUND_CODES: ReadonlySet<unknown> = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND'])

/**
 * Whether the SDK is installed: `missing` only when `resolve` says its modules are not found; where
 * there is no resolver, or it fails otherwise, `unknown` (then the first MCP request tells `onError`).
 *
 * @example
 * sdkStatus(runtimeResolve()) // 'installed'
 */
export function sdkStatus(resolve: Resolve | undefined): 'installed' | 'missing' | 'unknown' {
  if (resolve === undefined) return 'unknown'
  try {
    for (const specifier of [SERVER, TRANSPORT, TYPES]) resolve(specifier)
    return 'installed'
  } catch (error) {
    return NOT_FOUND_CODES.has((error as { code?: unknown } | null)?.code) ? 'missing' : 'unknown'
  }
}

let loading: Promise<Sdk> | undefined

/** A module's named exports, or (a CommonJS copy loaded through import()) everything on `default`. */
function named<T extends object>(module: T, probe: keyof T): T {
  return module[probe] !== undefined ? module : (module as unknown as { default: T }).default
}

/**
 * The SDK, loaded once per process; rejects with a message saying what to install when it is missing.
 *
 * @example
 * const { Server } = await loadSdk()
 */
export function loadSdk(): Promise<Sdk> {
  loading ??= Promise.all([
    import(/* webpackIgnore: true */ /* @vite-ignore */ SERVER) as Promise<typeof ServerModule>,
    import(/* webpackIgnore: true */ /* @vite-ignore */ TRANSPORT) as Promise<typeof TransportModule>,
    import(/* webpackIgnore: true */ /* @vite-ignore */ TYPES) as Promise<typeof TypesModule>,
  ]).then(
    ([serverModule, transportModule, typesModule]) => {
      const server = named(serverModule, 'Server')
      const transport = named(transportModule, 'WebStandardStreamableHTTPServerTransport')
      const types = named(typesModule, 'McpError')
      return {
        Server: server.Server,
        Transport: transport.WebStandardStreamableHTTPServerTransport,
        McpError: types.McpError,
        ListToolsRequestSchema: types.ListToolsRequestSchema,
        CallToolRequestSchema: types.CallToolRequestSchema,
        InitializeRequestSchema: types.InitializeRequestSchema,
        supportedVersions: types.SUPPORTED_PROTOCOL_VERSIONS,
      }
    },
    (cause: unknown) => {
      throw new Error(SDK_MISSING, { cause })
    },
  )
  return loading
}
