/**
 * The OpenAPI 3.1 document, generated from the operation registry and the valibot schemas: the
 * same objects that validate requests describe them, so the document cannot drift from the code.
 */
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { ERROR_STATUS, type ErrorCode } from '../http/errors.js'
import type { AnyOperation } from '../http/operation.js'
import {
  ActionSchema,
  AggregationConfigSchema,
  AutomationRuleSchema,
  ConditionGroupInputSchema,
  ConditionGroupSchema,
  ConditionSchema,
} from '../model/automation-rules.js'
import { BudgetLineItemSchema, BudgetSchema, BudgetTotalsSchema } from '../model/budgets.js'
import { MeetingTypeSchema } from '../model/calendar.js'
import { CompanySchema } from '../model/companies.js'
import { ComplianceCheckSchema, ComplianceTemplateSchema } from '../model/compliance.js'
import { GoalSchema } from '../model/goals.js'
import { operations } from '../operations/index.js'
import { NpsStatisticsSchema, NpsSurveySchema } from '../model/nps-surveys.js'
import { PlannerItemTypeSchema } from '../model/planner.js'
import { ReportTemplateDetailSchema, ReportTemplateSchema, TemplateStructureSchema } from '../model/report-templates.js'
import { ReportSchema } from '../model/reports.js'
import { JsonObjectSchema, NamedRefSchema, PaginationSchema } from '../model/shared.js'
import { TicketNoteSchema, TicketSchema, TicketWithNotesSchema } from '../model/tickets.js'
import { TrainingCourseSchema, TrainingEnrollmentSchema } from '../model/training.js'
import { UserSchema } from '../model/users.js'

/** The named schemas of `components.schemas`; any schema used by identity elsewhere becomes a `$ref`. */
const COMPONENTS: Record<string, v.GenericSchema> = {
  Pagination: PaginationSchema,
  NamedRef: NamedRefSchema,
  Ticket: TicketSchema,
  TicketNote: TicketNoteSchema,
  TicketWithNotes: TicketWithNotesSchema,
  Budget: BudgetSchema,
  BudgetTotals: BudgetTotalsSchema,
  BudgetLineItem: BudgetLineItemSchema,
  AutomationRule: AutomationRuleSchema,
  ConditionGroup: ConditionGroupSchema,
  ConditionGroupInput: ConditionGroupInputSchema,
  Condition: ConditionSchema,
  Action: ActionSchema,
  AggregationConfig: AggregationConfigSchema,
  Report: ReportSchema,
  ReportTemplate: ReportTemplateSchema,
  ReportTemplateDetail: ReportTemplateDetailSchema,
  TemplateStructure: TemplateStructureSchema,
  ComplianceTemplate: ComplianceTemplateSchema,
  ComplianceCheck: ComplianceCheckSchema,
  TrainingEnrollment: TrainingEnrollmentSchema,
  TrainingCourse: TrainingCourseSchema,
  User: UserSchema,
  MeetingType: MeetingTypeSchema,
  Company: CompanySchema,
  Goal: GoalSchema,
  NpsSurvey: NpsSurveySchema,
  NpsStatistics: NpsStatisticsSchema,
  PlannerItemType: PlannerItemTypeSchema,
}

const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  errorMode: 'ignore',
  definitions: COMPONENTS,
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  overrideSchema: ({ valibotSchema }) => (valibotSchema === JsonObjectSchema ? { type: 'object' } : undefined),
}

function jsonSchema(schema: v.GenericSchema, typeMode: 'input' | 'output'): JsonSchema {
  const { $schema: _schema, $defs: _defs, ...rest } = toJsonSchema(schema, { ...CONVERSION, typeMode })
  return rest
}

/** Errors every authenticated operation can give. */
const COMMON_ERRORS: readonly ErrorCode[] = [
  'VALIDATION_ERROR',
  'COOKIES_NOT_ALLOWED',
  'UNAUTHORIZED',
  'INSUFFICIENT_SCOPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
]
/** Errors every operation with a body can give. */
const BODY_ERRORS: readonly ErrorCode[] = ['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']

/**
 * Every error an operation can answer with, in status order.
 *
 * @example
 * operationErrors(operations[0]) // ['VALIDATION_ERROR', 'COOKIES_NOT_ALLOWED', 'UNAUTHORIZED', ...]
 */
export function operationErrors(operation: AnyOperation): ErrorCode[] {
  const codes = new Set<ErrorCode>([...COMMON_ERRORS, ...(operation.body ? BODY_ERRORS : []), ...operation.errors])
  return [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b])
}

