import {
  ComplianceCheckSchema,
  ComplianceTemplateSchema,
  complianceChecks,
  complianceTemplates,
} from '../model/compliance.js'
import { readList, readOne } from './reads.js'
import { UuidIdParams } from './results.js'

export const listComplianceTemplates = readList(complianceTemplates, {
  id: 'listComplianceTemplates',
  path: '/compliance/templates',
  area: 'Compliance',
  summary: 'List compliance templates',
  scope: 'compliance.read',
  item: ComplianceTemplateSchema,
})

export const getComplianceTemplate = readOne(complianceTemplates, {
  id: 'getComplianceTemplate',
  path: '/compliance/templates/:id',
  area: 'Compliance',
  summary: 'Get a compliance template',
  scope: 'compliance.read',
  params: UuidIdParams,
  item: ComplianceTemplateSchema,
  what: 'Compliance template',
})

export const getComplianceCheck = readOne(complianceChecks, {
  id: 'getComplianceCheck',
  path: '/compliance/checks/:id',
  area: 'Compliance',
  summary: 'Get an assigned compliance check',
  scope: 'compliance.read',
  params: UuidIdParams,
  item: ComplianceCheckSchema,
  what: 'Compliance check',
})
