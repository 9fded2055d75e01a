/**
 * The rest of the demo tenant: automation rules, reports and templates, compliance, training,
 * meeting types and NPS surveys.
 */
import type { AutomationRuleRecord } from '../model/automation-rules.js'
import type { MeetingType } from '../model/calendar.js'
import type { ComplianceCheck, ComplianceTemplate } from '../model/compliance.js'
import type { NpsSurveyRecord } from '../model/nps-surveys.js'
import type { ReportTemplateRecord, TemplateStructure } from '../model/report-templates.js'
import type { ReportRecord, ReportType } from '../model/reports.js'
import type { TrainingEnrollment } from '../model/training.js'
import type { TrainingCourseRecord } from '../model/seed.js'
import type { Sfc32 } from './prng.js'
import type { DemoCompany } from './people.js'
import { between, DAY, daysAgo, DEMO_NOW, iso, isoDate, quarterEnd, quarterStart } from './time.js'
import { DEMO_MSP } from './vocabulary.js'

type Ref = { id: string; name: string }

// --- automation rules ------------------------------------------------------------------------

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

// --- reports and templates -------------------------------------------------------------------

const REPORT_TYPES = [
  'Quarterly Business Review',
  'Monthly Service Report',
  'Security Assessment',
  'Compliance Summary',
  'Asset Lifecycle Report',
  'Strategic Roadmap',
]

/** The report types (no endpoint of their own; reports and templates name them). */
export function makeReportTypes(rng: Sfc32): ReportType[] {
  return REPORT_TYPES.map((name) => ({ id: rng.uuid(), name }))
}

const TEMPLATE_BLOCKS: Record<
  string,
  ReadonlyArray<[type: string, params: Record<string, unknown>, w: number, h: number]>
> = {
  'Quarterly Business Review': [
    ['heading', { text: 'Quarterly Business Review' }, 12, 1],
    ['kpi', { metric: 'tickets_closed', period: 'quarter' }, 4, 2],
    ['kpi', { metric: 'avg_resolution_hours', period: 'quarter' }, 4, 2],
    ['kpi', { metric: 'csat', period: 'quarter' }, 4, 2],
    ['ticket_chart', { groupBy: 'categoryName', chart: 'bar' }, 6, 4],
    ['budget_summary', { fiscalYear: 'current' }, 6, 4],
    ['goal_progress', { status: ['On Track', 'At Risk'] }, 12, 3],
  ],
  'Monthly Service Report': [
    ['heading', { text: 'Service Report' }, 12, 1],
    ['ticket_table', { columns: ['ticketNumber', 'title', 'status', 'priority'], limit: 20 }, 12, 6],
    ['ticket_chart', { groupBy: 'priority', chart: 'donut' }, 6, 4],
    ['text', { markdown: 'Highlights and notes for the month.' }, 6, 4],
  ],
  'Security Assessment': [
    ['heading', { text: 'Security Assessment' }, 12, 1],
    ['compliance_score', { framework: 'CIS Controls v8' }, 6, 3],
    ['compliance_findings', { onlyFlagged: true }, 6, 6],
    ['recommendations', { source: 'planner', itemType: 'Security Initiative' }, 12, 4],
  ],
  'Compliance Summary': [
    ['heading', { text: 'Compliance Summary' }, 12, 1],
    ['compliance_score', { framework: 'HIPAA' }, 12, 3],
    ['compliance_findings', { onlyFlagged: false }, 12, 8],
  ],
  'Asset Lifecycle Report': [
    ['heading', { text: 'Asset Lifecycle' }, 12, 1],
    ['device_table', { filter: 'warranty_expiring', days: 180 }, 12, 6],
    ['budget_summary', { fiscalYear: 'next', types: ['Hardware'] }, 12, 3],
  ],
  'Strategic Roadmap': [
    ['heading', { text: 'Technology Roadmap' }, 12, 1],
    ['roadmap', { quarters: 4 }, 12, 6],
    ['budget_summary', { fiscalYear: 'next' }, 12, 3],
  ],
}

