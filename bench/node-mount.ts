/**
 * One request as the Node mount serves it, in process and without a socket: the mount's listener
 * (`toNodeHandler(handler)`, made once per handler) called with a stub of what node:http hands it
 * (a `Readable` carrying the body, when there is one) and a stub response that keeps what it is
 * given, so the handler gets the request the mount would give it (the API itself the bridge's
 * lightweight one, docs/mounts.md). The stubs answer what the bridge reads and writes
 * (adapters/node-bridge/). What the mount costs beyond the network, so a bench can compare a Fetch
 * handler's callers with a Node server's on the same requests (limits, mcp, operations).
 */
import { Readable } from 'node:stream'
import type * as CurrentNode from '../adapters/node.js'

/** A commit's Node mount: what the bench calls of it (the current one's, or an exported commit's). */
export type NodeMount = Pick<typeof CurrentNode, 'toNodeHandler'>

type Handler = (request: Request) => Promise<Response>
type Listener = ReturnType<NodeMount['toNodeHandler']>

/** Each mount's listener per handler, made once as a server makes it. */
const listeners = new WeakMap<NodeMount, WeakMap<Handler, Listener>>()

function listenerOf(node: NodeMount, handler: Handler): Listener {
  let byHandler = listeners.get(node)
  if (byHandler === undefined) listeners.set(node, (byHandler = new WeakMap()))
  let listener = byHandler.get(handler)
  if (listener === undefined) byHandler.set(handler, (listener = node.toNodeHandler(handler)))
  return listener
}

/** A request to pass through the mount: the target is the path and query, as node:http gives it. */
export interface MountRequest {
  method: string
  target: string
  headers: Record<string, string>
  body?: string
}

/** What the stub response was given: the status, and the body as written (decoded on demand). */
export interface MountAnswer {
  status: number
  text(): string
}

/**
 * Serves `request` through `node`'s bridge and `handler`, and returns what was written.
 *
 * @example
 * const answer = await throughNodeMount(node, api, { method: 'GET', target: '/api/public/v1/tickets', headers })
 * if (answer.status !== 200) throw new Error(answer.text())
 */
export async function throughNodeMount(
  node: NodeMount,
  handler: (request: Request) => Promise<Response>,
  request: MountRequest,
): Promise<MountAnswer> {
  const headers: Record<string, string> = { host: 'bench.local' }
  const rawHeaders = ['Host', 'bench.local']
  for (const name of Object.keys(request.headers)) {
    headers[name.toLowerCase()] = request.headers[name]!
    rawHeaders.push(name, request.headers[name]!)
  }
  const bytes = request.body === undefined ? undefined : Buffer.from(request.body)
  if (bytes !== undefined) {
    headers['content-length'] = String(bytes.byteLength)
    rawHeaders.push('Content-Length', String(bytes.byteLength))
  }
  const fields = {
    method: request.method,
    url: request.target,
    headers,
    rawHeaders,
    socket: {},
    complete: true,
    httpVersionMajor: 1,
  }
  // A body is read from the stream as node:http's IncomingMessage would give it; none is an ended stream.
  const stream = bytes === undefined ? { readableEnded: true, destroyed: false } : Readable.from([bytes])
  const incoming = Object.assign(stream, fields) as unknown as CurrentNode.NodeIncoming
  let status = 0
  const chunks: Array<string | Uint8Array> = []
  let finished = () => {}
  const outgoing = {
    destroyed: false,
    writableFinished: false,
    on: () => outgoing,
    off: () => outgoing,
    writeHead: (code: number) => {
      status = code
      return outgoing
    },
    write: (chunk: string | Uint8Array) => {
      chunks.push(chunk)
      return true
    },
    end: (chunk?: string | Uint8Array) => {
      if (chunk !== undefined) chunks.push(chunk)
      outgoing.writableFinished = true
      finished()
    },
  }
  const stub = outgoing as unknown as CurrentNode.NodeOutgoing
  await new Promise<void>((resolve) => {
    finished = resolve
    listenerOf(node, handler)(incoming, stub)
  })
  return {
    status,
    // Decoded only when asked: a bench may read the status alone.
    text: () => {
      const decoder = new TextDecoder()
      return chunks.map((chunk) => (typeof chunk === 'string' ? chunk : decoder.decode(chunk))).join('')
    },
  }
}
