/**
 * `tenant-public-api/express`: the API as Express 4 or 5 middleware, typed structurally so that
 * nothing here needs `@types/express`.
 *
 * @example
 * import express from 'express'
 * import { toExpressMiddleware } from 'tenant-public-api/express'
 *
 * const app = express()
 * app.use(toExpressMiddleware(api)) // before or after express.json(): both work
 * app.listen(3000)
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  checkOptions,
  errorResponse,
  guardErrorListener,
  type OptionChecks,
  resolveRequestId,
  type ErrorCode,
  type PublicApiHandler,
} from 'tenant-public-api'
import type { NodeBridgeOptions } from './node-bridge/bridge-types.js'
import { requestFor } from './node-bridge/bridge-request.js'
import { BadRequestTargetError, badRequestTargetResponse } from './node-bridge/request-url.js'
import { respond, writeResponse } from './node-bridge/write-response.js'

export { clientAddress } from './client-address.js'

/** The parts of an Express request the mount reads (an Express `Request` is one). */
export interface ExpressRequestLike extends IncomingMessage {
  /** The URL before any router stripped its mount path. */
  originalUrl?: string
  /** Set by body parsers (`express.json()`, `express.text()`, `express.raw()`, ...). */
  body?: unknown
  /** Set by body parsers given a `verify` hook that keeps the raw bytes, by convention. */
  rawBody?: unknown
  /** Set by Express 4's body-parser once it has read the stream. */
  _body?: boolean
  /** The client address as Express computes it (honours the app's `trust proxy` setting). */
  ip?: string | undefined
}

/** Express's `next`. */
export type ExpressNext = (error?: unknown) => void
/** A request handler as Express calls it. */
export type ExpressHandler = (req: ExpressRequestLike, res: ServerResponse, next: ExpressNext) => void
/** An error handler as Express calls it (four parameters). */
export type ExpressErrorHandler = (
  error: unknown,
  req: ExpressRequestLike,
  res: ServerResponse,
  next: ExpressNext,
) => void

/** Options of {@link toExpressMiddleware}. */
export interface ExpressMiddlewareOptions extends Pick<NodeBridgeOptions, 'defaultHost'> {
  /** Must equal the API's `basePath`: requests outside it go on to the next middleware. Default `/api/public/v1`. */
  basePath?: string
  /**
   * Receives failures of the mount itself and unexpected errors raised before it. Default: `console.error`.
   * What it throws or rejects with is dropped with one line on stderr; the mount still answers.
   */
  onError?: (error: unknown) => void
}

/** What each option must be: an unknown key or a wrong type is a TypeError when the mount is made. */
const CHECKS: OptionChecks<ExpressMiddlewareOptions> = {
  basePath: (value) => (typeof value === 'string' ? undefined : 'must be a string'),
  defaultHost: (value) => (typeof value === 'string' ? undefined : 'must be a string'),
  onError: (value) => (typeof value === 'function' ? undefined : 'must be a function'),
}

/**
 * Express middleware serving the API under its base path, as a pair `[handler, errorHandler]` to
 * give to `app.use` (Express flattens it). The handler streams an unread request body to the API,
 * or, when a body parser already read it, hands the API the parsed body again (`rawBody` bytes,
 * a Buffer, a string, or the parsed value re-serialised as JSON). The error handler answers any
 * error raised before it for a request under the base path (a body parser's 413 or 400, say) in
 * the API's JSON Error shape rather than Express's HTML page. Mount it before body parsers to
 * keep the API's own order of checks (authentication before size) and its own 1 MiB limit.
 *
 * @example
 * const app = express()
 * app.use(express.json())           // optional: parsed bodies are used as parsed
 * app.use(toExpressMiddleware(api)) // serves /api/public/v1/*, passes anything else on
 */