/** Report templates with their block layouts. */
export function makeReportTemplates(rng: Sfc32, types: readonly ReportType[]): ReportTemplateRecord[] {
  const templates: ReportTemplateRecord[] = []
  for (const type of types) {
    const variants =
      type.name === 'Quarterly Business Review' || type.name === 'Monthly Service Report' ? ['', ' (Executive)'] : ['']
    for (const variant of variants) {
      const blocks = (TEMPLATE_BLOCKS[type.name] ?? []).filter((_, i) => variant === '' || i < 4)
      let y = 0
      let x = 0
      let rowHeight = 0
      const structure: TemplateStructure = {
        blocks: blocks.map(([blockType, params, w, h]) => {
          if (x + w > 12) {
            y += rowHeight
            x = 0
            rowHeight = 0
          }
          const layout = { x, y, w, h }
          x += w
          rowHeight = Math.max(rowHeight, h)
          return { id: rng.uuid(), type: blockType, params, layout }
        }),
        metadata: {
          title: `${type.name}${variant}`,
          subtitle: variant ? 'One-page summary for leadership' : null,
          showHeader: true,
          showFooter: true,
          showPageNumbers: variant === '',
        },
        pagePreset: rng.pick(['letter-portrait', 'letter-landscape', 'a4-portrait']),
        displaySettings: {
          pageSize: 'Letter',
          orientation: rng.pick(['portrait', 'landscape']),
          margins: { top: 36, right: 36, bottom: 36, left: 36 },
        },
      }
      const createdAt = between(rng, daysAgo(900), daysAgo(60))
      templates.push({
        id: rng.uuid(),
        name: `${type.name}${variant}`,
        description: `Standard ${type.name.toLowerCase()} layout used by ${DEMO_MSP.name}.`,
        isShared: variant === '' || rng.chance(0.5),
        reportTypeId: type.id,
        createdAt: iso(createdAt),
        updatedAt: iso(between(rng, createdAt, daysAgo(5))),
        templateStructure: structure,
      })
    }
  }
  return templates
}

/** Reports for the active companies: business reviews per quarter, service reports, assessments. */
export function makeReports(
  rng: Sfc32,
  companies: readonly DemoCompany[],
  types: readonly ReportType[],
  templates: readonly ReportTemplateRecord[],
  authors: readonly Ref[],
): ReportRecord[] {
  const reports: ReportRecord[] = []
  for (const company of companies) {
    if (!company.active) continue
    const count = rng.int(1, 3)
    for (let r = 0; r < count; r++) {
      const type = rng.weighted(types, [5, 4, 2, 1, 1, 1])
      const template = templates.find((t) => t.reportTypeId === type.id) ?? null
      const [year, quarter] = rng.pick([
        [2024, 4],
        [2025, 1],
        [2025, 2],
        [2025, 3],
      ] as const)
      const start = quarterStart(year, quarter)
      const end = Math.min(quarterEnd(year, quarter), DEMO_NOW - DAY)
      const createdAt = between(rng, end - 20 * DAY, Math.min(end + 25 * DAY, DEMO_NOW - DAY))
      const version = rng.int(1, 5)
      const published = quarterEnd(year, quarter) < DEMO_NOW - 30 * DAY ? rng.chance(0.85) : rng.chance(0.3)
      reports.push({
        id: rng.uuid(),
        title: `${company.name}: ${type.name}, Q${quarter} ${year}`,
        description: rng.chance(0.2) ? null : `${type.name} for ${company.name} covering Q${quarter} ${year}.`,
        status: published ? 'published' : 'draft',
        isShared: published && rng.chance(0.7),
        version,
        coverImageUrl: rng.chance(0.5)
          ? `https://assets.${DEMO_MSP.domain}/covers/${type.name.toLowerCase().replace(/[^a-z]+/g, '-')}.png`
          : null,
        dateStart: isoDate(start),
        dateEnd: isoDate(end),
        companyId: company.id,
        reportTypeId: rng.chance(0.95) ? type.id : null,
        reportTemplateId: template?.id ?? null,
        authorUserId: rng.pick(authors).id,
        createdAt: iso(createdAt),
        updatedAt: iso(version > 1 ? between(rng, createdAt, DEMO_NOW - 60_000) : createdAt),
        content: {
          summary: `Service was ${rng.pick(['stable', 'busier than usual', 'quiet', 'steady'])} this quarter.`,
          sections: [
            {
              heading: 'Highlights',
              body: rng.pick([
                'Completed the firewall replacement.',
                'MFA now enforced for all staff.',
                'Migrated shared drives to SharePoint.',
              ]),
            },
            {
              heading: 'Recommendations',
              body: rng.pick([
                'Plan the laptop refresh for next fiscal year.',
                'Schedule a phishing simulation.',
                'Review backup retention.',
              ]),
            },
          ],
          metrics: {
            ticketsOpened: rng.int(20, 180),
            ticketsClosed: rng.int(20, 180),
            satisfaction: Math.round((4 + rng.next()) * 10) / 10,
          },
        },
      })
    }
  }
  return reports
}

