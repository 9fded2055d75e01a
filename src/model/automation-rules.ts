/** Automation rules: versioned documents, replaced by compare-and-set on `version`. */
import * as v from 'valibot'
import { precheck } from './precheck.js'
import { measure, RULE_LIMITS } from './rule-limits.js'
import { DateTimeSchema, FiniteNumberSchema, JsonObjectSchema, NamedRefSchema, UuidSchema } from './shared.js'
import { column, defineCollection, defineView, type Names } from './collection.js'
import { companies } from './companies.js'
import { omit, seedSchemaOf } from './seed-schema.js'

export { RULE_LIMITS } from './rule-limits.js'

/** The allowed trigger types. */
export const TRIGGER_TYPES = ['date_threshold', 'scheduled', 'field_change', 'absence'] as const
/** The allowed entity types. */
export const ENTITY_TYPES = [
  'device',
  'company',
  'compliance',
  'planner',
  'user',
  'goal',
  'training',
  'ticket',
  'meeting',
] as const
/** The allowed scope types. */
export const SCOPE_TYPES = ['tenant', 'company'] as const
/** The allowed condition logic. */
export const CONDITION_LOGIC = ['AND', 'OR'] as const

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(100))

// --- as written (ids, order and requiresApproval may be left out) -----------------------------

const ConditionInputSchema = v.strictObject({
  id: v.optional(Id),
  field: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  operator: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  value: v.optional(v.unknown()),
})

export interface ConditionGroupInput {
  id?: string | undefined
  logic: (typeof CONDITION_LOGIC)[number]
  conditions: v.InferOutput<typeof ConditionInputSchema>[]
  groups: ConditionGroupInput[]
}

/**
 * A condition group as a client writes it (ids, `conditions` and `groups` may be left out): the
 * typed client's input type.
 */
export interface ConditionGroupWriteInput {
  id?: string | undefined
  logic: (typeof CONDITION_LOGIC)[number]
  conditions?: v.InferInput<typeof ConditionInputSchema>[] | undefined
  groups?: ConditionGroupWriteInput[] | undefined
}

/**
 * A condition group input, as the API reads and writes it.
 *
 * @example
 * v.parse(ConditionGroupInputSchema, { logic: 'AND', conditions: [{ field: 'priority', operator: 'equals',
 *   value: 'High' }] }) // missing ids are generated when the rule is written
 */
export const ConditionGroupInputSchema: v.GenericSchema<ConditionGroupWriteInput, ConditionGroupInput> = v.strictObject(
  {
    id: v.optional(Id),
    logic: v.picklist(CONDITION_LOGIC),
    conditions: v.optional(
      v.pipe(v.array(ConditionInputSchema), v.metadata({ maxItems: RULE_LIMITS.maxConditions })),
      [],
    ),
    groups: v.optional(
      v.pipe(v.array(v.lazy(() => ConditionGroupInputSchema)), v.metadata({ maxItems: RULE_LIMITS.maxGroups })),
      [],
    ),
  },
)

const ActionInputSchema = v.strictObject({
  id: v.optional(Id),
  actionType: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  config: v.optional(JsonObjectSchema, {}),
  order: v.optional(FiniteNumberSchema),
  requiresApproval: v.optional(v.boolean(), false),
})

/**
 * An aggregation config, as the API reads and writes it.
 *
 * @example
 * v.parse(AggregationConfigSchema, { enabled: true, groupBy: 'companyId', minBatchSize: 5, maxWaitHours: 4 })
 */
export const AggregationConfigSchema = v.strictObject({
  enabled: v.boolean(),
  groupBy: v.optional(v.pipe(v.string(), v.maxLength(200))),
  groupField: v.optional(v.pipe(v.string(), v.maxLength(200))),
  minBatchSize: v.optional(v.pipe(FiniteNumberSchema, v.minValue(0))),
  maxWaitHours: v.optional(v.pipe(FiniteNumberSchema, v.minValue(0))),
  combinedActionConfig: v.optional(
    v.strictObject({
      titleTemplate: v.optional(v.pipe(v.string(), v.maxLength(1000))),
      descriptionTemplate: v.optional(v.pipe(v.string(), v.maxLength(5000))),
    }),
  ),
})
export type AggregationConfig = v.InferOutput<typeof AggregationConfigSchema>

/**
 * Why a rule's `scopeType` and `companyIds` disagree, or null: a company rule names at least one
 * company, a tenant rule none.
 *
 * @example
 * scopeProblem('tenant', ['00000000-0000-4000-8000-000000000001']) // 'A tenant-scoped rule takes no company ids'
 */
export function scopeProblem(scopeType: (typeof SCOPE_TYPES)[number], companyIds: readonly string[]): string | null {
  if (scopeType === 'company' && companyIds.length === 0) return 'A company-scoped rule needs at least one company id'
  if (scopeType === 'tenant' && companyIds.length > 0) return 'A tenant-scoped rule takes no company ids'
  return null
}

