import {
  ReportTemplateDetailQuerySchema,
  ReportTemplateDetailSchema,
  ReportTemplateSchema,
  reportTemplates,
} from '../model/report-templates.js'
import { readList, readOne } from './reads.js'
import { UuidIdParams } from './results.js'

export const listReportTemplates = readList(reportTemplates, {
  id: 'listReportTemplates',
  path: '/report-templates',
  area: 'Reports',
  summary: 'List report templates',
  scope: 'reports.read',
  item: ReportTemplateSchema,
})

export const getReportTemplate = readOne(reportTemplates, {
  id: 'getReportTemplate',
  path: '/report-templates/:id',
  area: 'Reports',
  summary: 'Get a report template',
  scope: 'reports.read',
  params: UuidIdParams,
  query: ReportTemplateDetailQuerySchema,
  item: ReportTemplateDetailSchema,
  what: 'Report template',
  request: (query) => ({ include: query.includeStructure ? { templateStructure: true } : {} }),
})
