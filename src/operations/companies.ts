import { defineOperation } from '../http/operation.js'
import { companies } from '../model/companies.js'
import { listPage } from './list-pages.js'
import { listEnvelope } from '../model/shared.js'
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
  handle: (context) => listPage(context, companies),
})
