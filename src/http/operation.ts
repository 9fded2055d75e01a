import type * as v from 'valibot'
import type { SeededCollection } from '../model/index.js'
import type { Store } from '../ports/store.js'
import type { Principal, Scope } from './auth.js'
import type { ErrorCode } from './errors.js'

/** The HTTP methods operations use. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE'

type Schema = v.GenericSchema<unknown, unknown>
type Output<S> = S extends Schema ? v.InferOutput<S> : undefined

/** What an operation's handler receives, already authenticated, authorised and validated. */
export interface OperationContext<P, Q, B> {
  /** The operation's `id` (what a list's cursors bind). */
  operationId: string
  request: Request
  /** The request's URL, parsed once per request (read it here rather than parsing `request.url` again). */
  url: URL
  requestId: string
  principal: Principal
  /** The principal's tenant: every store call is scoped to it. */
  tenantId: string
  params: P
  query: Q
  body: B
  store: Store
  /** The request's clock reading: every timestamp one request writes is the same. */
  now: Date
  /** The API's base path, e.g. `/api/public/v1`, for `Location` headers. */
  basePath: string
  /**
   * `createPublicApi({ publicOrigin })`, e.g. `https://portal.example`: what a `Link` URL starts with.
   * Null when not configured: a `Link` is then a relative reference, never built from the request's `Host`.
   */
  publicOrigin: string | null
  /** `createPublicApi({ webhooks })`: whether webhook URLs may be `http` or private (development). */
  webhooks: { allowInsecureUrls: boolean }
  /** `createPublicApi({ maxEventsPageBytes })`: the byte budget of a page of `GET /events`. */
  maxEventsPageBytes: number
}

/**
 * The collection a read operation serves, stated as data (`readList` and `readOne`, src/operations/reads.ts):
 * a page of its list, or one record by id. The registry thus knows what each read reads; the conformance
 * kit's list checks loop over it.
 */
export interface OperationReads {
  readonly collection: SeededCollection
  readonly kind: 'list' | 'one'
}

/** What a handler returns: the success status, the body and any extra headers. */
export interface OperationResult {
  status: number
  body: unknown
  headers?: Record<string, string>
}

/**
 * One operation of the API, declared once. The registry of these drives the router, request
 * validation, the TypeScript types, the OpenAPI document and the tests.
 */
export interface Operation<
  PS extends Schema | undefined = Schema | undefined,
  QS extends Schema | undefined = Schema | undefined,
  BS extends Schema | undefined = Schema | undefined,
  RS extends Schema = Schema,
> {
  /** The OpenAPI `operationId` and the typed client's method name, e.g. `listTickets`. */
  id: string
  method: HttpMethod
  /** Relative to the base path, itty-router syntax: `/tickets/:id`. */
  path: string
  /** The area (OpenAPI tag), e.g. `Tickets`. */
  area: string
  summary: string
  description?: string
  scope: Scope
  /** Path parameters; a value that fails it is answered 404, exactly like an unknown id. */
  params?: PS
  /** Query parameters (all strings on the wire); unknown ones are a 400. */
  query?: QS
  /** The JSON body; its presence makes the operation require `Content-Type: application/json`. */
  body?: BS
  /** The success body, envelope included. */
  response: RS
  successStatus: 200 | 201
  /** Response headers the operation sets on success, for the document. */
  responseHeaders?: Record<string, string>
  /** Errors this operation can give beyond those every authenticated operation can. */
  errors: readonly ErrorCode[]
  /** Accepts `Idempotency-Key`: a retried request replays the first response. */
  idempotent?: boolean
  /** The collection it reads, for a read made by `readList` or `readOne`. */
  reads?: OperationReads
  handle(context: OperationContext<Output<PS>, Output<QS>, Output<BS>>): Promise<OperationResult>
}

/** Any operation of the registry. */
export type AnyOperation = Operation<Schema | undefined, Schema | undefined, Schema | undefined, Schema>

/**
 * An operation as {@link defineOperation} returns it: usable wherever {@link AnyOperation} is, and
 * still carrying its own schema types, so that the typed client can infer its signatures.
 */
export type DefinedOperation<
  PS extends Schema | undefined = Schema | undefined,
  QS extends Schema | undefined = Schema | undefined,
  BS extends Schema | undefined = Schema | undefined,
  RS extends Schema = Schema,
> = AnyOperation & { readonly params: PS; readonly query: QS; readonly body: BS; readonly response: RS }

/**
 * Declares an operation with its handler typed from its schemas.
 *
 * @example
 * export const getPlannerItemType = defineOperation({
 *   id: 'getPlannerItemType', method: 'GET', path: '/planner/types/:id', area: 'Planner',
 *   summary: 'One planner item type', scope: 'planner.read', params: IdParams,
 *   response: dataEnvelope(PlannerItemTypeSchema), successStatus: 200, errors: ['NOT_FOUND'],
 *   handle: async ({ store, tenantId, params }) =>
 *     ok(await found(store.get(plannerItemTypes, tenantId, params.id), 'Planner item type')),
 * })
 */
export function defineOperation<
  PS extends Schema | undefined = undefined,
  QS extends Schema | undefined = undefined,
  BS extends Schema | undefined = undefined,
  RS extends Schema = Schema,
>(operation: Operation<PS, QS, BS, RS>): DefinedOperation<PS, QS, BS, RS> {
  return operation as unknown as DefinedOperation<PS, QS, BS, RS>
}

/**
 * Whether an operation takes `If-Match`: exactly those that can answer 412 `PRECONDITION_FAILED`
 * (the OpenAPI document declares the header and the client sends it by this one rule).
 *
 * @example
 * takesIfMatch(updateReport) // true
 */
export function takesIfMatch(operation: Pick<AnyOperation, 'errors'>): boolean {
  return operation.errors.includes('PRECONDITION_FAILED')
}
