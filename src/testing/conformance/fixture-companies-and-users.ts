/**
 * The companies, roles and users of a fixture tenant. Names tie ('Acme' twice), differ only in case,
 * hold code points above U+FFFF and `%`, `_` and `\`; some users have no name, role or company.
 */
import { CompanySchema } from '../../model/companies.js'
import { UserSchema } from '../../model/users.js'
import { defineFixture } from './fixture.js'
import {
  at,
  type FixtureTenant,
  fixtureId,
  fixtureIdRange,
  nameSuffix,
  type SeedList,
  shuffled,
} from './fixture-keys.js'
import type { FixtureIds } from './fixtures.js'

/** The kinds of {@link fixtureId} of this file's records. */
const COMPANY = 0x01
const USER = 0x03
const ROLE = 0x04

/** [name, createdAt, updatedAt]. Names: ties ('Acme' twice), case, code points above U+FFFF. */
export const COMPANY_ROWS: Array<[string, string, string]> = [
  ['Acme', at(1), at(5)],
  ['acme', at(1), at(5)],
  ['Zeta', at(2), at(3)],
  ['Éclair', at(3), at(3)],
  ['😀 Smile', at(2), at(6)],
  ['Ａlpha', at(4), at(4)], // U+FF21 sorts before U+1F600 by code point, after it by UTF-16 unit
  ['Acme', at(1), at(2)],
]

/**
 * Users: [fullName | null, email, status, isPrimaryAdmin, lastLogin | null, createdAt, role index | null,
 * company index | null].
 */
type UserRow = [
  string | null,
  string,
  'active' | 'disabled' | 'pending' | 'imported',
  boolean,
  string | null,
  string,
  number | null,
  number | null,
]
export const USER_ROWS: UserRow[] = [
  ['Ada Lovelace', 'ada@example.com', 'active', true, at(20), at(1), 0, 0],
  ['ada lovelace', 'ada2@example.com', 'active', false, at(20), at(1), 1, 0],
  ['Zed Zulu', 'zed@example.com', 'disabled', false, null, at(2), 0, 1],
  ['Émile Zola', 'emile@example.com', 'pending', false, at(19), at(2), null, null],
  ['😀 Smiley', 'smiley@example.com', 'imported', false, null, at(3), 1, 2],
  [null, 'nameless@example.com', 'active', false, at(18), at(3), 0, 0],
  ['Percent 100%', 'percent@example.com', 'active', false, at(17), at(4), 0, 1],
  ['Under_score', 'under@example.com', 'active', false, at(17), at(4), 0, 1],
  ['UnderXscore', 'underx@example.com', 'active', false, at(17), at(4), 0, 1],
  ['Back\\slash', 'back@example.com', 'pending', false, null, at(5), null, 2],
  ['Grace Hopper', 'GRACE@EXAMPLE.COM', 'active', false, at(16), at(5), 1, 2],
]

/**
 * The id and name of the fixture company at `index` (null for none), as records that name their
 * company hold them.
 *
 * @example
 * companyRef('b', 0) // { id: 'bbbbbbbb-0001-4000-8000-000000000001', name: 'Acme (B)' }
 */
export function companyRef(tenant: FixtureTenant, index: number | null): { id: string; name: string } | null {
  if (index === null) return null
  const row = COMPANY_ROWS[index]!
  return { id: fixtureId(tenant, COMPANY, index + 1), name: `${row[0]}${nameSuffix(tenant)}` }
}

/**
 * The companies of a fixture tenant, in id order.
 *
 * @example
 * companySeeds('a', fixtureIds('a'))[0]?.domain // 'acme.example'
 */
export function companySeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'companies'> {
  return COMPANY_ROWS.map(([name, createdAt, updatedAt], i) => ({
    id: ids.companies[i]!,
    name: `${name}${nameSuffix(tenant)}`,
    domain: i === 0 ? 'acme.example' : null,
    status: 'active',
    employeeCount: i === 0 ? 50 : null,
    createdAt,
    updatedAt,
  }))
}

/**
 * The users of a fixture tenant, in id order; tenant B's emails are `name.b@...`.
 *
 * @example
 * userSeeds('b', fixtureIds('b'))[0]?.email // 'ada.b@example.com'
 */
export function userSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'users'> {
  const roles = ['Admin', 'Technician'].map((name, i) => ({ id: ids.roles[i]!, name }))
  return USER_ROWS.map(([fullName, email, status, isPrimaryAdmin, lastLogin, createdAt, role, company], i) => ({
    id: ids.users[i]!,
    email: tenant === 'a' ? email : email.replace('@', '.b@'),
    fullName: fullName === null ? null : `${fullName}${nameSuffix(tenant)}`,
    status,
    isPrimaryAdmin,
    lastLogin,
    createdAt,
    updatedAt: createdAt,
    role: role === null ? null : roles[role]!,
    company: companyRef(tenant, company),
  }))
}

/**
 * The companies' fixture: seven companies, seeded in neither id nor name order.
 *
 * @example
 * companyFixture.ids('a').companies.length // 7
 */
export const companyFixture = defineFixture<'companies'>()({
  ids: (tenant) => ({ companies: fixtureIdRange(tenant, COMPANY, COMPANY_ROWS.length) }),
  seed: (tenant, ids) => shuffled(companySeeds(tenant, ids)),
  writable: true,
  record: CompanySchema,
})

/**
 * The users' fixture, and the ids of their two roles.
 *
 * @example
 * userFixture.ids('a').roles.length // 2
 */
export const userFixture = defineFixture<'users'>()({
  ids: (tenant) => ({ users: fixtureIdRange(tenant, USER, USER_ROWS.length), roles: fixtureIdRange(tenant, ROLE, 2) }),
  seed: (tenant, ids) => shuffled(userSeeds(tenant, ids)),
  writable: false,
  record: UserSchema,
})