// --- compliance ------------------------------------------------------------------------------

const COMPLIANCE_GROUPS: Record<
  string,
  ReadonlyArray<[title: string, scope: ComplianceTemplate['checkScope'], criticality: number, frequency: string]>
> = {
  'Identity & Access': [
    ['MFA enforced for all user accounts', 'company', 5, 'Monthly'],
    ['Admin accounts separate from daily accounts', 'company', 4, 'Quarterly'],
    ['Departed users disabled within 24 hours', 'company', 4, 'Monthly'],
    ['Password policy meets minimum length', 'company', 3, 'Annually'],
    ['Guest accounts reviewed', 'company', 2, 'Quarterly'],
  ],
  'Endpoint Security': [
    ['EDR agent installed and reporting', 'device', 5, 'Weekly'],
    ['Disk encryption enabled', 'device', 5, 'Monthly'],
    ['OS patches within 30 days', 'device', 4, 'Monthly'],
    ['Local admin rights removed', 'device', 3, 'Quarterly'],
    ['Screen lock after 15 minutes', 'device', 2, 'Quarterly'],
  ],
  'Data Protection': [
    ['Backups completed in the last 24 hours', 'company', 5, 'Daily'],
    ['Backup restore tested this quarter', 'company', 4, 'Quarterly'],
    ['Microsoft 365 data backed up', 'company', 4, 'Monthly'],
    ['Sensitive data labelled', 'company', 2, 'Annually'],
  ],
  'Network Security': [
    ['Firewall firmware current', 'location', 4, 'Quarterly'],
    ['Guest Wi-Fi isolated from corporate network', 'location', 4, 'Annually'],
    ['Remote access only through VPN with MFA', 'company', 5, 'Quarterly'],
    ['Unused switch ports disabled', 'location', 2, 'Annually'],
  ],
  'Business Continuity': [
    ['Incident response plan reviewed', 'company', 3, 'Annually'],
    ['UPS tested at each site', 'location', 2, 'Annually'],
    ['Critical vendor contacts documented', 'company', 2, 'Annually'],
  ],
  Governance: [
    ['Security awareness training completed', 'company', 4, 'Annually'],
    ['Acceptable use policy signed by staff', 'company', 3, 'Annually'],
    ['Cyber-insurance requirements met', 'company', 4, 'Annually'],
    ['Asset inventory up to date', 'company', 3, 'Quarterly'],
  ],
}

const PRIORITY_OF = ['Low', 'Low', 'Medium', 'High', 'Critical']

/** Compliance check definitions, grouped, in every approval status. */
export function makeComplianceTemplates(rng: Sfc32): ComplianceTemplate[] {
  const templates: ComplianceTemplate[] = []
  for (const [groupName, checks] of Object.entries(COMPLIANCE_GROUPS)) {
    const groupId = rng.uuid()
    for (const [title, checkScope, criticality, frequency] of checks) {
      const createdAt = between(rng, daysAgo(1000), daysAgo(30))
      templates.push({
        id: rng.uuid(),
        title,
        description: `Confirms that ${title.charAt(0).toLowerCase()}${title.slice(1)}.`,
        howToCheck: rng.chance(0.1)
          ? null
          : checkScope === 'device'
            ? 'Check the RMM policy report for each managed device.'
            : 'Review the admin portal and record the evidence in the check notes.',
        whyImportant: rng.chance(0.1)
          ? null
          : 'Insurers and auditors ask for this, and it closes a common path for attackers.',
        criticality,
        priority: PRIORITY_OF[criticality - 1] ?? 'Medium',
        frequency,
        remediation: rng.chance(0.15) ? null : 'Open a remediation ticket and schedule the change with the client.',
        remediationImpact: rng.chance(0.2)
          ? null
          : rng.pick(['Low: no user impact.', 'Medium: short maintenance window.', 'High: users must re-enrol.']),
        references: rng.chance(0.3)
          ? null
          : rng.pick(['CIS Controls v8', 'NIST CSF PR.AC', 'HIPAA 164.312', 'Cyber Essentials']),
        checkScope,
        groupId,
        groupName,
        approvalStatus: rng.weighted(['approved', 'pending_review', 'draft', 'rejected'] as const, [14, 3, 2, 1]),
        createdAt: iso(createdAt),
        updatedAt: iso(between(rng, createdAt, daysAgo(3))),
      })
    }
  }
  return templates
}

