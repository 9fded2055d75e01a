/**
 * `tenant-public-api/client`: a typed client of the API for Node, Bun, Deno and browsers.
 *
 * @example
 * import { createClient } from 'tenant-public-api/client'
 * const client = createClient({ baseUrl: 'https://portal.example.com', apiKey })
 * const { data } = await client.getTicket('T-1001', { includeNotes: true })
 */
export {
  createClient,
  isRetrySafe,
  retryAfterMs,
  type Client,
  type ClientOptions,
  type FetchLike,
  type TailEventsOptions,
} from './create-client.js'
export { ApiResponseError, type ApiResponseErrorCode } from './errors.js'
export { CLIENT_ROUTES, type ClientRoute } from './routes.js'
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookHeaders } from './verify-webhook.js'
export type {
  ArgsOf,
  BodyOf,
  IdempotencyOptions,
  IfMatchOptions,
  FeedOperationId,
  ItemOf,
  ListOperationId,
  OperationMethods,
  OptionsOf,
  Paginators,
  QueryOf,
  RequestOptions,
  ResponseOf,
} from './types.js'
export type { OperationId } from '../operations/index.js'
export type { ErrorCode } from '../http/errors.js'
