import { validationError, type ValidationIssue } from '../http/errors.js'
import { defineOperation, type OperationContext } from '../http/operation.js'
import { completeActions, completeConditionGroups } from '../model/rule-completion.js'
import { parseIfMatch, updateVersioned } from '../model/versioning.js'
import type { Store } from '../ports/store.js'
import { dataEnvelope } from '../model/shared.js'
import { ok, UuidIdParams, versionTag } from './results.js'
import {
  AutomationRuleSchema,
  CreateAutomationRuleSchema,
  scopeProblem,
  UpdateAutomationRuleSchema,
  type AutomationRule,
  type AutomationRuleRecord,
  automationRules,
} from '../model/automation-rules.js'
import { companies } from '../model/companies.js'
import { writeContextOf } from './write-context.js'

/**
 * The rule's scope invariant (company rules name at least one company, tenant rules none) and,
 * when `checkIds`, that every company id is a company of the tenant. Returns the rule as the API
 * shows it (its view: `companies` resolved).
 */
async function withCompanies(
  store: Store,
  tenantId: string,
  rule: AutomationRuleRecord,
  checkIds: boolean,
): Promise<AutomationRule> {
  const issues: ValidationIssue[] = []
  const problem = scopeProblem(rule.scopeType, rule.companyIds)
  if (problem !== null) throw validationError([{ in: 'body', path: 'companyIds', message: problem }])
  const named = rule.companyIds.length === 0 ? [] : await store.findNames(companies, tenantId, rule.companyIds)
  if (checkIds) {
    const found = new Set(named.map((company) => company.id))
    rule.companyIds.forEach((id, index) => {
      if (!found.has(id)) issues.push({ in: 'body', path: `companyIds[${index}]`, message: 'No company with this id' })
    })
    if (issues.length > 0) throw validationError(issues)
  }
  return automationRules.view.show(rule, { companies: new Map(named.map((c) => [c.id, c.name])) })
}

function actor(context: OperationContext<unknown, unknown, unknown>) {
  return { id: context.principal.actor.id, name: context.principal.actor.name }
}

export const createAutomationRule = defineOperation({
  id: 'createAutomationRule',
  method: 'POST',
  path: '/automation',
  area: 'Automation Rules',
  summary: 'Create an automation rule',
  description:
    'Inactive unless `isActive: true`. A `company` rule names at least one company of the tenant in ' +
    '`companyIds`, a `tenant` rule (the default) none. Missing ids of condition groups, conditions and actions ' +
    'are generated; a missing action `order` is its index. `version` starts at 1.',
  scope: 'automation.write',
  body: CreateAutomationRuleSchema,
  response: dataEnvelope(AutomationRuleSchema),
  successStatus: 201,
  responseHeaders: { ETag: 'The rule’s version, quoted.', Location: 'The new rule.' },
  errors: [],
  handle: async (context) => {
    const { store, tenantId, body, now, basePath } = context
    const timestamp = now.toISOString()
    const record: AutomationRuleRecord = {
      id: crypto.randomUUID(),
      name: body.name,
      description: body.description ?? null,
      isActive: body.isActive,
      priority: body.priority,
      scopeType: body.scopeType,
      companyIds: [...new Set(body.companyIds)],
      triggerType: body.triggerType,
      entityType: body.entityType,
      triggerConfig: body.triggerConfig,
      conditions: completeConditionGroups(body.conditions),
      actions: completeActions(body.actions),
      aggregationConfig: body.aggregationConfig ?? null,
      createdBy: actor(context),
      updatedBy: actor(context),
      createdAt: timestamp,
      updatedAt: timestamp,
      version: 1,
    }
    const rule = await withCompanies(store, tenantId, record, true)
    await store.replaceVersioned(automationRules, tenantId, record, null, writeContextOf(context))
    return {
      status: 201,
      body: { data: rule },
      headers: { ...versionTag(1), location: `${basePath}/automation/${record.id}` },
    }
  },
})

export const updateAutomationRule = defineOperation({
  id: 'updateAutomationRule',
  method: 'PATCH',
  path: '/automation/:id',
  area: 'Automation Rules',
  summary: 'Update an automation rule',
  description:
    'Only the supplied fields change; `version` goes up by 1. `scopeType` and `companyIds` must agree on the ' +
    'rule as it would be after the PATCH (both sent: a 400 before the rule is looked up). ' +
    'Send `If-Match` with the version you read to refuse lost updates (412).',
  scope: 'automation.write',
  params: UuidIdParams,
  body: UpdateAutomationRuleSchema,
  response: dataEnvelope(AutomationRuleSchema),
  successStatus: 200,
  responseHeaders: { ETag: 'The rule’s new version, quoted.' },
  errors: ['NOT_FOUND', 'PRECONDITION_FAILED'],
  handle: async (context) => {
    const { store, tenantId, params, body, now, request } = context
    let rule: AutomationRule | undefined
    const saved = await updateVersioned<AutomationRuleRecord>({
      what: 'Automation rule',
      ifMatch: parseIfMatch(request.headers.get('if-match')),
      load: () => store.get(automationRules, tenantId, params.id),
      change: async (current) => {
        const { conditions, actions, companyIds, ...fields } = body
        const next: AutomationRuleRecord = {
          ...current,
          ...fields,
          ...(companyIds === undefined ? {} : { companyIds: [...new Set(companyIds)] }),
          ...(conditions === undefined ? {} : { conditions: completeConditionGroups(conditions) }),
          ...(actions === undefined ? {} : { actions: completeActions(actions) }),
          updatedBy: actor(context),
          updatedAt: now.toISOString(),
        }
        rule = await withCompanies(store, tenantId, next, companyIds !== undefined)
        return next
      },
      save: (next, expected) =>
        store.replaceVersioned(automationRules, tenantId, next, expected, writeContextOf(context)),
    })
    return ok({ ...rule!, version: saved.version }, versionTag(saved.version))
  },
})
