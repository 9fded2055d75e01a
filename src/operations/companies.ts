import { defineOperation } from '../http/operation.js'
import { listEnvelope } from '../model/shared.js'
import { okPage } from './results.js'
import { CompanyListQuerySchema, CompanySchema } from '../model/companies.js'

export const listCompanies = defineOperation({
  id: 'listCompanies',
  method: 'GET',
  path: '/companies',
  area: 'Companies',
  summary: 'List companies',
  scope: 'companies.read',
  query: CompanyListQuerySchema,
  response: listEnvelope(CompanySchema),
  successStatus: 200,
  errors: [],
  handle: async ({ store, tenantId, query }) => okPage(await store.listCompanies(tenantId, query), query),
})
