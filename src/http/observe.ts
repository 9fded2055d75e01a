/**
 * `onResponse`: one event per response, for access logs and metrics (docs/observability.md).
 * The pipeline fills the request state as it goes; this turns it into the event once the
 * response is final. A listener that throws or rejects never changes the response.
 */
import type { ErrorCode } from './errors.js'

/**
 * What {@link ResponseListener} receives once per response. `null` where the request never got
 * that far (no route matched, no key resolved, no error).
 *
 * @example
 * const event: ResponseEvent = {
 *   requestId: '3f1c…', operationId: 'listTickets', route: '/api/public/v1/tickets', method: 'GET',
 *   status: 200, durationMs: 1.7, tenantId: 'tenant-1', keyId: 'key-1', errorCode: null,
 * }
 */
export interface ResponseEvent {
  /** The response's `X-Request-Id`. */
  requestId: string
  /** The operation's id (`listTickets`), or null for a path no operation serves. */
  operationId: string | null
  /** The matched route template with the base path (`/api/public/v1/tickets/{id}`), or null for no match. */
  route: string | null
  /** The request's method, as sent (`HEAD` stays `HEAD`). */
  method: string
  /** The response's status. */
  status: number
  /** Milliseconds from the request reaching the handler to the response being ready. */
  durationMs: number
  /** The authenticated key's tenant, or null before (or without) authentication. */
  tenantId: string | null
  /** The authenticated key's id, or null before (or without) authentication. */
  keyId: string | null
  /** The Error body's `code` for error responses, else null. */
  errorCode: ErrorCode | null
  /** The MCP tool, when the request is a `tools/call` of the MCP endpoint (docs/mcp.md); absent otherwise. */
  tool?: string
}

/**
 * Called once per response of the API with its {@link ResponseEvent}; what it returns is ignored
 * and what it throws (or a promise it returns rejects with) goes to `onError`, never to the client.
 *
 * @example
 * const onResponse: ResponseListener = (event) => logger.info(event, 'request')
 */
export type ResponseListener = (event: ResponseEvent) => void | Promise<void>

/** What the pipeline knows about a request when its response is ready. */
export interface ObservedState {
  requestId: string
  startedAt: number
  operationId: string | null
  route: string | null
  tenantId: string | null
  keyId: string | null
  errorCode: ErrorCode | null
  tool?: string | undefined
}

/** Receives an unexpected error of a request (`createPublicApi`'s `onError`). */
export type ErrorListener = (error: unknown, context: { request: Request; requestId: string }) => void

/**
 * `onError` as the pipeline (and each mount) calls it: it never throws, and a promise it returns
 * never rejects unhandled (Node ends the process on those). What it throws or rejects with is
 * dropped with one line on stderr naming `name`: the host's logger is down, and there is nobody
 * else to tell.
 *
 * @example
 * const onError = guardErrorListener(options.onError ?? console.error, 'node mount onError')
 */
export function guardErrorListener<A extends unknown[]>(
  listener: (...args: A) => unknown,
  name = 'onError',
): (...args: A) => void {
  const drop = (failure: unknown) => dropListenerFailure(name, failure)
  return (...args) => {
    try {
      settle(listener(...args), drop)
    } catch (failure) {
      drop(failure)
    }
  }
}

/** Hands a rejection (or a thenable whose `then` throws) of a listener's result to `report`. */
function settle(result: unknown, report: (error: unknown) => void): void {
  // Promise.resolve adopts any thenable and turns a throwing `then` (or getter) into a rejection.
  if ((typeof result === 'object' && result !== null) || typeof result === 'function')
    Promise.resolve(result).then(undefined, report)
}

/** Longest failure text of the one stderr line: a dropped failure may be anything, of any length. */
const MAX_DROPPED_TEXT = 200

function dropListenerFailure(name: string, failure: unknown): void {
  try {
    let text: string
    try {
      text = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure)
    } catch {
      text = 'a value that cannot be printed'
    }
    text = text.replace(/\s+/g, ' ').slice(0, MAX_DROPPED_TEXT)
    console.error(`[tenant-public-api] ${name} failed, its failure dropped: ${text}`)
  } catch {
    // Not even stderr: dropped without a word.
  }
}

/**
 * Tells `listener` about a finished response; its throws and rejections go to `report` (a guarded
 * `onError`, which never throws), never to the client.
 */
export function notifyResponse(
  listener: ResponseListener,
  method: string,
  status: number,
  state: ObservedState,
  report: (error: unknown) => void,
): void {
  const event: ResponseEvent = {
    requestId: state.requestId,
    operationId: state.operationId,
    route: state.route,
    method,
    status,
    durationMs: performance.now() - state.startedAt,
    tenantId: state.tenantId,
    keyId: state.keyId,
    errorCode: state.errorCode,
  }
  if (state.tool !== undefined) event.tool = state.tool
  try {
    settle(listener(event) as unknown, report)
  } catch (error) {
    report(error)
  }
}
