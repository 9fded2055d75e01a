/**
 * The JSON Schemas of the document, converted from the valibot schemas that validate requests and
 * shape responses: the named components, and {@link safeText}, what every request refuses.
 */
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { FORBIDDEN_KEYS, SAFE_TEXT_PATTERNS } from '../http/validation.js'
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

export function jsonSchema(schema: v.GenericSchema, typeMode: 'input' | 'output'): JsonSchema {
  const { $schema: _schema, $defs: _defs, ...rest } = toJsonSchema(schema, CONVERSIONS[typeMode])
  return typeMode === 'input' ? safeText(rest) : rest
}

/**
 * What every request refuses anywhere in its body and query (src/http/body.ts): strings with NUL or
 * an unpaired surrogate, and the keys that could reach an object's prototype.
 */
const SAFE_TEXT = SAFE_TEXT_PATTERNS.map((pattern) => ({ pattern }))
const SAFE_KEYS = { allOf: SAFE_TEXT, not: { enum: [...FORBIDDEN_KEYS] } }
const FREE_FORM = {
  JsonValue: {
    description:
      'Any JSON value; its strings hold no NUL or unpaired surrogate, its objects no key `__proto__`, ' +
      '`constructor` or `prototype`.',
    allOf: SAFE_TEXT,
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
 * `schema` with {@link SAFE_TEXT_PATTERNS} (in `allOf`) on every string it lets a request carry:
 * strings with an enum, a const or a format (uuid, date, date-time, uri: none of which admits a NUL)
 * are left as they are; a pattern of the string's own stays beside them. `not` and `if` are
 * conditions, not places a value is taken, so they are left alone.
 */
export function safeText(schema: JsonSchema): JsonSchema {
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
  if (out.type === 'string' && free) out.allOf = [...((out.allOf as JsonSchema[] | undefined) ?? []), ...SAFE_TEXT]
  return out as JsonSchema
}

/**
 * `components.schemas` but for `Error` (src/openapi/responses.ts): the named response schemas, the
 * request-only ones (with what every request refuses), and the free-form `JsonValue` and `JsonObject`.
 */
export function componentSchemas() {
  const { $schema: _s, ...schemas } = toJsonSchemaDefs(COMPONENTS, CONVERSIONS.output) as Record<string, JsonSchema>
  const inputSchemas = toJsonSchemaDefs(INPUT_COMPONENTS, CONVERSIONS.input) as Record<string, JsonSchema>
  for (const name of Object.keys(INPUT_COMPONENTS)) schemas[name] = safeText(inputSchemas[name]!)
  return { ...schemas, ...FREE_FORM }
}
