/**
 * The one way the Node mounts answer: a `Response` written to a Node response. The API's reply to
 * a bridge request, a lightweight response (recognised by its brand, from any copy of the package),
 * is written from its parts, body text included, in one `end()`; any other `Response` is streamed.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'
import type { NodeIncoming, NodeOutgoing } from './bridge-types.js'
import { replyParts } from './lightweight-response.js'

/** A native Response's headers as Node takes them (`Set-Cookie` kept apart, as separate lines). */
function headerRecord(headers: Headers): OutgoingHttpHeaders {
  const record: OutgoingHttpHeaders = {}
  for (const [name, value] of headers) {
    if (name !== 'set-cookie') record[name] = value
  }
  const cookies = headers.getSetCookie()
  if (cookies.length > 0) record['set-cookie'] = cookies
  return record
}

function waitForDrain(outgoing: NodeOutgoing): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done)
      outgoing.off('close', done)
      resolve()
    }
    outgoing.on('drain', done)
    outgoing.on('close', done)
  })
}

/**
 * The status line and headers. The `node:http2` compatibility API takes the same arguments, but its
 * `writeHead` overloads and `node:http`'s do not unify into a callable union (@types/node 22).
 */
function writeHead(outgoing: NodeOutgoing, status: number, headers: OutgoingHttpHeaders): void {
  ;(outgoing as ServerResponse).writeHead(status, headers)
}

const NOT_YET = Symbol('not yet')

/** The read's result if it settles before the event loop's next turn, else `NOT_YET` (the read goes on). */
function readSoon<T>(read: Promise<T>): Promise<T | typeof NOT_YET> {
  return Promise.race([read, new Promise<typeof NOT_YET>((resolve) => setImmediate(resolve, NOT_YET))])
}

/**
 * Writes a `Response` body. One that is complete by the event loop's next turn (a string, bytes or
 * a Blob a handler made) goes out in one write with `Content-Length`, as a reply would; any other
 * is streamed as it comes (chunked), waiting for `drain` whenever `write()` says the socket is
 * full, and stopping when the client goes away.
 */
async function writeBody(
  body: ReadableStream<Uint8Array>,
  status: number,
  headers: OutgoingHttpHeaders,
  outgoing: NodeOutgoing,
): Promise<void> {
  const reader = body.getReader()
  const stop = () => void reader.cancel().catch(() => {})
  outgoing.on('close', stop)
  try {
    const ready: Uint8Array[] = []
    let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined
    for (let reads = 0; reads < 2 && pending === undefined; reads++) {
      const read = reader.read()
      const result = await readSoon(read)
      if (result === NOT_YET) pending = read
      else if (result.done) {
        const whole = ready.length === 1 ? ready[0]! : Buffer.concat(ready)
        headers['content-length'] ??= String(whole.byteLength)
        writeHead(outgoing, status, headers)
        ;(outgoing as ServerResponse).end(whole)
        return
      } else ready.push(result.value)
    }
    writeHead(outgoing, status, headers)
    for (const chunk of ready) (outgoing as ServerResponse).write(chunk)
    for (;;) {
      const { done, value } = await (pending ?? reader.read())
      pending = undefined
      if (done) break
      if (outgoing.destroyed) return
      if (!(outgoing as ServerResponse).write(value)) await waitForDrain(outgoing)
    }
    outgoing.end()
  } catch (error) {
    outgoing.destroy(error instanceof Error ? error : new Error(String(error)))
  } finally {
    outgoing.off('close', stop)
  }
}

/**
 * Writes a Fetch `Response` to a Node response: status, headers, then the body. The API's replies
 * to the bridge's requests go out from their parts (no native `Response` is ever built for them),
 * unless something used them as a native one in between. Any other body is read
 * from its stream: in one write with `Content-Length` when it is complete at once, else chunked,
 * with back-pressure. When the request body was not read to its end (a 413, or an answer that did
 * not need it), the HTTP/1 connection is closed after the response instead of being kept alive
 * with unread bytes in it.
 *
 * @example
 * await writeResponse(await api(request), req, res)
 */
export async function writeResponse(response: Response, incoming: NodeIncoming, outgoing: NodeOutgoing): Promise<void> {
  const parts = replyParts(response)
  if (outgoing.destroyed) {
    // The client is gone: nothing to write, but release a streamed body's source.
    if (parts === undefined) await response.body?.cancel().catch(() => {})
    return
  }
  // A reply's headers are its own (one per request): written as they are, transport headers added.
  const headers: OutgoingHttpHeaders = parts !== undefined ? parts.headers : headerRecord(response.headers)
  if (!incoming.complete && incoming.httpVersionMajor === 1) headers.connection = 'close'
  const body = parts !== undefined ? parts.body : response.body
  if (typeof body === 'string') {
    headers['content-length'] = String(Buffer.byteLength(body))
    writeHead(outgoing, response.status, headers)
    // Written as it is: a string goes out as UTF-8 without an intermediate copy.
    ;(outgoing as ServerResponse).end(body)
    return
  }
  if (body !== null) return writeBody(body, response.status, headers, outgoing)
  writeHead(outgoing, response.status, headers)
  outgoing.end()
}

/**
 * Calls a Fetch handler with a request and writes what it answers; a throw or rejection of the
 * handler rejects (the mount answers it).
 *
 * @example
 * respond(api, createNodeRequest(req, res), req, res).catch(onError)
 */
export async function respond(
  handler: (request: Request) => Promise<Response>,
  request: Request,
  incoming: NodeIncoming,
  outgoing: NodeOutgoing,
): Promise<void> {
  return writeResponse(await handler(request), incoming, outgoing)
}
