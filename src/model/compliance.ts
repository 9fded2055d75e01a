/** Compliance: check templates (listed) and the checks assigned from them (read one at a time). */
import * as v from 'valibot'
import {
  DateTimeSchema,
  enumParam,
  NullableDateTimeSchema,
  paginationQuery,
  sortOrderParam,
  textParam,
  uuidParam,
} from './shared.js'
import { column, defineCollection, type ListFilter } from './collection.js'
import { seedSchemaOf } from './seed-schema.js'

/** The allowed approval statuses. */
export const APPROVAL_STATUSES = ['draft', 'pending_review', 'approved', 'rejected'] as const
/** The allowed check scopes. */
export const CHECK_SCOPES = ['company', 'device', 'location'] as const

/**
 * A compliance check definition.
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'compliance_template.updated':
 * const template = v.parse(ComplianceTemplateSchema, event.data.object)
 * if (template.approvalStatus === 'approved') publish(template.title, template.howToCheck)
 */
export const ComplianceTemplateSchema = v.strictObject({
  id: v.string(),
  title: v.string(),
  description: v.nullable(v.string()),
  howToCheck: v.nullable(v.string()),
  whyImportant: v.nullable(v.string()),
  criticality: v.nullable(v.number()),
  priority: v.nullable(v.string()),
  frequency: v.nullable(v.string()),
  remediation: v.nullable(v.string()),
  remediationImpact: v.nullable(v.string()),
  references: v.nullable(v.string()),
  checkScope: v.picklist(CHECK_SCOPES),
  groupId: v.nullable(v.string()),
  groupName: v.nullable(v.string()),
  approvalStatus: v.picklist(APPROVAL_STATUSES),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
})
export type ComplianceTemplate = v.InferOutput<typeof ComplianceTemplateSchema>

/**
 * A compliance check assigned to a company, device or location.
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'compliance_check.updated':
 * const check = v.parse(ComplianceCheckSchema, event.data.object)
 * if (check.flagged) escalate(check.title, check.priority)
 */
export const ComplianceCheckSchema = v.strictObject({
  id: v.string(),
  checkId: v.nullable(v.string()),
  title: v.string(),
  description: v.nullable(v.string()),
  status: v.nullable(
    v.strictObject({
      id: v.string(),
      name: v.string(),
      color: v.nullable(v.string()),
      isPositive: v.boolean(),
      isComplete: v.boolean(),
    }),
  ),
  priority: v.nullable(v.string()),
  criticality: v.nullable(v.number()),
  flagged: v.boolean(),
  dueDate: NullableDateTimeSchema,
  completedAt: NullableDateTimeSchema,
  notesPublic: v.nullable(v.string()),
  notesPrivate: v.nullable(v.string()),
  runId: v.nullable(v.string()),
  runName: v.nullable(v.string()),
  companyId: v.nullable(v.string()),
  companyName: v.nullable(v.string()),
  groupId: v.nullable(v.string()),
  groupName: v.nullable(v.string()),
  deviceId: v.nullable(v.string()),
  deviceName: v.nullable(v.string()),
  locationId: v.nullable(v.string()),
  locationName: v.nullable(v.string()),
  updatedAt: DateTimeSchema,
})
export type ComplianceCheck = v.InferOutput<typeof ComplianceCheckSchema>

/**
 * The sort options of the list and the field each one orders by.
 *
 * @example
 * COMPLIANCE_TEMPLATE_SORT['created_at'] // the field that sort column orders by
 */
export const COMPLIANCE_TEMPLATE_SORT = {
  title: 'title',
  created_at: 'createdAt',
  updated_at: 'updatedAt',
  priority: 'priority',
  criticality: 'criticality',
} as const

/**
 * The query parameters of the list: parses the query string into typed values with their defaults.
 *
 * @example
 * v.parse(ComplianceTemplateListQuerySchema, Object.fromEntries(new URL(request.url).searchParams))
 */
export const ComplianceTemplateListQuerySchema = v.strictObject({
  ...paginationQuery,
  sortBy: v.optional(
    enumParam(['title', 'created_at', 'updated_at', 'priority', 'criticality'], 'Sort field.'),
    'created_at',
  ),
  sortOrder: sortOrderParam('desc'),
  groupId: v.optional(uuidParam('Only templates of this group.')),
  approvalStatus: v.optional(enumParam(APPROVAL_STATUSES, 'Approval status.')),
  checkScope: v.optional(enumParam(CHECK_SCOPES, 'Check scope.')),
  search: v.optional(textParam(100, 'Case-insensitive substring of the title.')),
})
export type ComplianceTemplateListQuery = v.InferOutput<typeof ComplianceTemplateListQuerySchema>

/**
 * The compliance templates collection.
 *
 * @example
 * complianceTemplates.filters.groupId // { column: 'group_id', op: 'equals' }
 */
export const complianceTemplates = defineCollection<ComplianceTemplate>()({
  name: 'complianceTemplates',
  table: 'compliance_templates',
  event: { resource: 'compliance_template', readScope: 'compliance.read' },
  seed: seedSchemaOf(ComplianceTemplateSchema),
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
  } satisfies Partial<Record<keyof ComplianceTemplateListQuery, ListFilter>>,
  search: { columns: ['title'], trigram: false },
  indexes: [['tenant_id', 'group_id']],
})

/**
 * The compliance checks collection (documents only).
 *
 * @example
 * complianceChecks.table // 'compliance_checks'
 */
export const complianceChecks = defineCollection<ComplianceCheck>()({
  name: 'complianceChecks',
  table: 'compliance_checks',
  event: { resource: 'compliance_check', readScope: 'compliance.read' },
  seed: seedSchemaOf(ComplianceCheckSchema),
})
