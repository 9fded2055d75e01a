/** Users: the tenant's staff. */
import { USER_SORT_COLUMNS, type User, type UserListQuery } from '../resources/users/schema.js'
import { column, defineCollection, type FilterSpec } from './collection.js'

/**
 * The users collection.
 *
 * @example
 * users.search?.columns // ['full_name', 'email']
 */
export const users = defineCollection<User>({
  name: 'users',
  table: 'users',
  columns: [
    column('full_name', 'text', { field: 'fullName', nullable: true, folded: true }),
    column('email', 'text', { field: 'email', folded: true }),
    column('status', 'text', { field: 'status' }),
    column('created_at', 'text', { field: 'createdAt' }),
    column('last_login', 'text', { field: 'lastLogin', nullable: true }),
    column('role_id', 'text', { read: (user) => user.role?.id ?? null, nullable: true }),
    column('company_id', 'text', { read: (user) => user.company?.id ?? null, nullable: true }),
    column('is_primary_admin', 'boolean', { field: 'isPrimaryAdmin' }),
  ],
  sorts: USER_SORT_COLUMNS,
  filters: {
    status: { column: 'status', op: 'equals' },
    roleId: { column: 'role_id', op: 'equals' },
    companyId: { column: 'company_id', op: 'equals' },
    isPrimaryAdmin: { column: 'is_primary_admin', op: 'equals', scan: true },
  } satisfies Partial<Record<keyof UserListQuery, FilterSpec>>,
  search: { columns: ['full_name', 'email'], trigram: false },
  indexes: [
    ['tenant_id', 'role_id'],
    ['tenant_id', 'company_id'],
  ],
})
