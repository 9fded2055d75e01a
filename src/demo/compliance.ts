/**
 * The demo tenant's compliance: check templates in groups (every approval status) and the checks of
 * one review run per company.
 */
import type { ComplianceCheck, ComplianceTemplate } from '../model/compliance.js'
import type { Sfc32 } from './prng.js'
import type { DemoCompany } from './people.js'
import { between, DAY, daysAgo, DEMO_NOW, iso } from './time.js'

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
