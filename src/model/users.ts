/** Users: the tenant's staff. */
import * as v from 'valibot'
import {
  booleanParam,
  DateTimeSchema,
  enumParam,
  NamedRefSchema,
  NullableDateTimeSchema,
  textParam,
  uuidParam,
} from './shared.js'
import { column, defineCollection } from './collection.js'
import { filter, listQuerySchema, search } from './list-surface.js'
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
  list: {
    sorts: {
      full_name: 'fullName',
      email: 'email',
      status: 'status',
      created_at: 'createdAt',
      last_login: 'lastLogin',
    },
    defaultSort: { by: 'created_at', descending: true },
    direction: 'sortDesc',
    params: {
      search: search(textParam(255, 'Case-insensitive substring of the full name or e-mail.'), ['full_name', 'email']),
      status: filter(enumParam(USER_STATUSES, 'User status.'), 'status', 'equals'),
      roleId: filter(uuidParam('Only users with this role.'), 'role_id', 'equals'),
      companyId: filter(uuidParam('Only users of this company.'), 'company_id', 'equals'),
      isPrimaryAdmin: filter(booleanParam('Primary admins only, or everyone else.'), 'is_primary_admin', 'equals', {
        scan: true,
      }),
    },
  },
  indexes: [
    ['tenant_id', 'role_id'],
    ['tenant_id', 'company_id'],
  ],
})

/**
 * The query parameters of the list (derived from its surface): parses the query string into typed values.
 *
 * @example
 * v.parse(UserListQuerySchema, Object.fromEntries(new URL(request.url).searchParams))
 */
export const UserListQuerySchema = listQuerySchema(users)
export type UserListQuery = v.InferOutput<typeof UserListQuerySchema>
