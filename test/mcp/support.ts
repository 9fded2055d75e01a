/**
 * MCP test helpers: the SDK's own Client over its StreamableHTTPClientTransport, pointed at a Fetch
 * handler in-process or at a URL, and the arguments of each tool from the conformance samples.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { SAMPLES } from '../../src/testing/conformance/samples.js'
import type { FixtureIds } from '../../src/testing/conformance/fixtures.js'

/** An MCP client with `key`, connected (initialized) to the endpoint at `url`, through `fetch` when given. */
export async function mcpClient(
  url: string,
  key: string | null,
  fetch?: (request: Request) => Promise<Response>,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'tenant-public-api-tests', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { ...headers, ...(key === null ? {} : { authorization: `Bearer ${key}` }) } },
    ...(fetch === undefined ? {} : { fetch: (input, init) => fetch(new Request(input, init)) }),
  })
  await client.connect(transport)
  return client
}

/** The arguments of a call of `tool` made of its conformance sample on the fixture tenant `ids`. */
export function sampleArguments(tool: string, ids: FixtureIds): Record<string, unknown> {
  const sample = SAMPLES[tool]
  if (sample === undefined) throw new Error(`No sample for ${tool}`)
  const args: Record<string, unknown> = {}
  if (sample.id !== undefined) args.id = sample.id(ids)
  for (const [name, value] of new URLSearchParams(sample.query ?? '')) args[name] = value
  Object.assign(args, sample.body ?? {})
  return args
}

/** A tool result as the tests read it. */
export interface ToolResult {
  isError?: boolean
  structuredContent?: Record<string, unknown>
  content: Array<{ type: string; text?: string }>
  _meta?: Record<string, unknown>
}

/**
 * A raw MCP POST of `body` (JSON, or text as it is) to `api` at `url` with `key`, the headers the
 * transport requires and `headers` over them: for what the SDK's client would never send.
 */
export function mcpPost(
  api: (request: Request) => Promise<Response>,
  url: string,
  key: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return api(
    new Request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  )
}
