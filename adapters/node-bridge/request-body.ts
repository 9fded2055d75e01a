/**
 * The request body as a Fetch `ReadableStream`: read from the IncomingMessage as the handler pulls
 * (so the API's size limit applies while it reads, and a paused socket pushes back on the client),
 * or, when a framework read the stream first, from the bytes it kept.
 */
import type { NodeIncoming } from './bridge-types.js'

/** What a body stream tells its request and asks of it. */
export interface BodyOwner {
  /** Called when the handler first reads a chunk (`request.bodyUsed` turns true). */
  markBodyUsed(): void
  /** Why the request was aborted (the client went away), if it was. */
  abortReason(): unknown
}

/** The error a body read fails with once the client has gone. */
export function clientGoneError(): DOMException {
  return new DOMException('The client closed the connection before the request was read', 'AbortError')
}

/**
 * The body, read as the handler pulls. Cancelling it stops reading and lets the rest of the body
 * be discarded; the connection is then closed after the response (see writeResponse).
 */
export function incomingBodyStream(incoming: NodeIncoming, owner: BodyOwner): ReadableStream<Uint8Array> {
  let cleanup = () => {}
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (incoming.readableEnded) {
          controller.close()
          return
        }
        if (incoming.destroyed) {
          controller.error(owner.abortReason() ?? clientGoneError())
          return
        }
        const onData = (chunk: Uint8Array) => {
          owner.markBodyUsed()
          controller.enqueue(chunk)
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause()
        }
        const onEnd = () => {
          cleanup()
          controller.close()
        }
        const onError = (error: unknown) => {
          cleanup()
          // Node reports a dropped upload as `Error: aborted` (ECONNRESET): it is the client's abort.
          const dropped = (error as { code?: unknown }).code === 'ECONNRESET' || (error as Error).message === 'aborted'
          controller.error(dropped ? (owner.abortReason() ?? clientGoneError()) : error)
        }
        const onClose = () => {
          if (incoming.readableEnded) return
          cleanup()
          controller.error(owner.abortReason() ?? clientGoneError())
        }
        cleanup = () => {
          incoming.off('data', onData)
          incoming.off('end', onEnd)
          incoming.off('error', onError)
          incoming.off('close', onClose)
        }
        incoming.on('data', onData)
        incoming.on('end', onEnd)
        incoming.on('error', onError)
        incoming.on('close', onClose)
      },
      pull() {
        incoming.resume()
      },
      cancel() {
        cleanup()
        // Discard what is still coming rather than leave it stuck in the socket.
        incoming.resume()
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
}

/** A body a framework already read (Express body parsers), as one chunk. */
export function bytesBodyStream(bytes: Uint8Array, owner: BodyOwner): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      owner.markBodyUsed()
      if (bytes.byteLength > 0) controller.enqueue(bytes)
      controller.close()
    },
  })
}

/**
 * `open()`'s stream, opened on the first read (or on cancel, which discards the rest), so that a
 * body nobody reads is never read from the socket: a native Request takes its body stream when it
 * is made, before the API knows whether it wants the body.
 */
export function lazyBodyStream(open: () => ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= open().getReader()
        const { done, value } = await reader.read()
        if (done) controller.close()
        else controller.enqueue(value)
      },
      cancel(reason) {
        return (reader ??= open().getReader()).cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}
