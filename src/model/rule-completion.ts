/** Completes what a client may leave out of a rule's conditions and actions (docs/contract.md, automation rules). */
import type { Action, ConditionGroup, ConditionGroupInput, CreateAutomationRule } from './automation-rules.js'

type ActionInput = CreateAutomationRule['actions'][number]

/** Generates missing ids of groups and conditions, recursively; a missing `value` becomes null. */
export function completeConditionGroups(groups: readonly ConditionGroupInput[]): ConditionGroup[] {
  return groups.map((group) => ({
    id: group.id ?? crypto.randomUUID(),
    logic: group.logic,
    conditions: group.conditions.map((c) => ({
      id: c.id ?? crypto.randomUUID(),
      field: c.field,
      operator: c.operator,
      value: c.value ?? null,
    })),
    groups: completeConditionGroups(group.groups),
  }))
}

/** Generates missing action ids; a missing `order` is the action's index. */
export function completeActions(actions: readonly ActionInput[]): Action[] {
  return actions.map((action, index) => ({
    id: action.id ?? crypto.randomUUID(),
    actionType: action.actionType,
    config: action.config,
    order: action.order ?? index,
    requiresApproval: action.requiresApproval,
  }))
}
