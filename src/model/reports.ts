/** Reports (versioned documents, replaced by compare-and-set on `version`) and report types. */
import * as v from 'valibot'
import { DATE_OR_DATE_TIME_JSON, DateTimeSchema, isDateOrDateTime, JsonObjectSchema, UuidSchema } from './shared.js'
import { column, defineCollection, defineView, type Names } from './collection.js'
import { companies } from './companies.js'
import { omit, seedSchemaOf } from './seed-schema.js'

/** The allowed report statuses. */
export const REPORT_STATUSES = ['draft', 'published'] as const

/**
 * A report. `companyName` follows `companyId` and `reportTypeName` follows `reportTypeId`.
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'report.updated':
 * const report = v.parse(ReportSchema, event.data.object)
 * if (report.isShared) notify(report.companyName, report.title)
 */
export const ReportSchema = v.strictObject({
  id: UuidSchema,
  title: v.string(),
  description: v.nullable(v.string()),
  status: v.picklist(REPORT_STATUSES),
  isShared: v.boolean(),
  version: v.number(),
  coverImageUrl: v.nullable(v.string()),
  dateStart: v.nullable(v.string()),
  dateEnd: v.nullable(v.string()),
  companyId: v.nullable(v.string()),
  companyName: v.nullable(v.string()),
  reportTypeId: v.nullable(v.string()),
  reportTypeName: v.nullable(v.string()),
  reportTemplateId: v.nullable(v.string()),
  authorUserId: v.nullable(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
})
export type Report = v.InferOutput<typeof ReportSchema>
/** A report as a store keeps it: with its `content`, without the derived names. */
export type ReportRecord = Omit<Report, 'companyName' | 'reportTypeName'> & { content: Record<string, unknown> | null }

/** A report date: `YYYY-MM-DD` or an ISO 8601 date-time. */
const ReportDateSchema = v.pipe(
  v.string(),
  v.check(isDateOrDateTime, 'Must be a date (YYYY-MM-DD) or an ISO 8601 date-time'),
  // The check above, as the OpenAPI document states it, with an example.
  v.metadata(DATE_OR_DATE_TIME_JSON),
  v.description('A date (YYYY-MM-DD) or an ISO 8601 date-time.'),
  v.examples(['2026-01-15']),
)

/**
 * The body of `PATCH /reports/{id}`: only supplied fields change; `null` clears where allowed.
 *
 * @example
 * const body = v.parse(UpdateReportSchema, await request.json())
 */
export const UpdateReportSchema = v.pipe(
  v.strictObject({
    title: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(500))),
    description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2000)))),
    companyId: v.optional(v.nullable(UuidSchema)),
    reportTypeId: v.optional(v.nullable(UuidSchema)),
    dateStart: v.optional(v.nullable(ReportDateSchema)),
    dateEnd: v.optional(v.nullable(ReportDateSchema)),
    content: v.optional(JsonObjectSchema),
    status: v.optional(v.picklist(REPORT_STATUSES)),
    isShared: v.optional(v.boolean()),
  }),
  // `minEntries` rather than a check: the OpenAPI document shows it as `minProperties: 1`.
  v.minEntries(1, 'Send at least one field to update'),
  v.forward(
    v.check(
      (p) =>
        typeof p.dateStart !== 'string' ||
        typeof p.dateEnd !== 'string' ||
        Date.parse(p.dateStart) <= Date.parse(p.dateEnd),
      'dateStart must not be after dateEnd',
    ),
    ['dateEnd'],
  ),
)
export type UpdateReport = v.InferOutput<typeof UpdateReportSchema>

/**
 * A report type: referenced by reports and templates, no endpoint of its own.
 *
 * @example
 * v.parse(ReportTypeSchema, { id: reportTypeId, name: 'Quarterly review' }) // seeded, never served alone
 */
export const ReportTypeSchema = v.strictObject({ id: v.string(), name: v.string() })
export type ReportType = v.InferOutput<typeof ReportTypeSchema>

/**
 * The report types collection (documents only).
 *
 * @example
 * reportTypes.table // 'report_types'
 */
export const reportTypes = defineCollection<ReportType>()({
  name: 'reportTypes',
  table: 'report_types',
  event: null,
  // The response schema as is, strict: a seed's unknown fields are refused (docs/seed.md).
  seed: ReportTypeSchema,
})

/**
 * What the API shows of a report (its writes and events): without its `content`, with the names of
 * its company and its report type (null when it names none, or one the tenant does not have).
 *
 * @example
 * reports.view.show(record, { company: new Map([[record.companyId, 'Acme']]), reportType: new Map() }).companyName
 */
const reportView = defineView({
  fields: ['companyName', 'reportTypeName'],
  needs: {
    company: { names: companies, field: 'companyId' },
    reportType: { names: reportTypes, field: 'reportTypeId' },
  },
  show: (record: ReportRecord, needs: { company: Names; reportType: Names }): Report => ({
    id: record.id,
    title: record.title,
    description: record.description,
    status: record.status,
    isShared: record.isShared,
    version: record.version,
    coverImageUrl: record.coverImageUrl,
    dateStart: record.dateStart,
    dateEnd: record.dateEnd,
    companyId: record.companyId,
    companyName: record.companyId === null ? null : (needs.company.get(record.companyId) ?? null),
    reportTypeId: record.reportTypeId,
    reportTypeName: record.reportTypeId === null ? null : (needs.reportType.get(record.reportTypeId) ?? null),
    reportTemplateId: record.reportTemplateId,
    authorUserId: record.authorUserId,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }),
})

/**
 * The reports collection.
 *
 * @example
 * reports.columns[0]?.name // 'version'
 */
export const reports = defineCollection<ReportRecord>()({
  name: 'reports',
  table: 'reports',
  event: { resource: 'report', readScope: 'reports.read' },
  seed: seedSchemaOf(
    v.object({ ...omit(ReportSchema.entries, ...reportView.fields), content: v.nullable(JsonObjectSchema) }),
  ),
  columns: [column('version', 'integer', { field: 'version' })],
  view: reportView,
})
