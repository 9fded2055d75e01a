/**
 * The demo tenant's automation rules: one per idea below, covering every trigger and entity type,
 * some scoped to companies and some aggregating their actions.
 */
import type { AutomationRuleRecord } from '../model/automation-rules.js'
import type { Sfc32 } from './prng.js'
import type { DemoCompany } from './people.js'
import { between, daysAgo, iso } from './time.js'

type Ref = { id: string; name: string }

type RuleIdea = Pick<AutomationRuleRecord, 'name' | 'description' | 'triggerType' | 'entityType' | 'triggerConfig'> & {
  conditions: Array<{
    logic: 'AND' | 'OR'
    conditions: Array<[field: string, operator: string, value: unknown]>
    groups?: Array<{ logic: 'AND' | 'OR'; conditions: Array<[string, string, unknown]> }>
  }>
  actions: Array<[actionType: string, config: Record<string, unknown>, requiresApproval?: boolean]>
  companyScoped?: boolean
  aggregation?: AutomationRuleRecord['aggregationConfig']
}

const RULE_IDEAS: readonly RuleIdea[] = [
  {
    name: 'Warranty expiring in 90 days',
    description: 'Adds a hardware refresh item to the planner when a device warranty is about to end.',
    triggerType: 'date_threshold',
    entityType: 'device',
    triggerConfig: { dateField: 'warrantyExpiresAt', daysBefore: 90 },
    conditions: [
      {
        logic: 'AND',
        conditions: [
          ['deviceType', 'in', ['laptop', 'desktop', 'server']],
          ['status', 'equals', 'active'],
        ],
      },
    ],
    actions: [
      ['create_planner_item', { itemType: 'Warranty Expiration', titleTemplate: 'Replace {{device.name}}' }],
      ['notify_user', { role: 'vCIO' }],
    ],
    aggregation: {
      enabled: true,
      groupBy: 'company',
      groupField: 'companyId',
      minBatchSize: 3,
      maxWaitHours: 24,
      combinedActionConfig: {
        titleTemplate: '{{count}} warranties expiring at {{company.name}}',
        descriptionTemplate: 'Devices: {{devices}}',
      },
    },
  },
  {
    name: 'Escalate stale critical tickets',
    description: 'Emails the service manager when a critical ticket has had no update for 4 hours.',
    triggerType: 'absence',
    entityType: 'ticket',
    triggerConfig: { field: 'updatedAt', hours: 4 },
    conditions: [
      {
        logic: 'AND',
        conditions: [
          ['priority', 'equals', 'Critical'],
          ['isClosed', 'equals', false],
        ],
      },
    ],
    actions: [['send_email', { to: 'service-manager', subject: 'Critical ticket {{ticket.number}} is stale' }]],
  },
  {
    name: 'Monthly compliance review reminder',
    description: null,
    triggerType: 'scheduled',
    entityType: 'compliance',
    triggerConfig: { cron: '0 14 1 * *', timezone: 'America/New_York' },
    conditions: [
      {
        logic: 'OR',
        conditions: [
          ['status', 'equals', 'Non-Compliant'],
          ['flagged', 'equals', true],
        ],
      },
    ],
    actions: [
      [
        'create_ticket',
        {
          board: 'Service Desk',
          priority: 'Medium',
          titleTemplate: 'Review open compliance findings for {{company.name}}',
        },
      ],
    ],
    companyScoped: true,
  },
  {
    name: 'Assign security training to new users',
    description: 'New staff at the client get the mandatory security awareness course.',
    triggerType: 'field_change',
    entityType: 'user',
    triggerConfig: { field: 'status', from: 'pending', to: 'active' },
    conditions: [{ logic: 'AND', conditions: [['email', 'not_contains', 'svc-']] }],
    actions: [['assign_training', { courseTitle: 'Security Awareness Essentials', dueInDays: 30 }]],
    companyScoped: true,
  },
  {
    name: 'Goal overdue alert',
    description: 'Flags goals that pass their due date while not completed.',
    triggerType: 'date_threshold',
    entityType: 'goal',
    triggerConfig: { dateField: 'dueDate', daysAfter: 1 },
    conditions: [
      {
        logic: 'AND',
        conditions: [['status', 'not_equals', 'Completed']],
        groups: [
          {
            logic: 'OR',
            conditions: [
              ['priority', 'equals', 'High'],
              ['progressPercentage', 'less_than', 50],
            ],
          },
        ],
      },
    ],
    actions: [
      ['notify_user', { role: 'vCIO' }],
      ['create_ticket', { board: 'Projects', priority: 'High', titleTemplate: 'Overdue goal: {{goal.title}}' }, true],
    ],
  },
  {
    name: 'QBR preparation',
    description: 'Two weeks before a business review, drafts the report and books prep time.',
    triggerType: 'date_threshold',
    entityType: 'meeting',
    triggerConfig: { dateField: 'startsAt', daysBefore: 14, meetingType: 'Quarterly Business Review' },
    conditions: [],
    actions: [
      ['create_report', { templateName: 'Quarterly Business Review' }],
      ['create_task', { title: 'Prepare QBR deck', assignee: 'account-owner' }],
    ],
    companyScoped: true,
  },
  {
    name: 'Training overdue nudge',
    description: 'Reminds enrollees whose mandatory training is past due.',
    triggerType: 'scheduled',
    entityType: 'training',
    triggerConfig: { cron: '0 13 * * 1', timezone: 'America/New_York' },
    conditions: [
      {
        logic: 'AND',
        conditions: [
          ['status', 'not_equals', 'completed'],
          ['dueDate', 'before', 'now'],
        ],
      },
    ],
    actions: [['send_email', { to: 'enrollee', templateName: 'training-overdue' }]],
    aggregation: {
      enabled: true,
      groupBy: 'user',
      groupField: 'userId',
      minBatchSize: 1,
      maxWaitHours: 168,
      combinedActionConfig: { titleTemplate: 'You have {{count}} overdue courses', descriptionTemplate: '{{courses}}' },
    },
  },
  {
    name: 'New company onboarding checklist',
    description: 'Creates the onboarding project when a company moves to onboarding.',
    triggerType: 'field_change',
    entityType: 'company',
    triggerConfig: { field: 'status', to: 'onboarding' },
    conditions: [],
    actions: [
      ['create_planner_item', { itemType: 'Project', titleTemplate: 'Onboard {{company.name}}' }],
      [
        'create_ticket',
        { board: 'Onboarding', priority: 'Medium', titleTemplate: 'Onboarding kickoff: {{company.name}}' },
      ],
      ['webhook', { url: 'https://hooks.harborline-it.com/onboarding', method: 'POST' }, true],
    ],
  },
  {
    name: 'Planner item due soon',
    description: null,
    triggerType: 'date_threshold',
    entityType: 'planner',
    triggerConfig: { dateField: 'targetDate', daysBefore: 30 },
    conditions: [{ logic: 'AND', conditions: [['status', 'in', ['proposed', 'approved']]] }],
    actions: [['notify_user', { role: 'Project Manager' }]],
  },
  {
    name: 'Repeat ticket detector',
    description: 'Opens a problem ticket when the same contact raises three similar tickets in a week.',
    triggerType: 'field_change',
    entityType: 'ticket',
    triggerConfig: { field: 'createdAt', windowDays: 7, threshold: 3 },
    conditions: [
      {
        logic: 'AND',
        conditions: [['typeName', 'equals', 'Incident']],
        groups: [
          {
            logic: 'OR',
            conditions: [
              ['categoryName', 'equals', 'Hardware'],
              ['categoryName', 'equals', 'Network & Connectivity'],
            ],
          },
        ],
      },
    ],
    actions: [
      [
        'create_ticket',
        { typeName: 'Problem', priority: 'High', titleTemplate: 'Recurring issue for {{contact.name}}' },
      ],
    ],
    companyScoped: true,
  },
]

