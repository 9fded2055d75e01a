/**
 * `@modelcontextprotocol/sdk`, an optional peer: loaded with a dynamic import once an API is created
 * with `mcp` on, so a host without the endpoint never loads it (docs/mcp.md).
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
      throw new Error(
        'createPublicApi({ mcp }) needs the optional peer @modelcontextprotocol/sdk (1.32 or later): ' +
          'npm install @modelcontextprotocol/sdk',
        { cause },
      )
    },
  )
  return loading
}
