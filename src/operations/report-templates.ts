import { defineOperation } from '../http/operation.js'
import { reportTemplates } from '../model/report-templates.js'
import { listPage } from './list-pages.js'
import { dataEnvelope, listEnvelope } from '../model/shared.js'
import { found, ok, UuidIdParams } from './results.js'
import {
  ReportTemplateDetailQuerySchema,
  ReportTemplateDetailSchema,
  ReportTemplateListQuerySchema,
  ReportTemplateSchema,
} from '../model/report-templates.js'

export const listReportTemplates = defineOperation({
  id: 'listReportTemplates',
  method: 'GET',
  path: '/report-templates',
  area: 'Reports',
  summary: 'List report templates',
  scope: 'reports.read',
  query: ReportTemplateListQuerySchema,
  response: listEnvelope(ReportTemplateSchema),
  successStatus: 200,
  errors: [],
  handle: (context) => listPage(context, reportTemplates),
})

export const getReportTemplate = defineOperation({
  id: 'getReportTemplate',
  method: 'GET',
  path: '/report-templates/:id',
  area: 'Reports',
  summary: 'Get a report template',
  scope: 'reports.read',
  params: UuidIdParams,
  query: ReportTemplateDetailQuerySchema,
  response: dataEnvelope(ReportTemplateDetailSchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async ({ store, tenantId, params, query }) =>
    ok(
      await found(
        store.get(reportTemplates, tenantId, params.id, {
          include: query.includeStructure ? { templateStructure: true } : {},
        }),
        'Report template',
      ),
    ),
})
