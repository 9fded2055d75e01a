import { UserSchema, users } from '../model/users.js'
import { readList } from './reads.js'

export const listUsers = readList(users, {
  id: 'listUsers',
  path: '/users',
  area: 'Users',
  summary: 'List the tenant’s users',
  scope: 'users.read',
  item: UserSchema,
})
