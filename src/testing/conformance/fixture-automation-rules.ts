/** The automation rule of a fixture tenant, and the smallest valid rule body. */
import * as v from 'valibot'
import { AutomationRuleSchema } from '../../model/automation-rules.js'
import { defineFixture } from './fixture.js'
import { at, type FixtureTenant, fixtureId, nameSuffix, type SeedList } from './fixture-keys.js'
import type { FixtureIds } from './fixtures.js'

/** The kind of {@link fixtureId} of automation rules. */
const RULE = 0x11

/**
 * The one automation rule of a fixture tenant: scoped to two companies, at version 3.
 *
 * @example
 * automationRuleSeeds('a', fixtureIds('a'))[0]?.version // 3
 */
export function automationRuleSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'automationRules'> {
  return [
    {
      id: ids.rule,
      name: `Stale device alert${nameSuffix(tenant)}`,
      description: 'Alerts on stale devices',
      isActive: true,
      priority: 10,
      scopeType: 'company' as const,
      companyIds: [ids.companies[2]!, ids.companies[0]!],
      triggerType: 'date_threshold' as const,
      entityType: 'device' as const,
      triggerConfig: { days: 30 },
      conditions: [
        {
          id: 'g1',
          logic: 'AND',
          conditions: [{ id: 'c1', field: 'lastSeen', operator: 'olderThan', value: 30 }],
          groups: [],
        },
      ],
      actions: [{ id: 'a1', actionType: 'notify', config: { to: 'ops' }, order: 0, requiresApproval: false }],
      aggregationConfig: null,
      createdBy: { id: ids.users[0]!, name: 'Ada Lovelace' },
      updatedBy: { id: ids.users[0]!, name: 'Ada Lovelace' },
      createdAt: at(1),
      updatedAt: at(2),
      version: 3,
    },
  ]
}

/**
 * A minimal valid rule body for `POST /automation`.
 *
 * @example
 * await h.call('POST', '/automation', { body: MINIMAL_RULE })
 */
export const MINIMAL_RULE = {
  name: 'Minimal rule',
  triggerType: 'scheduled',
  triggerConfig: { cron: '0 * * * *' },
  entityType: 'ticket',
  conditions: [],
  actions: [],
} as const

/**
 * The automation rules' fixture: one rule, at version 3.
 *
 * @example
 * automationRuleFixture.ids('a').rule // 'aaaaaaaa-0011-4000-8000-000000000001'
 */
export const automationRuleFixture = defineFixture<'automationRules'>()({
  ids: (tenant) => ({ rule: fixtureId(tenant, RULE, 1) }),
  seed: automationRuleSeeds,
  writable: true,
  // As stored: without the company names its view adds.
  record: v.omit(AutomationRuleSchema, ['companies']),
})
