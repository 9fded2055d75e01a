/**
 * tenant-public-api: the public REST API of a multi-tenant IT-management portal as a Fetch handler.
 *
 * @example
 * import { createPublicApi, createMemoryStore } from 'tenant-public-api'
 * const api = createPublicApi({ store: createMemoryStore(), keyResolver })
 */
export { createPublicApi, type PublicApiHandler, type PublicApiOptions } from './create-public-api.js'
export type { McpOptions } from './mcp/options.js'

/*
 * The public surface, and nothing else (ARCHITECTURE.md, "The public surface"): what README.md and
 * docs/*.md tell a host, a mount or a store author to use. Everything else is internal and imported
 * by relative path; test/build/public-surface.test.ts holds the list, so a new export is deliberate.
 */

// Stores, and the Store port a store of your own implements (docs/stores.md)
export { createMemoryStore, type MemoryStore, type MemoryStoreOptions } from './stores/memory/memory-store.js'
export {
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_TTL_MS,
  type ApiKeysPort,
  type ChildCollection,
  type DocumentOf,
  type EventFeedPort,
  type GetRequest,
  type IdempotencyPort,
  type IdempotencyReservation,
  type Included,
  type ListResult,
  type NamedCollection,
  type NamedRef,
  type PartField,
  type RecordPatch,
  type RecordsPort,
  type SeedOptions,
  type Shown,
  type Store,
  type StoredResponse,
  StoreUnavailableError,
  type VersionedCollection,
} from './ports/store.js'
export { RecordNotFoundError, VersionMismatchError } from './model/errors.js'
export { compareKeysets, type Keyset, keysetOf } from './model/keyset.js'
export {
  type FilterValue,
  type ListDefinition,
  type ListRequest,
  listRequest,
  type PagedQuery,
} from './model/list-request.js'
// A definition's list surface (src/model/list-surface.ts), as `CollectionDefinition['list']` and `listRequest` name it
export type {
  FilterParam,
  FixedOrder,
  ListParam,
  ListParams,
  ListSort,
  ListSurface,
  OtherParam,
  ParamSchema,
  ListQuerySchema,
  SearchParam,
  SortDirection,
} from './model/list-surface.js'

