/**
 * The compliance templates and the compliance check of a fixture tenant. Titles tie in all but
 * case and hold `%`, `_` and `\`; priorities, criticalities and groups are null on some.
 */
import { companyRef } from './fixture-companies-and-users.js'
import { ComplianceCheckSchema, ComplianceTemplateSchema } from '../../model/compliance.js'
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
const TEMPLATE = 0x05
const GROUP = 0x06
const CHECK = 0x07

/**
 * Compliance templates: [title, priority | null, criticality | null, group index | null, approvalStatus,
 * checkScope, createdAt, updatedAt].
 */
type TemplateRow = [
  string,
  string | null,
  number | null,
  number | null,
  'draft' | 'pending_review' | 'approved' | 'rejected',
  'company' | 'device' | 'location',
  string,
  string,
]
export const TEMPLATE_ROWS: TemplateRow[] = [
  ['Backups verified', 'High', 5, 0, 'approved', 'company', at(1), at(3)],
  ['backups verified', 'high', 5, 0, 'approved', 'device', at(1), at(3)],
  ['Zero trust', 'Low', 1, 1, 'draft', 'location', at(2), at(2)],
  ['Éncryption at rest', null, null, 1, 'pending_review', 'device', at(2), at(4)],
  ['😀 Happy users', 'Medium', 3, null, 'rejected', 'company', at(3), at(4)],
  ['100% patched', 'High', 4, 0, 'approved', 'device', at(3), at(5)],
  ['100 percent patched', 'High', 4, 0, 'approved', 'device', at(3), at(5)],
  ['key_rotation', 'Low', null, null, 'draft', 'company', at(4), at(5)],
  ['keyXrotation', 'Low', 2, null, 'draft', 'company', at(4), at(5)],
  ['C:\\Windows hardened', null, 2, 1, 'approved', 'location', at(5), at(6)],
]

/**
 * The compliance templates of a fixture tenant, in id order, in two groups (some in none).
 *
 * @example
 * complianceTemplateSeeds('a', fixtureIds('a'))[0]?.groupName // 'Security'
 */
export function complianceTemplateSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'complianceTemplates'> {
  const groups = ['Security', 'Operations'].map((name, i) => ({ id: ids.complianceGroups[i]!, name }))
  return TEMPLATE_ROWS.map(
    ([title, priority, criticality, group, approvalStatus, checkScope, createdAt, updatedAt], i) => ({
      id: ids.complianceTemplates[i]!,
      title: `${title}${nameSuffix(tenant)}`,
      priority,
      criticality,
      groupId: group === null ? null : groups[group]!.id,
      groupName: group === null ? null : groups[group]!.name,
      approvalStatus,
      checkScope,
      createdAt,
      updatedAt,
    }),
  )
}

/**
 * The one compliance check of a fixture tenant: the first template's, passed, on the first company.
 *
 * @example
 * complianceCheckSeeds('a', fixtureIds('a'))[0]?.status.name // 'Passed'
 */
export function complianceCheckSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'complianceChecks'> {
  return [
    {
      id: ids.complianceCheck,
      checkId: ids.complianceTemplates[0]!,
      title: `Backups verified${nameSuffix(tenant)}`,
      status: {
        id: fixtureId(tenant, CHECK, 100),
        name: 'Passed',
        color: '#0a0',
        isPositive: true,
        isComplete: true,
      },
      flagged: false,
      companyId: ids.companies[0]!,
      companyName: companyRef(tenant, 0)!.name,
      updatedAt: at(3),
    },
  ]
}

/**
 * The compliance templates' fixture, and the ids of their two groups.
 *
 * @example
 * complianceTemplateFixture.ids('a').complianceGroups.length // 2
 */
export const complianceTemplateFixture = defineFixture<'complianceTemplates'>()({
  ids: (tenant) => ({
    complianceTemplates: fixtureIdRange(tenant, TEMPLATE, TEMPLATE_ROWS.length),
    complianceGroups: fixtureIdRange(tenant, GROUP, 2),
  }),
  seed: (tenant, ids) => shuffled(complianceTemplateSeeds(tenant, ids)),
  writable: false,
  record: ComplianceTemplateSchema,
})

/**
 * The compliance checks' fixture: one check.
 *
 * @example
 * complianceCheckFixture.ids('a').complianceCheck // 'aaaaaaaa-0007-4000-8000-000000000001'
 */
export const complianceCheckFixture = defineFixture<'complianceChecks'>()({
  ids: (tenant) => ({ complianceCheck: fixtureId(tenant, CHECK, 1) }),
  seed: complianceCheckSeeds,
  writable: false,
  record: ComplianceCheckSchema,
})
