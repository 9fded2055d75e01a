/**
 * tenant-public-api: the public REST API of a multi-tenant IT-management portal as a Fetch handler.
 *
 * @example
 * import { createPublicApi, createMemoryStore } from 'tenant-public-api'
 * const api = createPublicApi({ store: createMemoryStore(), keyResolver })
 */
export { createPublicApi, type PublicApiHandler, type PublicApiOptions } from './create-public-api.js'

// Stores
export { createMemoryStore, type MemoryStore, type MemoryStoreOptions } from './stores/memory/memory-store.js'
export {
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyReservation,
  type ListResult,
  type NamedRef,
  type SeedOptions,
  type Store,
  type StoredResponse,
  StoreUnavailableError,
} from './ports/store.js'
export { RecordNotFoundError, VersionMismatchError } from './model/errors.js'
export type { WebhookDeliveryRecord, WebhookStore } from './ports/webhook-store.js'
export type {
  FinishedWebhookJob,
  NewWebhookJob,
  WebhookDispatchStore,
  WebhookFanOutClaim,
  WebhookJob,
  WebhookJobFinish,
  WebhookJobOutcome,
} from './ports/webhook-dispatch.js'
export type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointRecord,
  WebhookSecret,
} from './model/webhook-endpoints.js'
export {
  normalizeSeed,
  type BudgetRecord,
  type NormalizedSeed,
  type SeedData,
  type SeedRecord,
  type TrainingCourseRecord,
} from './model/seed.js'
export {
  normalizeRemoval,
  type RemoveIds,
  SYNC_COLLECTIONS,
  type SyncCollection,
} from './model/removal.js'
export {
  changeOf,
  EVENT_RESOURCE_TYPES,
  EVENT_TYPES,
  type Event,
  type EventAction,
  type EventActor,
  type EventDraft,
  type EventList,
  type EventListQuery,
  type EventResourceType,
  EventSchema,
  type EventType,
  eventId,
  eventPosition,
  SYNC_ACTOR,
  type WriteContext,
} from './model/events.js'
export type { EventPage, EventQuery } from './ports/event-feed.js'
export { authorOf, EVENT_RETENTION_MS, EventLog, eventOf, isExpired } from './stores/event-feed.js'
export { EVENT_RESOURCE_OF, eventView, type StoredState, syncChange, type ViewLookups } from './stores/event-views.js'

// API keys for hosts (docs/api-keys.md)
export {
  createApiKeys,
  LAST_USED_INTERVAL_MS,
  type ApiKeys,
  type ApiKeysOptions,
  type CreateApiKeyInput,
  type CreatedApiKey,
  type RollApiKeyOptions,
} from './http/api-keys.js'
export * from './model/api-keys.js'
export type { ApiKeyMethods } from './ports/store.js'

// Authentication, scopes, rate limiting, errors
export {
  bearerToken,
  grantingScopes,
  hasScope,
  SCOPES,
  type KeyResolver,
  type Principal,
  type RateLimitRule,
  type Scope,
} from './http/auth.js'
export { InvalidPrincipalError, PrincipalSchema, RateLimitRuleSchema } from './http/principal.js'
export {
  memoryRateLimiter,
  type MemoryRateLimiterOptions,
  type RateLimiter,
  type RateLimitResult,
} from './http/rate-limit.js'
export {
  ApiError,
  ERROR_STATUS,
  isErrorCode,
  type ErrorBody,
  type ErrorCode,
  type ValidationIssue,
} from './http/errors.js'

// Answers: every one is a Response; on Node the API's own are lightweight (see replyParts)
export { errorResponse, jsonResponse, replyParts, toNativeResponse, type ReplyParts } from './http/reply.js'
export { resolveRequestId } from './http/request-id.js'
export { guardErrorListener, type ResponseEvent, type ResponseListener } from './http/observe.js'

// The registry and the document generated from it
export { operations } from './operations/index.js'
export {
  defineOperation,
  takesIfMatch,
  type AnyOperation,
  type HttpMethod,
  type Operation,
  type OperationContext,
  type OperationResult,
} from './http/operation.js'
export { createOpenApiDocument, operationErrors, type OpenApiOptions } from './openapi/document.js'

// The contract's rules, for hosts that write their own store
export { annualisedCost, budgetTotals, npsStatistics, pagination, round2 } from './model/computed.js'
export { compareCodePoints, foldCase, orderBy } from './model/ordering.js'

// Schemas (valibot) and the types inferred from them
export * from './model/shared.js'
export * from './model/tickets.js'
export * from './model/budgets.js'
export * from './model/automation-rules.js'
export * from './model/reports.js'
export * from './model/report-templates.js'
export * from './model/compliance.js'
export * from './model/training.js'
export * from './model/users.js'
export * from './model/calendar.js'
export * from './model/companies.js'
export * from './model/goals.js'
export * from './model/nps-surveys.js'
export * from './model/planner.js'