// The collections a store keeps, each defined once (src/model/<resource>.ts): what `get` and `list` take
export {
  automationRules,
  budgetLineItems,
  budgets,
  COLLECTIONS,
  columnOf,
  companies,
  complianceChecks,
  complianceTemplates,
  foldedValue,
  goals,
  KEYED_COLLECTIONS,
  type KeyedCollection,
  meetingTypes,
  npsSurveys,
  plannerItemTypes,
  reportTemplates,
  reports,
  reportTypes,
  SEEDED_COLLECTIONS,
  type SeededCollection,
  tickets,
  trainingCourses,
  trainingEnrollments,
  users,
  webhookEndpoints,
  type AnyCollectionView,
  type ChildrenNeed,
  type CollectionEvents,
  type CollectionParent,
  type CollectionDefinition,
  type CollectionFacts,
  type ColumnDefinition,
  type ColumnValue,
  type CountNeed,
  type ListFilter,
  type GetView,
  type Names,
  type NamesNeed,
  type OrderTerm,
  type PartDefinition,
  type ListSearch,
  type ViewNeed,
  viewOfGet,
  type WithList,
} from './model/index.js'
export type { WebhookDeliveryRecord, WebhookStore } from './ports/webhook-store.js'
export type {
  FinishedWebhookJob,
  NewWebhookJob,
  WebhookDispatchPort,
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
export { normalizeRemoval, type RemoveIds, type SeedKey } from './model/removal.js'

// The events feed (its records are written by the records part, which records their events)
export {
  EVENT_TYPES,
  type Event,
  type EventAction,
  type EventActor,
  type EventList,
  type EventListQuery,
  type EventResourceType,
  EventSchema,
  type EventType,
  type WriteContext,
} from './model/events.js'
export type { EventPage, EventQuery } from './ports/event-feed.js'

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
export {
  type ApiKey,
  type ApiKeyChanges,
  type ApiKeyCreator,
  ApiKeyCreatorSchema,
  type ApiKeyRecord,
  ApiKeySchema,
  DuplicateApiKeyError,
} from './model/api-keys.js'

// Authentication, scopes, rate limiting, errors
export {
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

// What the mounts (adapters/*.ts, docs/mounts.md) build on: every answer is a Response, native
// unless the mount's request carries a reply factory (ReplyParts is what that factory is given)
export { errorResponse, type ReplyParts } from './http/reply.js'
export { resolveRequestId } from './http/request-id.js'
export { guardErrorListener, type ResponseEvent, type ResponseListener } from './http/observe.js'
// ... and the one check of every factory's options, which the mounts' options use too
export { checkOptions, type OptionCheck, type OptionChecks, type OptionsOwner } from './model/options.js'

// The registry and the document generated from it
export { operations } from './operations/index.js'
export type {
  AnyOperation,
  HttpMethod,
  Operation,
  OperationContext,
  OperationResult,
} from './http/operation.js'
export { createOpenApiDocument, type OpenApiOptions } from './openapi/document.js'

// The store author's helpers (docs/stores.md, "Your own store"): the contract's order and case rules
export { compareCodePoints, foldCase } from './model/ordering.js'

// The model: each resource's schema (valibot) and type, the write bodies, and the record and query
// types the Store port takes
export { NamedRefSchema, type Pagination, PaginationSchema } from './model/shared.js'
export {
  type Ticket,
  type TicketDetailQuery,
  type TicketListQuery,
  type TicketNote,
  TicketNoteSchema,
  type TicketRecord,
  TicketSchema,
  type TicketWithNotes,
  TicketWithNotesSchema,
} from './model/tickets.js'
export {
  type Budget,
  type BudgetLineItem,
  BudgetLineItemSchema,
  BudgetSchema,
  type BudgetTotals,
  BudgetTotalsSchema,
  type CreateLineItem,
  CreateLineItemSchema,
  type UpdateBudget,
  UpdateBudgetSchema,
} from './model/budgets.js'
export {
  type Action,
  ActionSchema,
  type AggregationConfig,
  AggregationConfigSchema,
  type AutomationRule,
  type AutomationRuleRecord,
  AutomationRuleSchema,
  type Condition,
  type ConditionGroup,
  type ConditionGroupInput,
  ConditionGroupInputSchema,
  ConditionGroupSchema,
  ConditionSchema,
  type CreateAutomationRule,
  CreateAutomationRuleSchema,
  type UpdateAutomationRule,
  UpdateAutomationRuleSchema,
} from './model/automation-rules.js'
export {
  type Report,
  type ReportRecord,
  ReportSchema,
  type ReportType,
  ReportTypeSchema,
  type UpdateReport,
  UpdateReportSchema,
} from './model/reports.js'
export {
  type ReportTemplate,
  type ReportTemplateDetail,
  ReportTemplateDetailSchema,
  type ReportTemplateListQuery,
  type ReportTemplateRecord,
  ReportTemplateSchema,
  type TemplateStructure,
  TemplateStructureSchema,
} from './model/report-templates.js'
export {
  type ComplianceCheck,
  ComplianceCheckSchema,
  type ComplianceTemplate,
  type ComplianceTemplateListQuery,
  ComplianceTemplateSchema,
} from './model/compliance.js'
export {
  type TrainingCourse,
  TrainingCourseSchema,
  type TrainingEnrollment,
  type TrainingEnrollmentListQuery,
  TrainingEnrollmentSchema,
} from './model/training.js'
export { type User, type UserListQuery, UserSchema } from './model/users.js'
export { type MeetingType, type MeetingTypeListQuery, MeetingTypeSchema } from './model/calendar.js'
export { type Company, type CompanyListQuery, CompanySchema } from './model/companies.js'
export { type Goal, GoalSchema } from './model/goals.js'
export {
  type NpsStatistics,
  NpsStatisticsSchema,
  type NpsSurvey,
  type NpsSurveyRecord,
  NpsSurveySchema,
} from './model/nps-surveys.js'
export { type PlannerItemType, PlannerItemTypeSchema } from './model/planner.js'
