/** A small client for driving a handler in tests: JSON in, parsed JSON out, every response observed. */
import type { ResponseOf } from '../client/types.js'
import type { PublicApiHandler } from '../create-public-api.js'
import type { ErrorBody, ValidationIssue } from '../http/errors.js'
import { checkOptions, is, type OptionChecks } from '../model/options.js'
import type { OperationId } from '../operations/index.js'

/** What {@link Harness.call} sends. */
export interface CallOptions {
  /** A JSON body (sent with `Content-Type: application/json` unless `headers` says otherwise). */
  body?: unknown
  /** A raw body, sent as is. */
  rawBody?: BodyInit
  /** Extra request headers. */
  headers?: Record<string, string>
  /** The bearer token; `null` sends no Authorization header. Default: the harness's key. */
  key?: string | null
}

/**
 * An operation's answer as a test reads it, for {@link Harness.call}'s type parameter: the success
 * body (the client's `ResponseOf<K>`, envelope included) with the Error shape's fields optional,
 * since one call may answer either. Without it, `body` is `unknown`.
 *
 * @example
 * const { status, body } = await h.call<Reply<'getTicket'>>('GET', `/tickets/${id}`)
 * console.log(status === 200 ? body.data.title : body.code)
 */
export type Reply<K extends OperationId> = ResponseOf<K> & Partial<ErrorBody>

/** A `VALIDATION_ERROR` answer as a test reads it: `details` lists every problem found. */
export type ValidationErrorReply = ErrorBody & { details: ValidationIssue[] }

/** What {@link Harness.call} returns. */
export interface CallResult<T = unknown> {
  status: number
  headers: Headers
  /** The parsed JSON body, or `undefined` when the body is empty. */
  body: T
  request: Request
}

/** Drives one handler. */
export interface Harness {
  call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>
}

/** Options of {@link createHarness}. */
export interface HarnessOptions {
  /** The bearer key of every call that names none. */
  key?: string
  /** Default `/api/public/v1`. */
  basePath?: string
  /** Default `http://api.test`. */
  origin?: string
  /** Sees every result. */
  onResponse?: (result: CallResult) => void | Promise<void>
}

const CHECKS: OptionChecks<HarnessOptions> = {
  key: is.string,
  basePath: is.string,
  origin: is.string,
  onResponse: is.function,
}

/**
 * Wraps a handler for tests. `path` is relative to the base path; `onResponse` sees every result
 * (our own suite checks each one against the OpenAPI document there).
 *
 * @example
 * const h = createHarness(api, { key: testKey('tenant-a') })
 * const { status, body } = await h.call('GET', '/tickets?limit=5')
 */
export function createHarness(api: PublicApiHandler, options: HarnessOptions = {}): Harness {
  checkOptions(options, CHECKS, { name: 'createHarness' })
  const base = `${options.origin ?? 'http://api.test'}${options.basePath ?? '/api/public/v1'}`
  return {
    async call<T = unknown>(method: string, path: string, call: CallOptions = {}): Promise<CallResult<T>> {
      const headers = new Headers(call.headers)
      const key = call.key === undefined ? options.key : call.key
      if (key !== null && key !== undefined && !headers.has('authorization'))
        headers.set('authorization', `Bearer ${key}`)
      let body: BodyInit | undefined = call.rawBody
      if (call.body !== undefined) {
        body = JSON.stringify(call.body)
        if (!headers.has('content-type')) headers.set('content-type', 'application/json')
      }
      const request = new Request(base + path, { method, headers, body })
      const response = await api(request.clone())
      const text = await response.text()
      const result: CallResult = {
        status: response.status,
        headers: response.headers,
        body: text === '' ? undefined : JSON.parse(text),
        request,
      }
      await options.onResponse?.(result)
      // T is the shape the caller expects, unchecked here (our suite's onResponse checks the contract).
      return result as CallResult<T>
    },
  }
}
