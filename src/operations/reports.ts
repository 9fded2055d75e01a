import { validationError, type ValidationIssue } from '../http/errors.js'
import { defineOperation } from '../http/operation.js'
import { parseIfMatch, updateVersioned } from '../model/versioning.js'
import { dataEnvelope } from '../model/shared.js'
import { ok, UuidIdParams, versionTag } from './results.js'
import {
  ReportSchema,
  reportTypes,
  reports,
  UpdateReportSchema,
  type Report,
  type ReportRecord,
} from '../model/reports.js'
import { companies } from '../model/companies.js'
import { writeContextOf } from './write-context.js'

export const updateReport = defineOperation({
  id: 'updateReport',
  method: 'PATCH',
  path: '/reports/:id',
  area: 'Reports',
  summary: 'Update a report',
  description:
    'Only the supplied fields change; `null` clears description, companyId, reportTypeId, dateStart and dateEnd. ' +
    '`content` replaces the report’s content structure. ' +
    '`version` goes up by 1; send `If-Match` with the version you read to refuse lost updates (412).',
  scope: 'reports.write',
  params: UuidIdParams,
  body: UpdateReportSchema,
  response: dataEnvelope(ReportSchema),
  successStatus: 200,
  responseHeaders: { ETag: 'The report’s new version, quoted.' },
  errors: ['NOT_FOUND', 'PRECONDITION_FAILED'],
  handle: async (context) => {
    const { store, tenantId, params, body, now, request } = context
    let needs: Parameters<typeof reports.view.show>[1] = { company: new Map(), reportType: new Map() }
    const saved = await updateVersioned<ReportRecord>({
      what: 'Report',
      ifMatch: parseIfMatch(request.headers.get('if-match')),
      load: () => store.get(reports, tenantId, params.id),
      change: async (current) => {
        const next: ReportRecord = { ...current, ...body, updatedAt: now.toISOString() }
        const [company, reportType] = await Promise.all([
          next.companyId === null ? [] : store.findNames(companies, tenantId, [next.companyId]),
          next.reportTypeId === null ? null : store.get(reportTypes, tenantId, next.reportTypeId),
        ])
        const issues: ValidationIssue[] = []
        if (typeof body.companyId === 'string' && company.length === 0)
          issues.push({ in: 'body', path: 'companyId', message: 'No company with this id' })
        if (typeof body.reportTypeId === 'string' && reportType === null)
          issues.push({ in: 'body', path: 'reportTypeId', message: 'No report type with this id' })
        if (issues.length > 0) throw validationError(issues)
        needs = {
          company: new Map(company.map((c) => [c.id, c.name])),
          reportType: new Map(reportType === null ? [] : [[reportType.id, reportType.name]]),
        }
        return next
      },
      save: (next, expected) => store.replaceVersioned(reports, tenantId, next, expected, writeContextOf(context)),
    })
    const report: Report = reports.view.show(saved, needs)
    return ok(report, versionTag(saved.version))
  },
})
