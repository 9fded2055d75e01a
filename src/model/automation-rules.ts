/** Automation rules: versioned documents, replaced by compare-and-set on `version`. */
import type { AutomationRuleRecord } from '../resources/automation-rules/schema.js'
import { column, defineCollection } from './collection.js'

/**
 * The automation rules collection.
 *
 * @example
 * automationRules.columns[0]?.name // 'version'
 */
export const automationRules = defineCollection<AutomationRuleRecord>({
  name: 'automationRules',
  table: 'automation_rules',
  columns: [column('version', 'integer', { field: 'version' })],
})
