/** Report templates: listed without their structure, which is kept beside the document. */
import * as v from 'valibot'
import {
  booleanParam,
  DateTimeSchema,
  enumParam,
  JsonObjectSchema,
  paginationQuery,
  sortOrderParam,
  uuidParam,
} from './shared.js'
import { column, defineCollection, type ListFilter } from './collection.js'
import { seedSchemaOf } from './seed-schema.js'

/**
 * How a template lays out a report.
 *
 * @example
 * const { data } = v.parse(v.object({ data: ReportTemplateDetailSchema }), body) // ?includeStructure=true
 * const structure = v.parse(TemplateStructureSchema, data.templateStructure)
 * for (const block of structure.blocks) place(block.type, block.layout)
 */
export const TemplateStructureSchema = v.strictObject({
  blocks: v.array(
    v.strictObject({
      id: v.string(),
      type: v.string(),
      params: JsonObjectSchema,
      layout: v.strictObject({ x: v.number(), y: v.number(), w: v.number(), h: v.number() }),
    }),
  ),
  metadata: v.strictObject({
    title: v.nullable(v.string()),
    subtitle: v.nullable(v.string()),
    showHeader: v.boolean(),
    showFooter: v.boolean(),
    showPageNumbers: v.boolean(),
  }),
  pagePreset: v.nullable(v.string()),
  displaySettings: v.strictObject({
    pageSize: v.nullable(v.string()),
    orientation: v.nullable(v.string()),
    margins: JsonObjectSchema,
  }),
})
export type TemplateStructure = v.InferOutput<typeof TemplateStructureSchema>

/**
 * A report template, as lists show it (without its structure).
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'report_template.created':
 * const template = v.parse(ReportTemplateSchema, event.data.object)
 * if (template.isShared) announce(template.name)
 */
export const ReportTemplateSchema = v.strictObject({
  id: v.string(),
  name: v.string(),
  description: v.nullable(v.string()),
  isShared: v.boolean(),
  reportTypeId: v.nullable(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
})
export type ReportTemplate = v.InferOutput<typeof ReportTemplateSchema>

/**
 * A single template: `templateStructure` only when `includeStructure=true`.
 *
 * @example
 * // GET /report-templates/{id}?includeStructure=true
 * const { data } = v.parse(v.object({ data: ReportTemplateDetailSchema }), await response.json())
 * data.templateStructure?.blocks.length // the blocks of its layout
 */
export const ReportTemplateDetailSchema = v.strictObject({
  ...ReportTemplateSchema.entries,
  templateStructure: v.optional(v.nullable(TemplateStructureSchema)),
})
export type ReportTemplateDetail = v.InferOutput<typeof ReportTemplateDetailSchema>
/** A template as a store keeps it. */
export type ReportTemplateRecord = ReportTemplate & { templateStructure: TemplateStructure | null }

/**
 * The sort options of the list and the field each one orders by.
 *
 * @example
 * REPORT_TEMPLATE_SORT['created_at'] // the field that sort column orders by
 */
export const REPORT_TEMPLATE_SORT = { name: 'name', created_at: 'createdAt', updated_at: 'updatedAt' } as const

/**
 * The query parameters of the list: parses the query string into typed values with their defaults.
 *
 * @example
 * v.parse(ReportTemplateListQuerySchema, Object.fromEntries(new URL(request.url).searchParams))
 */
export const ReportTemplateListQuerySchema = v.strictObject({
  ...paginationQuery,
  sortBy: v.optional(enumParam(['name', 'created_at', 'updated_at'], 'Sort field.'), 'created_at'),
  sortOrder: sortOrderParam('desc'),
  reportTypeId: v.optional(uuidParam('Only templates of this report type.')),
  isShared: v.optional(booleanParam('Shared or private templates only.')),
})
export type ReportTemplateListQuery = v.InferOutput<typeof ReportTemplateListQuerySchema>

/**
 * The query parameters of the single-record operation: parses the query string into typed values.
 *
 * @example
 * v.parse(ReportTemplateDetailQuerySchema, Object.fromEntries(new URL(request.url).searchParams))
 */
export const ReportTemplateDetailQuerySchema = v.strictObject({
  includeStructure: v.optional(booleanParam('Include templateStructure.'), 'false'),
})

/**
 * The report templates collection.
 *
 * @example
 * reportTemplates.parts.structure // the template's structure, read only for one template
 */
export const reportTemplates = defineCollection<ReportTemplate, ReportTemplateRecord>()({
  name: 'reportTemplates',
  table: 'report_templates',
  event: { resource: 'report_template', readScope: 'reports.read' },
  // With its structure, which lists leave out.
  seed: seedSchemaOf(
    v.object({ ...ReportTemplateSchema.entries, templateStructure: v.nullable(TemplateStructureSchema) }),
  ),
  columns: [
    column('name', 'text', { field: 'name' }),
    column('created_at', 'text', { field: 'createdAt' }),
    column('updated_at', 'text', { field: 'updatedAt' }),
    column('report_type_id', 'text', { field: 'reportTypeId', nullable: true }),
    column('is_shared', 'boolean', { field: 'isShared' }),
  ],
  document: ({ templateStructure: _structure, ...template }) => template,
  parts: { structure: { field: 'templateStructure', read: (template) => template.templateStructure } },
  sorts: REPORT_TEMPLATE_SORT,
  filters: {
    reportTypeId: { column: 'report_type_id', op: 'equals' },
    isShared: { column: 'is_shared', op: 'equals', scan: true },
  } satisfies Partial<Record<keyof ReportTemplateListQuery, ListFilter>>,
  indexes: [['tenant_id', 'report_type_id']],
})