const CHECK_STATUSES: ReadonlyArray<
  [name: string, color: string, isPositive: boolean, isComplete: boolean, weight: number]
> = [
  ['Compliant', '#2e7d32', true, true, 10],
  ['Non-Compliant', '#c62828', false, true, 3],
  ['In Progress', '#f9a825', false, false, 3],
  ['Not Started', '#9e9e9e', false, false, 2],
  ['Not Applicable', '#607d8b', true, true, 1],
]

/** Compliance checks assigned to companies, each in one review run. */
export function makeComplianceChecks(
  rng: Sfc32,
  companies: readonly DemoCompany[],
  templates: readonly ComplianceTemplate[],
): ComplianceCheck[] {
  const statuses = CHECK_STATUSES.map(([name, color, isPositive, isComplete]) => ({
    id: rng.uuid(),
    name,
    color,
    isPositive,
    isComplete,
  }))
  const weights = CHECK_STATUSES.map((s) => s[4])
  const approved = templates.filter((t) => t.approvalStatus === 'approved')
  const checks: ComplianceCheck[] = []
  for (const company of companies) {
    if (!company.active || approved.length === 0 || !rng.chance(0.7)) continue
    const runId = rng.uuid()
    const runStart = between(rng, daysAgo(120), daysAgo(10))
    const quarter = Math.floor(new Date(runStart).getUTCMonth() / 3) + 1
    const runName = `${new Date(runStart).getUTCFullYear()} Q${quarter} Security Baseline`
    const prefix = company.name
      .replace(/[^A-Za-z ]/g, '')
      .split(/\s+/)
      .map((w) => w.charAt(0))
      .join('')
      .slice(0, 3)
      .toUpperCase()
    const locations = [
      { id: rng.uuid(), name: 'Head Office' },
      { id: rng.uuid(), name: rng.pick(['Warehouse', 'Branch Office', 'Clinic', 'Downtown Office']) },
    ]
    for (const template of approved) {
      if (!rng.chance(0.6)) continue
      const status = rng.chance(0.03) ? null : rng.weighted(statuses, weights)
      const dueDate = rng.chance(0.1) ? null : runStart + 30 * DAY
      const device =
        template.checkScope === 'device'
          ? {
              id: rng.uuid(),
              name: `${prefix}-${rng.pick(['LT', 'DT', 'SRV'])}-${String(rng.int(1, 60)).padStart(3, '0')}`,
            }
          : null
      const location = template.checkScope === 'location' ? rng.pick(locations) : null
      const completedAt = status?.isComplete ? between(rng, runStart, DEMO_NOW - 60_000) : null
      checks.push({
        id: rng.uuid(),
        checkId: template.id,
        title: template.title,
        description: template.description,
        status,
        priority: template.priority,
        criticality: template.criticality,
        flagged: status !== null && !status.isPositive && rng.chance(0.5),
        dueDate: dueDate === null ? null : iso(dueDate),
        completedAt: completedAt === null ? null : iso(completedAt),
        notesPublic: rng.chance(0.4)
          ? rng.pick([
              'Evidence attached.',
              'Confirmed with the office manager.',
              'Scheduled for next maintenance window.',
            ])
          : null,
        notesPrivate: rng.chance(0.25)
          ? rng.pick([
              'Client pushed back on cost.',
              'Needs a follow-up in the next QBR.',
              'Exception approved by the owner.',
            ])
          : null,
        runId,
        runName,
        companyId: company.id,
        companyName: company.name,
        groupId: template.groupId,
        groupName: template.groupName,
        deviceId: device?.id ?? null,
        deviceName: device?.name ?? null,
        locationId: location?.id ?? null,
        locationName: location?.name ?? null,
        updatedAt: iso(completedAt ?? between(rng, runStart, DEMO_NOW - 60_000)),
      })
    }
  }
  return checks
}

// --- training --------------------------------------------------------------------------------

const COURSES: ReadonlyArray<
  [title: string, courseType: string, category: string, mandatory: boolean, minutes: number]