const HEADER = (description: string, schema: JsonSchema = { type: 'string' }, required = false) => ({
  description,
  ...(required ? { required: true } : {}),
  schema,
})
const REQUEST_ID = HEADER(
  'The request id: the client’s own X-Request-Id when valid, else a new UUID.',
  { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  true,
)
/** The rate-limit headers; `required` where every response of that status was counted against the key. */
const rateLimitHeaders = (required: boolean) => ({
  'X-RateLimit-Limit': HEADER('Requests allowed per window for this key.', { type: 'integer', minimum: 0 }, required),
  'X-RateLimit-Remaining': HEADER('Requests left in the current window.', { type: 'integer', minimum: 0 }, required),
  'X-RateLimit-Reset': HEADER('When the window resets (ISO 8601).', { type: 'string', format: 'date-time' }, required),
  'RateLimit-Policy': HEADER(
    'draft-ietf-httpapi-ratelimit-headers: the policy of the bucket with the least remaining, `"key"` or `"tenant"`, ' +
      'its quota `q` and window `w` in seconds, e.g. `"key";q=120;w=60`.',
    { type: 'string', pattern: '^"(key|tenant)";q=[0-9]+(;w=[0-9]+)?$' },
    required,
  ),
  RateLimit: HEADER(
    "draft-ietf-httpapi-ratelimit-headers: that bucket's remaining requests `r` and seconds to its reset `t`, " +
      'e.g. `"key";r=119;t=60`.',
    { type: 'string', pattern: '^"(key|tenant)";r=[0-9]+;t=[0-9]+$' },
    required,
  ),
})
const RATE_LIMIT_HEADERS = rateLimitHeaders(true)
/**
 * Error statuses that can be answered before the key is counted (400 `COOKIES_NOT_ALLOWED` comes
 * before authentication; 500 and 503 can come from the rate limiter itself), so their
 * rate-limit headers are optional; 401 never has them.
 */
const UNCOUNTED_ERROR_STATUSES = new Set([400, 500, 503])
/** Schemas of the headers operations set on success (`responseHeaders` of the registry). */
const SUCCESS_HEADER_SCHEMAS: Record<string, JsonSchema> = {
  ETag: { type: 'string', pattern: '^"[0-9]+"$' },
  Location: { type: 'string', pattern: '^/' },
  Link: { type: 'string', pattern: '^<https?://[^>]+>; rel="next"$' },
}
/** Success headers sent only sometimes (`Link`: only when a next page exists). */
const OPTIONAL_SUCCESS_HEADERS = new Set(['Link'])

interface ParamEntry {
  type: string
  wrapped?: ParamEntry
  default?: unknown
  pipe?: Array<{ kind: string; type: string; metadata?: { param?: Record<string, unknown> }; description?: string }>
}

/** OpenAPI parameters from a strict-object query schema whose entries are the query-param parsers. */
function queryParameters(schema: v.GenericSchema | undefined): object[] {
  const entries = (schema as { entries?: Record<string, ParamEntry> } | undefined)?.entries ?? {}
  return Object.entries(entries).map(([name, entry]) => {
    const inner = entry.type === 'optional' && entry.wrapped ? entry.wrapped : entry
    const pipe = inner.pipe ?? []
    const json = { ...(pipe.find((item) => item.type === 'metadata')?.metadata?.param ?? { type: 'string' }) }
    const description = pipe.find((item) => item.type === 'description')?.description
    if (entry.default !== undefined) {
      const fallback = String(entry.default)
      json.default =
        json.type === 'integer' ? Number(fallback) : json.type === 'boolean' ? fallback === 'true' : fallback
    }
    return {
      name,
      in: 'query',
      required: entry.type !== 'optional',
      ...(description ? { description } : {}),
      schema: json,
    }
  })
}

function pathParameters(operation: AnyOperation): object[] {
  const entries = (operation.params as { entries?: Record<string, v.GenericSchema> } | undefined)?.entries ?? {}
  return Object.entries(entries).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema: jsonSchema(schema, 'input'),
  }))
}

function errorResponses(operation: AnyOperation): Record<string, object> {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of operationErrors(operation))
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code])
  const out: Record<string, object> = {}
  for (const [status, codes] of byStatus) {
    const headers: Record<string, object> = { 'X-Request-Id': REQUEST_ID }
    if (status !== 401) Object.assign(headers, rateLimitHeaders(!UNCOUNTED_ERROR_STATUSES.has(status)))
    if (status === 401)
      headers['WWW-Authenticate'] = HEADER(
        '`Bearer realm="api"`, with `error="invalid_token"` when a key was sent.',
        { type: 'string', pattern: '^Bearer ' },
        true,
      )
    if (status === 429)
      headers['Retry-After'] = HEADER('Whole seconds until the window resets.', { type: 'integer', minimum: 0 }, true)
    if (status === 503)
      headers['Retry-After'] = HEADER('Whole seconds to wait before retrying.', { type: 'integer', minimum: 0 })
    out[String(status)] = {
      description: `Error: ${codes.join(', ')}.`,
      headers,
      content: {
        'application/json': {
          // This implementation always sends `code` and `requestId`, though the Error shape lets them be absent.
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Error' },
              { required: ['code', 'requestId'], properties: { code: { enum: codes } } },
            ],
          },
        },
      },
    }
  }
  return out
}

function pathTemplate(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}')
}

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiOptions {
  /** The base path the API is mounted at. Default `/api/public/v1`. */
  basePath?: string
}

