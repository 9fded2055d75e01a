/** Compliance: check templates (listed) and the checks assigned from them (read one at a time). */
import {
  COMPLIANCE_TEMPLATE_SORT,
  type ComplianceCheck,
  type ComplianceTemplate,
  type ComplianceTemplateListQuery,
} from '../resources/compliance/schema.js'
import { column, defineCollection, type FilterSpec } from './collection.js'

/**
 * The compliance templates collection.
 *
 * @example
 * complianceTemplates.filters.groupId // { column: 'group_id', op: 'equals' }
 */
export const complianceTemplates = defineCollection<ComplianceTemplate>({
  name: 'complianceTemplates',
  table: 'compliance_templates',
  columns: [
    column('title', 'text', { field: 'title', folded: true }),
    column('created_at', 'text', { field: 'createdAt' }),
    column('updated_at', 'text', { field: 'updatedAt' }),
    column('priority', 'text', { field: 'priority', nullable: true }),
    column('criticality', 'real', { field: 'criticality', nullable: true }),
    column('group_id', 'text', { field: 'groupId', nullable: true }),
    column('approval_status', 'text', { field: 'approvalStatus' }),
    column('check_scope', 'text', { field: 'checkScope' }),
  ],
  sorts: COMPLIANCE_TEMPLATE_SORT,
  filters: {
    groupId: { column: 'group_id', op: 'equals' },
    approvalStatus: { column: 'approval_status', op: 'equals', scan: true },
    checkScope: { column: 'check_scope', op: 'equals', scan: true },
  } satisfies Partial<Record<keyof ComplianceTemplateListQuery, FilterSpec>>,
  search: { columns: ['title'], trigram: false },
  indexes: [['tenant_id', 'group_id']],
})

/**
 * The compliance checks collection (documents only).
 *
 * @example
 * complianceChecks.table // 'compliance_checks'
 */
export const complianceChecks = defineCollection<ComplianceCheck>({
  name: 'complianceChecks',
  table: 'compliance_checks',
})
