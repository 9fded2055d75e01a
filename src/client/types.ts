/**
 * The client's method types, derived from the server's registry (`typeof operationsById`) and its
 * valibot schemas: bodies are `v.InferInput` of the body schema, answers `v.InferOutput` of the
 * response schema. Query parameters are all strings on the wire, so their `InferInput` would be
 * `{ page?: string }`; the client takes the parsed types instead (`{ page?: number }`) and writes
 * them out, which is what a caller means.
 */
import type * as v from 'valibot'
import type { OperationId, operationsById } from '../operations/index.js'
import type { CLIENT_ROUTES } from './routes.js'

type Ops = typeof operationsById
type Routes = typeof CLIENT_ROUTES
type Schema = v.GenericSchema<unknown, unknown>

/** The query object an operation takes: every parameter optional, in its parsed type. */
export type QueryOf<K extends OperationId> = Ops[K]['query'] extends Schema
  ? { [P in keyof v.InferOutput<Ops[K]['query']>]?: v.InferOutput<Ops[K]['query']>[P] | undefined }
  : never

/** The JSON body an operation takes (`v.InferInput` of its body schema). */
export type BodyOf<K extends OperationId> = Ops[K]['body'] extends Schema ? v.InferInput<Ops[K]['body']> : never

/** What an operation answers with on success (`v.InferOutput` of its response schema, envelope included). */
export type ResponseOf<K extends OperationId> = v.InferOutput<Ops[K]['response']>

/** The ids of the operations that answer a page of a list. */
export type ListOperationId = { [K in OperationId]: Routes[K] extends { list: true } ? K : never }[OperationId]

/** The ids of the operations walked with `after` (the events feed). */
export type FeedOperationId = { [K in OperationId]: Routes[K] extends { feed: true } ? K : never }[OperationId]

/** One item of a list operation's `data`. */
export type ItemOf<K extends ListOperationId | FeedOperationId> =
  ResponseOf<K> extends { data: ReadonlyArray<infer T> } ? T : never

/** Options every call takes. */
export interface RequestOptions {
  /** Cancels the call, including any wait between retries. */
  signal?: AbortSignal
  /** Extra request headers. */
  headers?: Record<string, string>
  /** Sent as `X-Request-Id` (1..128 of `[A-Za-z0-9._:-]`) to correlate with server logs. */
  requestId?: string
  /** Overrides the client's `retries` for this call. */
  retries?: number
}

/** `Idempotency-Key` for operations that accept one. */
export interface IdempotencyOptions {
  /**
   * Reuse one key to make a later, separate call a replay of an earlier one. Default: a new UUID per
   * call, reused across that call's retries.
   */
  idempotencyKey?: string
}

/** `If-Match` for operations that take one. */
export interface IfMatchOptions {
  /** The `version` you read; the update is refused with 412 `PRECONDITION_FAILED` if it has moved on. */
  ifMatch?: number | string
}

/** The options of operation `K`. */
export type OptionsOf<K extends OperationId> = RequestOptions &
  (Routes[K] extends { idempotent: true } ? IdempotencyOptions : unknown) &
  (Routes[K] extends { ifMatch: true } ? IfMatchOptions : unknown)

type PathArgs<K extends OperationId> = Ops[K]['params'] extends Schema ? [id: string] : []
type InputArgs<K extends OperationId> = Ops[K]['body'] extends Schema
  ? [body: BodyOf<K>]
  : Ops[K]['query'] extends Schema
    ? [query?: QueryOf<K>]
    : []

/** The arguments of the client method for operation `K`: `(id?, body | query?, options?)`. */
export type ArgsOf<K extends OperationId> = [...PathArgs<K>, ...InputArgs<K>, options?: OptionsOf<K>]

/** One method per operation, named by operation id. */
export type OperationMethods = { [K in OperationId]: (...args: ArgsOf<K>) => Promise<ResponseOf<K>> }

/** One async iterator per list operation: every item of every page. */
export type Paginators = {
  [K in ListOperationId | FeedOperationId]: (
    query?: QueryOf<K>,
    options?: RequestOptions,
  ) => AsyncIterableIterator<ItemOf<K>>
}