/** Automation rules: every trigger and entity type, some company-scoped, some aggregated. */
export function makeAutomationRules(
  rng: Sfc32,
  companies: readonly DemoCompany[],
  authors: readonly Ref[],
): AutomationRuleRecord[] {
  const customers = companies.filter((c) => c.active)
  const condition = ([field, operator, value]: [string, string, unknown]) => ({
    id: rng.uuid(),
    field,
    operator,
    value,
  })
  return RULE_IDEAS.map((idea) => {
    const companyIds =
      idea.companyScoped && customers.length > 0
        ? [...new Set(Array.from({ length: rng.int(1, 3) }, () => rng.pick(customers).id))]
        : []
    const createdAt = between(rng, daysAgo(600), daysAgo(30))
    const version = rng.int(1, 6)
    const author = rng.pick(authors)
    return {
      id: rng.uuid(),
      name: idea.name,
      description: idea.description,
      isActive: rng.chance(0.8),
      priority: rng.int(0, 10) * 10,
      scopeType: companyIds.length > 0 ? 'company' : 'tenant',
      companyIds,
      triggerType: idea.triggerType,
      entityType: idea.entityType,
      triggerConfig: idea.triggerConfig,
      conditions: idea.conditions.map((group) => ({
        id: rng.uuid(),
        logic: group.logic,
        conditions: group.conditions.map(condition),
        groups: (group.groups ?? []).map((inner) => ({
          id: rng.uuid(),
          logic: inner.logic,
          conditions: inner.conditions.map(condition),
          groups: [],
        })),
      })),
      actions: idea.actions.map(([actionType, config, requiresApproval], order) => ({
        id: rng.uuid(),
        actionType,
        config,
        order,
        requiresApproval: requiresApproval ?? false,
      })),
      aggregationConfig: idea.aggregation ?? null,
      createdBy: author,
      updatedBy: version > 1 ? rng.pick(authors) : author,
      createdAt: iso(createdAt),
      updatedAt: iso(version > 1 ? between(rng, createdAt, daysAgo(2)) : createdAt),
      version,
    }
  })
}