/**
 * The OpenAPI 3.1 document of the API: every operation with its parameters, body, success and
 * error responses, scope and headers. Served at `GET {basePath}/openapi.json`.
 *
 * @example
 * const doc = createOpenApiDocument()
 * Object.keys(doc.paths) // ['/api/public/v1/tickets', ...]
 */
export function createOpenApiDocument(options: OpenApiOptions = {}) {
  const basePath = options.basePath ?? '/api/public/v1'
  const paths: Record<string, Record<string, object>> = {}
  for (const operation of operations) {
    const path = basePath + pathTemplate(operation.path)
    const successHeaders: Record<string, object> = { 'X-Request-Id': REQUEST_ID, ...RATE_LIMIT_HEADERS }
    for (const [name, description] of Object.entries(operation.responseHeaders ?? {}))
      successHeaders[name] = HEADER(description, SUCCESS_HEADER_SCHEMAS[name], !OPTIONAL_SUCCESS_HEADERS.has(name))
    if (operation.idempotent)
      successHeaders['Idempotent-Replayed'] = HEADER(
        '`true` when this is the stored answer to an earlier request with the same Idempotency-Key.',
        { type: 'string', enum: ['true'] },
      )
    const headerParameters: object[] = []
    if (operation.idempotent) {
      headerParameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Makes a retry safe: a repeat within 24 h with the same body replays the first response.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      })
    }
    if (operation.errors.includes('PRECONDITION_FAILED')) {
      headerParameters.push({
        name: 'If-Match',
        in: 'header',
        required: false,
        description: 'The version you read (`"3"` or `3`); 412 if the resource has moved on.',
        schema: { type: 'string' },
      })
    }
    ;(paths[path] ??= {})[operation.method.toLowerCase()] = {
      operationId: operation.id,
      tags: [operation.area],
      summary: operation.summary,
      ...(operation.description ? { description: operation.description } : {}),
      security: [{ bearerAuth: [operation.scope] }],
      'x-required-scope': operation.scope,
      parameters: [...pathParameters(operation), ...queryParameters(operation.query), ...headerParameters],
      ...(operation.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(operation.body, 'input') } },
            },
          }
        : {}),
      responses: {
        [String(operation.successStatus)]: {
          description: operation.successStatus === 201 ? 'Created.' : 'Success.',
          headers: successHeaders,
          content: { 'application/json': { schema: jsonSchema(operation.response, 'output') } },
        },
        ...errorResponses(operation),
      },
    }
  }
  const { $schema: _s, ...schemas } = toJsonSchemaDefs(COMPONENTS, { ...CONVERSION, typeMode: 'output' }) as Record<
    string,
    JsonSchema
  >
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tenant Data Public API',
      version: '1.0.0',
      description:
        'Programmatic, stateless read and write access to the data of one tenant of the IT-management portal.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    tags: [...new Set(operations.map((operation) => operation.area))].map((name) => ({ name })),
    security: [{ bearerAuth: [] }],
    paths: {
      ...paths,
      [`${basePath}/openapi.json`]: {
        get: {
          operationId: 'getOpenApiDocument',
          tags: ['Meta'],
          summary: 'This document',
          security: [],
          parameters: [
            {
              name: 'If-None-Match',
              in: 'header',
              required: false,
              description: 'The `ETag` of a copy the client has: a 304 without a body when it is current.',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document.',
              headers: {
                'X-Request-Id': REQUEST_ID,
                ETag: HEADER('A strong entity tag of the document (its SHA-256).', { type: 'string' }, true),
              },
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            '304': {
              description: 'Not modified: `If-None-Match` names the current `ETag`. No body.',
              headers: {
                'X-Request-Id': REQUEST_ID,
                ETag: HEADER('The entity tag the client sent, still current.', { type: 'string' }, true),
              },
            },
            // The cookie check comes before routing (docs/api-behaviour.md), so even this public route can refuse one.
            '400': {
              description: 'Error: COOKIES_NOT_ALLOWED.',
              headers: { 'X-Request-Id': REQUEST_ID },
              content: {
                'application/json': {
                  schema: {
                    allOf: [
                      { $ref: '#/components/schemas/Error' },
                      { properties: { code: { enum: ['COOKIES_NOT_ALLOWED'] } } },
                    ],
                  },
                },
              },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key with scopes, created in the tenant dashboard.',
        },
      },
      schemas: {
        ...schemas,
        Error: {
          type: 'object',
          required: ['error'],
          additionalProperties: false,
          properties: {
            error: { type: 'string', description: 'What went wrong.' },
            code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
            requestId: { type: 'string', description: 'Equals the X-Request-Id header.' },
            details: {
              description:
                'VALIDATION_ERROR: an array of { in, path, message }: at most 100 problems (fewer when their ' +
                'paths and messages are long), then, when more were found, one entry with an empty path that ' +
                'counts them ("and N more problems"); each path and message is cut to 256 bytes. ' +
                'INSUFFICIENT_SCOPE: { requiredScopes }.',
            },
          },
        },
      },
    },
  }
}