> = [
  ['Security Awareness Essentials', 'video', 'Security', true, 45],
  ['Spotting Phishing Emails', 'video', 'Security', true, 20],
  ['Password Managers 101', 'video', 'Security', false, 15],
  ['HIPAA Privacy and Security Basics', 'scorm', 'Compliance', true, 60],
  ['PCI DSS for Front-Desk Staff', 'scorm', 'Compliance', false, 30],
  ['Working Securely from Home', 'video', 'Security', false, 25],
  ['Microsoft Teams for Everyday Work', 'video', 'Productivity', false, 35],
  ['OneDrive and SharePoint File Sharing', 'video', 'Productivity', false, 30],
  ['Reporting an Incident', 'document', 'Security', true, 10],
  ['Social Engineering by Phone', 'quiz', 'Security', false, 15],
  ['Data Handling and Retention', 'scorm', 'Compliance', false, 40],
  ['Multi-Factor Authentication Setup', 'document', 'Security', false, 10],
]

/** Training courses (most global, a few for one company) and enrollments of customer contacts. */
export function makeTraining(
  rng: Sfc32,
  companies: readonly DemoCompany[],
): { courses: TrainingCourseRecord[]; enrollments: TrainingEnrollment[] } {
  const customers = companies.filter((c) => c.active)
  const courses: TrainingCourseRecord[] = COURSES.map(
    ([title, courseType, courseCategory, isMandatory, minutes], index) => {
      const company = index >= COURSES.length - 2 && customers.length > 0 ? rng.pick(customers) : null
      const createdAt = between(rng, daysAgo(900), daysAgo(120))
      const id = rng.uuid()
      const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
      return {
        id,
        title,
        description: `${title}: a ${minutes}-minute ${courseType} course.`,
        courseType,
        courseCategory,
        isMandatory,
        passingScore: courseType === 'document' ? null : rng.pick([70, 75, 80]),
        duration: minutes,
        maxAttempts: courseType === 'document' ? null : rng.pick([3, 5]),
        expiresAfterDays: isMandatory ? 365 : null,
        artworkUrl: `https://assets.${DEMO_MSP.domain}/training/${slug}.jpg`,
        youtubeUrl:
          courseType === 'video'
            ? `https://www.youtube.com/watch?v=${rng.uuid().replace(/-/g, '').slice(0, 11)}`
            : null,
        isGlobal: company === null,
        company: company ? { id: company.id, name: company.name } : null,
        createdAt: iso(createdAt),
        updatedAt: iso(between(rng, createdAt, daysAgo(7))),
        scormUrl: courseType === 'scorm' ? `https://lms.${DEMO_MSP.domain}/scorm/${slug}/imsmanifest.xml` : null,
        metadata: {
          language: 'en-US',
          level: rng.pick(['beginner', 'intermediate']),
          tags: [courseCategory.toLowerCase()],
        },
      }
    },
  )
  const enrollments: TrainingEnrollment[] = []
  for (const company of customers) {
    const available = courses.filter((c) => c.isGlobal || c.company?.id === company.id)
    for (const contact of company.contacts) {
      for (const course of available) {
        if (!(course.isMandatory ? rng.chance(0.7) : rng.chance(0.08))) continue
        const enrolledAt = between(rng, daysAgo(400), daysAgo(2))
        const status = rng.weighted(['completed', 'in_progress', 'not_started'] as const, [6, 2, 2])
        const startedAt =
          status === 'not_started'
            ? null
            : between(rng, enrolledAt, Math.min(enrolledAt + 20 * DAY, DEMO_NOW - 3_600_000))
        const completedAt =
          status === 'completed' && startedAt !== null
            ? between(rng, startedAt, Math.min(startedAt + 10 * DAY, DEMO_NOW - 60_000))
            : null
        const score =
          status === 'completed' && course.passingScore !== null ? rng.int(course.passingScore - 10, 100) : null
        const passed =
          status === 'completed' && (score === null || course.passingScore === null || score >= course.passingScore)
        enrollments.push({
          id: rng.uuid(),
          course: { id: course.id, title: course.title, courseType: course.courseType },
          user: { id: contact.id, fullName: contact.fullName, email: contact.email },
          status,
          progress: status === 'completed' ? 100 : status === 'in_progress' ? rng.int(5, 95) : 0,
          score,
          enrolledAt: iso(enrolledAt),
          startedAt: startedAt === null ? null : iso(startedAt),
          completedAt: completedAt === null ? null : iso(completedAt),
          dueDate: course.isMandatory ? iso(enrolledAt + 30 * DAY) : null,
          timeSpentSeconds:
            status === 'not_started'
              ? 0
              : Math.round(
                  (course.duration ?? 20) * 60 * (status === 'completed' ? 0.8 + rng.next() * 0.6 : rng.next()),
                ),
          certificateId: passed ? rng.uuid() : null,
          companyId: company.id,
        })
      }
    }
  }
  return { courses, enrollments }
}

