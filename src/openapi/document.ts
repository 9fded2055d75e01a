/**
 * The OpenAPI 3.1 document, generated from the operation registry and the valibot schemas: the
 * same objects that validate requests describe them, so the document cannot drift from the code.
 */
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { ERROR_STATUS, type ErrorCode } from '../http/errors.js'
import { IDEMPOTENCY_KEY } from '../http/idempotency.js'
import { takesIfMatch, type AnyOperation } from '../http/operation.js'
import { FORBIDDEN_KEYS, SAFE_TEXT_PATTERN } from '../http/validation.js'
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

/**
 * The named schemas of `components.schemas` that responses use; any schema used by identity in a
 * response becomes a `$ref`.
 */
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

/**
 * The named schemas that only requests use, converted as input: request schemas have their own
 * components, so that what every request refuses (below) is stated on them and not on responses.
 */
const INPUT_COMPONENTS: Record<string, v.GenericSchema> = {
  ConditionGroupInput: ConditionGroupInputSchema,
  AggregationConfigInput: AggregationConfigSchema,
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

const CONVERSIONS: Record<'input' | 'output', ConversionConfig> = {
  output: {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    typeMode: 'output',
    definitions: COMPONENTS,
    overrideRef: ({ referenceId }) => ref(referenceId).$ref,
    overrideSchema: ({ valibotSchema }) => (valibotSchema === JsonObjectSchema ? { type: 'object' } : undefined),
  },
  input: {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    typeMode: 'input',
    definitions: INPUT_COMPONENTS,
    overrideRef: ({ referenceId }) => ref(referenceId).$ref,
    // Free-form parts of a request (`triggerConfig`, a condition's `value`) are checked like the rest of it.
    overrideSchema: ({ valibotSchema }) =>
      valibotSchema === JsonObjectSchema
        ? ref('JsonObject')
        : valibotSchema.type === 'unknown'
          ? ref('JsonValue')
          : null,
  },
}

function jsonSchema(schema: v.GenericSchema, typeMode: 'input' | 'output'): JsonSchema {
  const { $schema: _schema, $defs: _defs, ...rest } = toJsonSchema(schema, CONVERSIONS[typeMode])
  return typeMode === 'input' ? safeText(rest) : rest
}

/**
 * What every request refuses anywhere in its body and query (src/http/body.ts): strings with NUL or
 * an unpaired surrogate, and the keys that could reach an object's prototype.
 */
const SAFE_KEYS = { pattern: SAFE_TEXT_PATTERN, not: { enum: [...FORBIDDEN_KEYS] } }
const FREE_FORM = {
  JsonValue: {
    description:
      'Any JSON value; its strings hold no NUL or unpaired surrogate, its objects no key `__proto__`, ' +
      '`constructor` or `prototype`.',
    pattern: SAFE_TEXT_PATTERN,
    propertyNames: SAFE_KEYS,
    additionalProperties: ref('JsonValue'),
    items: ref('JsonValue'),
  },
  JsonObject: {
    type: 'object',
    description: 'A JSON object of any shape, as `JsonValue` says.',
    propertyNames: SAFE_KEYS,
    additionalProperties: ref('JsonValue'),
  },
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'] as const
const SUBSCHEMAS = ['items', 'additionalProperties', 'then', 'else', 'contains'] as const
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const

/**
 * `schema` with {@link SAFE_TEXT_PATTERN} on every string it lets a request carry: strings with an
 * enum, a const or a format (uuid, date, date-time, uri: none of which admits a NUL) are left as they
 * are; a string with a pattern of its own gets this one beside it in `allOf`. `not` and `if` are
 * conditions, not places a value is taken, so they are left alone.
 */
function safeText(schema: JsonSchema): JsonSchema {
  const out: Record<string, unknown> = { ...(schema as Record<string, unknown>) }
  for (const key of SUBSCHEMA_MAPS) {
    const map = out[key] as Record<string, JsonSchema> | undefined
    if (map !== undefined)
      out[key] = Object.fromEntries(Object.entries(map).map(([name, inner]) => [name, safeText(inner)]))
  }
  for (const key of SUBSCHEMAS) {
    const inner = out[key]
    if (typeof inner === 'object' && inner !== null) out[key] = safeText(inner as JsonSchema)
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = out[key] as JsonSchema[] | undefined
    if (list !== undefined) out[key] = list.map(safeText)
  }
  const free = ['enum', 'const', 'format', 'anyOf', 'oneOf'].every((keyword) => !(keyword in out))
  if (out.type === 'string' && free) {
    if (out.pattern === undefined) out.pattern = SAFE_TEXT_PATTERN
    else out.allOf = [...((out.allOf as JsonSchema[] | undefined) ?? []), { pattern: SAFE_TEXT_PATTERN }]
  }
  return out as JsonSchema
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
}
/** `Link` of every list: `listPage` (src/operations/list-pages.ts) sends it when a page follows. */
const LINK = HEADER('The next page: `<URL>; rel="next"` (RFC 8288), sent when `nextCursor` is not null.', {
  type: 'string',
  pattern: '^<https?://[^>]+>; rel="next"$',
})

/** Whether the operation answers a page of a list, `{ data, pagination }`: every such answer comes from `listPage`. */
function isList(operation: AnyOperation): boolean {
  return (operation.response as { entries?: Record<string, unknown> }).entries?.pagination === PaginationSchema
}

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
    const json = safeText(
      pipe.find((item) => item.type === 'metadata')?.metadata?.param ?? { type: 'string' },
    ) as Record<string, unknown>
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
      // An array is written comma-separated (`types=a,b`), which OpenAPI calls form style, not exploded.
      ...(json.type === 'array' ? { style: 'form', explode: false } : {}),
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

const pathParamNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!)

/**
 * The OpenAPI `links` of a create (a POST answering 201), so that a client can go on from what it
 * created: to every operation on it (a path below the create's whose one new parameter is the
 * answer's `data.id`) and on what it was added to (a path above the create's). Parameters the
 * create's path has are passed on from its request.
 */
function createLinks(create: AnyOperation): Record<string, object> | undefined {
  if (create.method !== 'POST' || create.successStatus !== 201) return undefined
  const data = (create.response as { entries?: Record<string, { entries?: Record<string, unknown> }> }).entries?.data
  const answersId = data?.entries?.id !== undefined
  const links: Record<string, object> = {}
  for (const target of operations) {
    const below = answersId && target.path.startsWith(`${create.path}/:`)
    const above = create.path.startsWith(`${target.path}/`) && target.path.includes('/:')
    if (!below && !above) continue
    const known = new Set(pathParamNames(create.path))
    const fresh = pathParamNames(target.path).filter((name) => !known.has(name))
    if (fresh.length > (below ? 1 : 0)) continue
    const parameters = Object.fromEntries(
      pathParamNames(target.path).map((name) => [
        name,
        known.has(name) ? `$request.path.${name}` : '$response.body#/data/id',
      ]),
    )
    const what = below ? 'what was created' : 'what it was added to'
    links[target.id] = { operationId: target.id, parameters, description: `${target.summary}: ${what}.` }
  }
  return Object.keys(links).length > 0 ? links : undefined
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
      successHeaders[name] = HEADER(description, SUCCESS_HEADER_SCHEMAS[name], true)
    if (isList(operation)) successHeaders.Link = LINK
    if (operation.idempotent)
      successHeaders['Idempotent-Replayed'] = HEADER(
        '`true` when this is the stored answer to an earlier request with the same Idempotency-Key.',
        { type: 'string', enum: ['true'] },
      )
    const links = createLinks(operation)
    const headerParameters: object[] = []
    if (operation.idempotent) {
      headerParameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Makes a retry safe: a repeat within 24 h with the same body replays the first response.',
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY.source },
      })
    }
    if (takesIfMatch(operation)) {
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
          ...(links === undefined ? {} : { links }),
        },
        ...errorResponses(operation),
      },
    }
  }
  const { $schema: _s, ...schemas } = toJsonSchemaDefs(COMPONENTS, CONVERSIONS.output) as Record<string, JsonSchema>
  const inputSchemas = toJsonSchemaDefs(INPUT_COMPONENTS, CONVERSIONS.input) as Record<string, JsonSchema>
  for (const name of Object.keys(INPUT_COMPONENTS)) schemas[name] = safeText(inputSchemas[name]!)
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tenant Data Public API',
      version: '1.0.0',
      description:
        'Programmatic, stateless read and write access to the data of one tenant of the IT-management portal. ' +
        'No string of a request may hold NUL or an unpaired surrogate (the pattern on each says so), and no ' +
        'object of a request may have the key `__proto__`, `constructor` or `prototype`.',
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
        ...FREE_FORM,
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