/** {@link scopeProblem} as JSON Schema, for a body that has `scopeType`. */
const SCOPE_RULE = {
  if: { properties: { scopeType: { const: 'company' } }, required: ['scopeType'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then`, never awaited
  then: { properties: { companyIds: { minItems: 1 } }, required: ['companyIds'] },
  else: { properties: { companyIds: { maxItems: 0 } } },
}

const ruleFields = {
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  description: v.nullable(v.pipe(v.string(), v.maxLength(1000))),
  isActive: v.boolean(),
  priority: v.pipe(FiniteNumberSchema, v.integer(), v.minValue(0), v.maxValue(100)),
  scopeType: v.picklist(SCOPE_TYPES),
  companyIds: v.pipe(v.array(UuidSchema), v.maxLength(1000)),
  triggerType: v.picklist(TRIGGER_TYPES),
  triggerConfig: JsonObjectSchema,
  entityType: v.picklist(ENTITY_TYPES),
  conditions: v.pipe(
    v.array(ConditionGroupInputSchema),
    precheck(
      (groups) => measure(groups).groups <= RULE_LIMITS.maxGroups,
      `A rule may have at most ${RULE_LIMITS.maxGroups} condition groups`,
    ),
    precheck(
      (groups) => measure(groups).depth <= RULE_LIMITS.maxGroupDepth,
      `Condition groups may nest at most ${RULE_LIMITS.maxGroupDepth} deep`,
    ),
    precheck(
      (groups) => measure(groups).conditions <= RULE_LIMITS.maxConditions,
      `A rule may have at most ${RULE_LIMITS.maxConditions} conditions`,
    ),
    // The bounds above, as the OpenAPI document states them: counts over a whole tree have no JSON
    // Schema keyword, so the description says them; no list inside can be longer than its total.
    v.metadata({ maxItems: RULE_LIMITS.maxGroups }),
    v.description(
      `The rule's condition groups, nested at most ${RULE_LIMITS.maxGroupDepth} deep (top-level groups are ` +
        `depth 1), with at most ${RULE_LIMITS.maxGroups} groups and ${RULE_LIMITS.maxConditions} conditions ` +
        "in all, counting every level; a group's `groups` and `conditions` lists are bounded by the same totals.",
    ),
  ),
  actions: v.pipe(
    v.array(ActionInputSchema),
    v.maxLength(RULE_LIMITS.maxActions, `A rule may have at most ${RULE_LIMITS.maxActions} actions`),
  ),
  aggregationConfig: v.nullable(AggregationConfigSchema),
}

/**
 * The body of `POST /automation`.
 *
 * @example
 * const body = v.parse(CreateAutomationRuleSchema, await request.json())
 */
export const CreateAutomationRuleSchema = v.pipe(
  v.strictObject({
    name: ruleFields.name,
    triggerType: ruleFields.triggerType,
    triggerConfig: ruleFields.triggerConfig,
    entityType: ruleFields.entityType,
    conditions: ruleFields.conditions,
    actions: ruleFields.actions,
    description: v.optional(v.pipe(v.string(), v.maxLength(1000))),
    isActive: v.optional(ruleFields.isActive, false),
    priority: v.optional(ruleFields.priority, 0),
    scopeType: v.optional(ruleFields.scopeType, 'tenant'),
    companyIds: v.optional(ruleFields.companyIds, []),
    aggregationConfig: v.optional(AggregationConfigSchema),
  }),
  v.forward(
    v.check(
      (rule) => scopeProblem(rule.scopeType, rule.companyIds) === null,
      (issue) => scopeProblem(issue.input.scopeType, issue.input.companyIds) ?? '',
    ),
    ['companyIds'],
  ),
  // The check above, as the OpenAPI document states it (`scopeType` defaults to `tenant`).
  v.metadata(SCOPE_RULE),
)
export type CreateAutomationRule = v.InferOutput<typeof CreateAutomationRuleSchema>

/**
 * The body of `PATCH /automation/{id}`: only supplied fields change.
 *
 * @example
 * const body = v.parse(UpdateAutomationRuleSchema, await request.json())
 */
export const UpdateAutomationRuleSchema = v.pipe(
  v.strictObject({
    name: v.optional(ruleFields.name),
    description: v.optional(v.pipe(v.string(), v.maxLength(1000))),
    isActive: v.optional(ruleFields.isActive),
    priority: v.optional(ruleFields.priority),
    // The example the reference shows has `companyIds`, so it must be a company rule's.
    scopeType: v.optional(v.pipe(ruleFields.scopeType, v.examples(['company'] as const))),
    companyIds: v.optional(ruleFields.companyIds),
    triggerType: v.optional(ruleFields.triggerType),
    triggerConfig: v.optional(ruleFields.triggerConfig),
    entityType: v.optional(ruleFields.entityType),
    conditions: v.optional(ruleFields.conditions),
    actions: v.optional(ruleFields.actions),
    aggregationConfig: v.optional(AggregationConfigSchema),
  }),
  // `minEntries` rather than a check: the OpenAPI document shows it as `minProperties: 1`.
  v.minEntries(1, 'Send at least one field to update'),
  // Sent together, `scopeType` and `companyIds` must agree whatever the rule was (with one of them,
  // the operation checks the rule as it would be after the PATCH).
  v.forward(
    v.check(
      (patch) =>
        patch.scopeType === undefined ||
        patch.companyIds === undefined ||
        scopeProblem(patch.scopeType, patch.companyIds) === null,
      (issue) => scopeProblem(issue.input.scopeType!, issue.input.companyIds!) ?? '',
    ),
    ['companyIds'],
  ),
  // The check above, as the OpenAPI document states it.
  v.metadata({ dependentSchemas: { scopeType: SCOPE_RULE } }),
)
export type UpdateAutomationRule = v.InferOutput<typeof UpdateAutomationRuleSchema>

