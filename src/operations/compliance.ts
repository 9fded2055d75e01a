import { defineOperation } from '../http/operation.js'
import { complianceChecks, complianceTemplates } from '../model/compliance.js'
import { listPage } from './list-pages.js'
import { dataEnvelope, listEnvelope } from '../model/shared.js'
import { found, ok, UuidIdParams } from './results.js'
import {
  ComplianceCheckSchema,
  ComplianceTemplateListQuerySchema,
  ComplianceTemplateSchema,
} from '../model/compliance.js'

export const listComplianceTemplates = defineOperation({
  id: 'listComplianceTemplates',
  method: 'GET',
  path: '/compliance/templates',
  area: 'Compliance',
  summary: 'List compliance templates',
  scope: 'compliance.read',
  query: ComplianceTemplateListQuerySchema,
  response: listEnvelope(ComplianceTemplateSchema),
  successStatus: 200,
  errors: [],
  handle: (context) => listPage(context, complianceTemplates),
})

export const getComplianceTemplate = defineOperation({
  id: 'getComplianceTemplate',
  method: 'GET',
  path: '/compliance/templates/:id',
  area: 'Compliance',
  summary: 'Get a compliance template',
  scope: 'compliance.read',
  params: UuidIdParams,
  response: dataEnvelope(ComplianceTemplateSchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async ({ store, tenantId, params }) =>
    ok(await found(store.get(complianceTemplates, tenantId, params.id), 'Compliance template')),
})

export const getComplianceCheck = defineOperation({
  id: 'getComplianceCheck',
  method: 'GET',
  path: '/compliance/checks/:id',
  area: 'Compliance',
  summary: 'Get an assigned compliance check',
  scope: 'compliance.read',
  params: UuidIdParams,
  response: dataEnvelope(ComplianceCheckSchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async ({ store, tenantId, params }) =>
    ok(await found(store.get(complianceChecks, tenantId, params.id), 'Compliance check')),
})
