/** Companies: the tenant's customers. */
import * as v from 'valibot'
import { DateTimeSchema, enumParam, paginationQuery, sortOrderParam } from './shared.js'
import { column, defineCollection } from './collection.js'
import { seedSchemaOf } from './seed-schema.js'

/**
 * A customer company of the tenant.
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'company.created':
 * const company = v.parse(CompanySchema, event.data.object)
 * crm.upsert(company.id, { name: company.name, domain: company.domain })
 */
export const CompanySchema = v.strictObject({
  id: v.string(),
  name: v.string(),
  domain: v.nullable(v.string()),
  status: v.string(),
  employeeCount: v.nullable(v.number()),
  industry: v.nullable(v.string()),
  website: v.nullable(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
})
export type Company = v.InferOutput<typeof CompanySchema>

/**
 * The sort options of the list and the field each one orders by.
 *
 * @example
 * COMPANY_SORT['created_at'] // the field that sort column orders by
 */
export const COMPANY_SORT = { name: 'name', created_at: 'createdAt', updated_at: 'updatedAt' } as const

/**
 * The query parameters of the list: parses the query string into typed values with their defaults.
 *
 * @example
 * v.parse(CompanyListQuerySchema, Object.fromEntries(new URL(request.url).searchParams))
 */
export const CompanyListQuerySchema = v.strictObject({
  ...paginationQuery,
  sortBy: v.optional(enumParam(['name', 'created_at', 'updated_at'], 'Sort field.'), 'name'),
  sortOrder: sortOrderParam('asc'),
})
export type CompanyListQuery = v.InferOutput<typeof CompanyListQuerySchema>

/**
 * The companies collection.
 *
 * @example
 * companies.sorts.created_at // 'created_at'
 */
export const companies = defineCollection<Company>()({
  name: 'companies',
  table: 'companies',
  event: { resource: 'company', readScope: 'companies.read' },
  seed: seedSchemaOf(CompanySchema),
  columns: [
    column('name', 'text', { field: 'name' }),
    column('created_at', 'text', { field: 'createdAt' }),
    column('updated_at', 'text', { field: 'updatedAt' }),
  ],
  sorts: COMPANY_SORT,
})
