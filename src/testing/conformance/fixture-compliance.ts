/**
 * The compliance templates and the compliance check of a fixture tenant. Titles tie in all but
 * case and hold `%`, `_` and `\`; priorities, criticalities and groups are null on some.
 */
import { companyRef } from './fixture-companies-and-users.js'
import { at, type FixtureIds, type FixtureTenant, fixtureId, KIND, nameSuffix, type SeedList } from './fixture-keys.js'

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
        id: fixtureId(tenant, KIND.complianceCheck, 100),
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