// --- as stored and returned ------------------------------------------------------------------

/**
 * A condition, as the API reads and writes it.
 *
 * @example
 * v.parse(ConditionSchema, { id: 'c1', field: 'priority', operator: 'equals', value: 'High' })
 */
export const ConditionSchema = v.strictObject({
  id: v.string(),
  field: v.string(),
  operator: v.string(),
  value: v.unknown(),
})
export type Condition = v.InferOutput<typeof ConditionSchema>

export interface ConditionGroup {
  id: string
  logic: string
  conditions: Condition[]
  groups: ConditionGroup[]
}
/**
 * A condition group, as the API reads and writes it.
 *
 * @example
 * v.parse(ConditionGroupSchema, { id: 'g1', logic: 'OR', groups: [],
 *   conditions: [{ id: 'c1', field: 'status', operator: 'equals', value: 'Open' }] })
 */
export const ConditionGroupSchema: v.GenericSchema<ConditionGroup> = v.strictObject({
  id: v.string(),
  logic: v.string(),
  conditions: v.array(ConditionSchema),
  groups: v.array(v.lazy(() => ConditionGroupSchema)),
})

/**
 * An action, as the API reads and writes it.
 *
 * @example
 * v.parse(ActionSchema, { id: 'a1', actionType: 'create_ticket', config: { board: 'Service' }, order: 0,
 *   requiresApproval: false })
 */
export const ActionSchema = v.strictObject({
  id: v.string(),
  actionType: v.string(),
  config: JsonObjectSchema,
  order: v.number(),
  requiresApproval: v.boolean(),
})
export type Action = v.InferOutput<typeof ActionSchema>

/**
 * An automation rule. `companies` follows `companyIds`; `version` counts its updates from 1.
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'automation_rule.updated':
 * const rule = v.parse(AutomationRuleSchema, event.data.object)
 * if (!rule.isActive) scheduler.cancel(rule.id, rule.version)
 */
export const AutomationRuleSchema = v.strictObject({
  id: UuidSchema,
  name: v.string(),
  description: v.nullable(v.string()),
  isActive: v.boolean(),
  priority: v.number(),
  scopeType: v.picklist(SCOPE_TYPES),
  companyIds: v.array(v.string()),
  triggerType: v.picklist(TRIGGER_TYPES),
  entityType: v.picklist(ENTITY_TYPES),
  triggerConfig: JsonObjectSchema,
  conditions: v.array(ConditionGroupSchema),
  actions: v.array(ActionSchema),
  aggregationConfig: v.nullable(AggregationConfigSchema),
  createdBy: v.nullable(NamedRefSchema),
  updatedBy: v.nullable(NamedRefSchema),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  version: v.number(),
  companies: v.array(NamedRefSchema),
})
export type AutomationRule = v.InferOutput<typeof AutomationRuleSchema>
/** A rule as a store keeps it: `companies` is derived from `companyIds` when shown. */
export type AutomationRuleRecord = Omit<AutomationRule, 'companies'>

/**
 * What the API shows of a rule (its writes and events): `companies` names each of `companyIds` that
 * is a company of the tenant, in the order of `companyIds`.
 *
 * @example
 * automationRules.view.show(record, { companies: new Map([[id, 'Acme']]) }).companies // [{ id, name: 'Acme' }]
 */
const automationRuleView = defineView({
  fields: ['companies'],
  needs: { companies: { names: companies, field: 'companyIds' } },
  show: (rule: AutomationRuleRecord, needs: { companies: Names }): AutomationRule => ({
    ...rule,
    companies: rule.companyIds.flatMap((id) => {
      const name = needs.companies.get(id)
      return name === undefined ? [] : [{ id, name }]
    }),
  }),
})

/**
 * The automation rules collection.
 *
 * @example
 * automationRules.columns[0]?.name // 'version'
 */
export const automationRules = defineCollection<AutomationRuleRecord>()({
  name: 'automationRules',
  table: 'automation_rules',
  event: { resource: 'automation_rule', readScope: 'automation.write' },
  seed: seedSchemaOf(v.object(omit(AutomationRuleSchema.entries, ...automationRuleView.fields))),
  columns: [column('version', 'integer', { field: 'version' })],
  view: automationRuleView,
})