export function toExpressMiddleware(
  api: PublicApiHandler,
  options: ExpressMiddlewareOptions = {},
): [ExpressHandler, ExpressErrorHandler] {
  checkOptions(options, CHECKS, { name: 'toExpressMiddleware' })
  const basePath = (options.basePath ?? '/api/public/v1').replace(/\/+$/, '')
  const onError = guardErrorListener(
    options.onError ?? ((error: unknown) => console.error('[tenant-public-api] express mount:', error)),
    'express mount onError',
  )
  const ours = (req: ExpressRequestLike) => {
    const path = req.originalUrl ?? req.url ?? '/'
    return path.startsWith(basePath) && (path.length === basePath.length || '/?'.includes(path[basePath.length]!))
  }

  const handler: ExpressHandler = (req, res, next) => {
    if (!ours(req)) return next()
    let request: Request
    try {
      request = requestFor(api, req, res, options, {
        target: req.originalUrl ?? req.url ?? '/',
        body: consumedBody(req),
        address: () => req.ip ?? req.socket?.remoteAddress,
      })
    } catch (error) {
      if (!(error instanceof BadRequestTargetError)) return next(error)
      return void writeResponse(badRequestTargetResponse(error, req), req, res).catch(onError)
    }
    respond(api, request, req, res).catch((error: unknown) => {
      onError(error)
      if (res.headersSent) res.destroy()
      else writeResponse(failure(req, 500, 'INTERNAL_ERROR', 'An unexpected error occurred'), req, res).catch(onError)
    })
  }

  const errorHandler: ExpressErrorHandler = (error, req, res, next) => {
    if (!ours(req) || res.headersSent) return next(error)
    const [status, code, message] = describe(error)
    if (status >= 500) onError(error)
    writeResponse(failure(req, status, code, message), req, res).catch(onError)
  }

  return [handler, errorHandler]
}

/** An Error-shape answer to a failure around the API, with the request id the client sent if it is valid. */
function failure(req: IncomingMessage, status: number, code: ErrorCode, message: string): Response {
  return errorResponse(status, code, message, resolveRequestId(firstHeader(req.headers['x-request-id'])))
}

function firstHeader(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null
}

/** The body a parser already read, as bytes for the API; `undefined` when the stream is still unread. */
function consumedBody(req: ExpressRequestLike): Uint8Array | undefined {
  const method = req.method
  if (method === 'GET' || method === 'HEAD') return undefined
  const consumed = req._body === true || req.readableEnded || (req.complete && !req.readable)
  if (!consumed) return undefined
  if (req.rawBody instanceof Uint8Array) return req.rawBody
  const body = req.body
  if (body instanceof Uint8Array) return body
  if (typeof body === 'string') return Buffer.from(body, 'utf8')
  if (body === undefined) {
    throw new Error(
      'The request body was read by another middleware that left neither req.body nor req.rawBody; ' +
        'mount the API before it',
    )
  }
  return Buffer.from(JSON.stringify(body), 'utf8')
}

/** A body-parser (or http-errors) error as the API's status, code and message. */
function describe(error: unknown): [number, ErrorCode, string] {
  const { status, statusCode, type, expose, message } = (error ?? {}) as {
    status?: unknown
    statusCode?: unknown
    type?: unknown
    expose?: unknown
    message?: unknown
  }
  const httpStatus = typeof status === 'number' ? status : typeof statusCode === 'number' ? statusCode : 500
  if (type === 'entity.too.large' || httpStatus === 413)
    return [413, 'PAYLOAD_TOO_LARGE', 'The request body is too large']
  if (type === 'entity.parse.failed')
    return [
      400,
      'INVALID_JSON',
      `The request body is not valid JSON${expose === true && typeof message === 'string' ? `: ${message}` : ''}`,
    ]
  if (type === 'encoding.unsupported' || type === 'charset.unsupported' || httpStatus === 415)
    return [
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'The request body must be JSON in UTF-8: send Content-Type: application/json',
    ]
  if (httpStatus === 400 || type === 'request.aborted' || type === 'request.size.invalid')
    return [400, 'INVALID_JSON', 'The request body could not be read']
  return [500, 'INTERNAL_ERROR', 'An unexpected error occurred']
}
