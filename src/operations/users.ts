import { defineOperation } from '../http/operation.js'
import { users } from '../model/users.js'
import { listPage } from './list-pages.js'
import { listEnvelope } from '../model/shared.js'
import { UserListQuerySchema, UserSchema } from '../model/users.js'

export const listUsers = defineOperation({
  id: 'listUsers',
  method: 'GET',
  path: '/users',
  area: 'Users',
  summary: 'List the tenant’s users',
  scope: 'users.read',
  query: UserListQuerySchema,
  response: listEnvelope(UserSchema),
  successStatus: 200,
  errors: [],
  handle: (context) => listPage(context, users),
})
