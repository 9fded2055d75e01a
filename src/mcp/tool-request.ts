/**
 * The request object a `tools/call` runs through the API's handler as (docs/mcp.md). Not a native `Request`:
 * making one (its `AbortSignal` most of all) costs as much as the rest of a small call's own work
 * (bench/README.md#mcp-a-tool-call-beside-its-rest-request). It holds the members the pipeline reads of a
 * request (`method`, `url`, `headers` (what it reads of them), `body`, `signal`) and nothing else: no host
 * code is handed it (`keyResolver` is not asked again for a call, and `onError` is handed the MCP request the
 * call came in: src/http/tool-call.ts), and the MCP tests call every tool through it.
 */
import { MAKE_REPLY, type ReplyParts } from '../http/reply.js'

/** What a tool call's request is made of. */
export interface ToolRequestInit {
  method: string
  url: string
  headers: Record<string, string>
  /** The JSON body, or null for none. */
  body: string | null
  /** The MCP request, whose signal is the call's: a client that hangs up aborts its calls too. */
  received: Request
  /** The reply factory (src/http/reply.ts): the API hands it the call's finished reply. */
  makeReply: (parts: ReplyParts) => Response
}

/**
 * The request of one tool call, typed as the `Request` the API's handler takes.
 *
 * @example
 * const request = toolRequestOf({ method: 'GET', url, headers, body: null, received, makeReply })
 */
export function toolRequestOf(init: ToolRequestInit): Request {
  const request = {
    method: init.method,
    url: init.url,
    headers: toolHeaders(init.headers),
    body: init.body === null ? null : bytesStream(new TextEncoder().encode(init.body)),
    // Read only when asked (the pipeline asks on an error): a Node mount's request makes its signal when
    // first read, and an AbortSignal is dear (bench/README.md#mcp-a-tool-call-beside-its-rest-request).
    get signal() {
      return init.received.signal
    },
    [MAKE_REPLY]: init.makeReply,
  }
  // What the pipeline reads of a Request, and only that (see the file comment).
  return request as Pick<Request, 'method' | 'url' | 'headers' | 'body' | 'signal'> as Request
}

/**
 * The call's headers as the pipeline reads them (`get`, `has`, `keys`), holding each value as the
 * arguments gave it. A native `Headers` throws on a value no HTTP header can carry (CR, LF, NUL, a
 * character past U+00FF), which would make an argument a 500 before the scope check; held as it is,
 * such a value reaches the pipeline's header check (src/http/request-headers.ts) and is a 400, as
 * a REST request's bad header is. `init`'s names are lower-case.
 */
function toolHeaders(values: Record<string, string>): Headers {
  const map = new Map(Object.entries(values))
  const headers = {
    get: (name: string) => map.get(name.toLowerCase()) ?? null,
    has: (name: string) => map.has(name.toLowerCase()),
    keys: () => map.keys(),
  }
  return headers as Pick<Headers, 'get' | 'has' | 'keys'> as Headers
}

/** A stream of one chunk, as a request body read by the pipeline (src/http/body.ts). */
function bytesStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes)
      controller.close()
    },
  })
}
