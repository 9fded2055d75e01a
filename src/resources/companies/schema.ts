import * as v from 'valibot'
import { DateTimeSchema, enumParam, paginationQuery, sortOrderParam } from '../shared/schemas.js'

/** A customer company of the tenant. */
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

export const COMPANY_SORT = { name: 'name', created_at: 'createdAt', updated_at: 'updatedAt' } as const

export const CompanyListQuerySchema = v.strictObject({
  ...paginationQuery,
  sortBy: v.optional(enumParam(['name', 'created_at', 'updated_at'], 'Sort field.'), 'name'),
  sortOrder: sortOrderParam('asc'),
})
export type CompanyListQuery = v.InferOutput<typeof CompanyListQuerySchema>
