/** Report templates: listed without their structure, which is kept beside the document. */
import {
  REPORT_TEMPLATE_SORT,
  type ReportTemplate,
  type ReportTemplateListQuery,
  type ReportTemplateRecord,
} from '../resources/report-templates/schema.js'
import { column, defineCollection, type FilterSpec } from './collection.js'

/**
 * The report templates collection.
 *
 * @example
 * reportTemplates.parts.structure // the template's structure, read only for one template
 */
export const reportTemplates = defineCollection<ReportTemplate, ReportTemplateRecord>({
  name: 'reportTemplates',
  table: 'report_templates',
  columns: [
    column('name', 'text', { field: 'name' }),
    column('created_at', 'text', { field: 'createdAt' }),
    column('updated_at', 'text', { field: 'updatedAt' }),
    column('report_type_id', 'text', { field: 'reportTypeId', nullable: true }),
    column('is_shared', 'boolean', { field: 'isShared' }),
  ],
  document: ({ templateStructure: _structure, ...template }) => template,
  parts: { structure: { read: (template) => template.templateStructure } },
  sorts: REPORT_TEMPLATE_SORT,
  filters: {
    reportTypeId: { column: 'report_type_id', op: 'equals' },
    isShared: { column: 'is_shared', op: 'equals', scan: true },
  } satisfies Partial<Record<keyof ReportTemplateListQuery, FilterSpec>>,
  indexes: [['tenant_id', 'report_type_id']],
})
