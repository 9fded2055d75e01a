/** Companies: the tenant's customers. */
import { COMPANY_SORT, type Company } from '../resources/companies/schema.js'
import { column, defineCollection } from './collection.js'

/**
 * The companies collection.
 *
 * @example
 * companies.sorts.created_at // 'created_at'
 */
export const companies = defineCollection<Company>({
  name: 'companies',
  table: 'companies',
  columns: [
    column('name', 'text', { field: 'name' }),
    column('created_at', 'text', { field: 'createdAt' }),
    column('updated_at', 'text', { field: 'updatedAt' }),
  ],
  sorts: COMPANY_SORT,
})