// --- calendar and surveys ---------------------------------------------------------------------

const MEETING_TYPES: ReadonlyArray<[name: string, color: string, isInternal: boolean]> = [
  ['Quarterly Business Review', '#1e88e5', false],
  ['Onboarding Kickoff', '#43a047', false],
  ['Technical Alignment Review', '#8e24aa', false],
  ['Security Review', '#e53935', false],
  ['Budget Planning', '#fb8c00', false],
  ['Project Check-in', '#00897b', false],
  ['Service Desk Stand-up', '#546e7a', true],
  ['Team One-on-One', '#6d4c41', true],
  ['Dispatch Huddle', '#3949ab', true],
]

/** Calendar meeting types. */
export function makeMeetingTypes(rng: Sfc32): MeetingType[] {
  return MEETING_TYPES.map(([name, color, isInternal], orderIndex) => {
    const createdAt = between(rng, daysAgo(1200), daysAgo(200))
    return {
      id: rng.uuid(),
      name,
      color: rng.chance(0.1) ? null : color,
      isInternal,
      orderIndex,
      createdAt: iso(createdAt),
      updatedAt: iso(between(rng, createdAt, daysAgo(5))),
    }
  })
}

/** Scores 0..10 skewed the way satisfied MSP clients answer (mostly 8–10, a tail of detractors). */
function npsScores(rng: Sfc32, count: number, mood: number): number[] {
  const weights = [1, 0.5, 0.5, 1, 1, 2, 3, 6, 12, 18 + mood, 22 + mood * 2]
  const scores = Array.from({ length: 11 }, (_, i) => i)
  return Array.from({ length: count }, () => rng.weighted(scores, weights))
}

/** NPS surveys with responses and invite counts (one brand-new survey without responses). */
export function makeNpsSurveys(rng: Sfc32): NpsSurveyRecord[] {
  const surveys: Array<
    [
      title: string,
      surveyType: string,
      interval: number | null,
      start: number,
      end: number | null,
      invites: number,
      rate: number,
      mood: number,
    ]
  > = [
    ['Ticket satisfaction', 'recurring', 1, daysAgo(700), null, 2400, 0.22, 4],
    ['Annual client survey 2024', 'one_time', null, Date.UTC(2024, 10, 1), Date.UTC(2024, 11, 15), 320, 0.41, 0],
    ['Annual client survey 2025', 'one_time', null, daysAgo(20), daysAgo(-25), 340, 0.18, 2],
    ['Onboarding experience', 'recurring', 3, daysAgo(500), null, 60, 0.55, 6],
    ['Project close-out feedback', 'one_time', null, daysAgo(3), null, 0, 0, 0],
  ]
  return surveys.map(([title, surveyType, frequencyInterval, start, end, inviteCount, rate, mood]) => {
    const createdAt = start - between(rng, 2 * DAY, 14 * DAY) + 0
    const responses = npsScores(rng, Math.round(inviteCount * rate), mood)
    return {
      id: rng.uuid(),
      title,
      description: `${title} sent by ${DEMO_MSP.name}.`,
      questionText: `How likely are you to recommend ${DEMO_MSP.name} to a friend or colleague?`,
      surveyType,
      ratingType: 'numeric_0_10',
      frequencyInterval,
      startDate: iso(start),
      endDate: end === null ? null : iso(end),
      isActive: (end === null || end > DEMO_NOW) && inviteCount > 0,
      reminderEnabled: rng.chance(0.6),
      reminderDaysAfter: rng.pick([3, 5, 7]),
      followUpEnabled: rng.chance(0.5),
      thankYouMessage: rng.chance(0.2) ? null : 'Thank you! Your feedback helps us serve you better.',
      inviteCount,
      responses,
      createdAt: iso(createdAt),
      updatedAt: iso(Math.min(DEMO_NOW - 60_000, Math.max(createdAt, end ?? daysAgo(1)))),
    }
  })
}
