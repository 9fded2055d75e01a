/** Users: the tenant's staff. */
import * as v from 'valibot'
import {
  booleanParam,
  DateTimeSchema,
  enumParam,
  NamedRefSchema,
  NullableDateTimeSchema,
  paginationQuery,
  textParam,
  uuidParam,
} from './shared.js'
import { column, defineCollection, type ListFilter } from './collection.js'
import { seedSchemaOf } from './seed-schema.js'

/** The allowed user statuses. */
export const USER_STATUSES = ['active', 'disabled', 'pending', 'imported'] as const

/**
 * A member of the tenant's staff.
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'user.updated':
 * const user = v.parse(UserSchema, event.data.object)
 * if (user.status === 'disabled') revokeAccess(user.email)
 */
export const UserSchema = v.strictObject({
  id: v.string(),
  email: v.string(),
  fullName: v.nullable(v.string()),
  avatarUrl: v.nullable(v.string()),
  status: v.picklist(USER_STATUSES),
  isPrimaryAdmin: v.boolean(),
  lastLogin: NullableDateTimeSchema,
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  role: v.nullable(NamedRefSchema),
  company: v.nullable(NamedRefSchema),
})
export type User = v.InferOutput<typeof UserSchema>

/**
 * The sort options of the list and the field each one orders by.
 *
 * @example
 * USER_SORT_COLUMNS['created_at'] // the field that sort column orders by
 */
export const USER_SORT_COLUMNS = {
  full_name: 'fullName',
  email: 'email',
  status: 'status',
  created_at: 'createdAt',
  last_login: 'lastLogin',
} as const

/**
 * The query parameters of the list: parses the query string into typed values with their defaults.
 *
 * @example
 * v.parse(UserListQuerySchema, Object.fromEntries(new URL(request.url).searchParams))
 */
export const UserListQuerySchema = v.strictObject({
  ...paginationQuery,
  sortColumn: v.optional(
    enumParam(['full_name', 'email', 'status', 'created_at', 'last_login'], 'Sort field.'),
    'created_at',
  ),
  sortDesc: v.optional(booleanParam('Sort descending.'), 'true'),
  search: v.optional(textParam(255, 'Case-insensitive substring of the full name or e-mail.')),
  status: v.optional(enumParam(USER_STATUSES, 'User status.')),
  roleId: v.optional(uuidParam('Only users with this role.')),
  companyId: v.optional(uuidParam('Only users of this company.')),
  isPrimaryAdmin: v.optional(booleanParam('Primary admins only, or everyone else.')),
})
export type UserListQuery = v.InferOutput<typeof UserListQuerySchema>

/**
 * The users collection.
 *
 * @example
 * users.search?.columns // ['full_name', 'email']
 */
export const users = defineCollection<User>()({
  name: 'users',
  table: 'users',
  event: { resource: 'user', readScope: 'users.read' },
  seed: seedSchemaOf(UserSchema),
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
  } satisfies Partial<Record<keyof UserListQuery, ListFilter>>,
  search: { columns: ['full_name', 'email'], trigram: false },
  indexes: [
    ['tenant_id', 'role_id'],
    ['tenant_id', 'company_id'],
  ],
})
