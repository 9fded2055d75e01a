import { CompanySchema, companies } from '../model/companies.js'
import { readList } from './reads.js'

export const listCompanies = readList(companies, {
  id: 'listCompanies',
  path: '/companies',
  area: 'Companies',
  summary: 'List companies',
  scope: 'companies.read',
  item: CompanySchema,
})
