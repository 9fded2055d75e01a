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
} from '../shared/schemas.js'

/**
 * The allowed user statuses.
 *
 * @example
 * USER_STATUSES.includes(value)
 */
export const USER_STATUSES = ['active', 'disabled', 'pending', 'imported'] as const

/**
 * A member of the tenant's staff.
 *
 * @example
 * v.is(UserSchema, value)
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
