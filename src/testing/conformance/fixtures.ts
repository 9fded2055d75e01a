/**
 * Deterministic fixtures of the conformance suite: fixed UUIDs and timestamps, crafted so that
 * every ordering rule has something to bite on (ties, nulls, case, code points beyond U+FFFF,
 * `%`, `_` and `\` in searchable text) and two tenants whose records never share an id.
 */
import type { SeedData } from '../../model/seed.js'

/** Which of the two fixture tenants a record belongs to. */
export type FixtureTenant = 'a' | 'b'

/**
 * A fixed UUID: `aaaaaaaa-<kind>-4000-8000-<n>` for tenant A, `bbbbbbbb-...` for tenant B. Within one
 * kind, ids ascend with `n`, so "ties by id ascending" is "ties by n ascending".
 *
 * @example
 * fixtureId('a', 0x11, 3) // 'aaaaaaaa-0011-4000-8000-000000000003'
 */
export function fixtureId(tenant: FixtureTenant, kind: number, n: number): string {
  const head = tenant === 'a' ? 'aaaaaaaa' : 'bbbbbbbb'
  return `${head}-${kind.toString(16).padStart(4, '0')}-4000-8000-${n.toString(16).padStart(12, '0')}`
}

/**
 * A fixed timestamp in January 2024 (UTC, milliseconds), as the API writes timestamps.
 *
 * @example
 * at(10, 9) // '2024-01-10T09:00:00.000Z'
 */
export function at(day: number, hour = 0, minute = 0): string {
  return new Date(Date.UTC(2024, 0, day, hour, minute)).toISOString()
}

/** Kinds of {@link fixtureId}. */
const K = {
  company: 0x01,
  ticket: 0x02,
  user: 0x03,
  role: 0x04,
  complianceTemplate: 0x05,
  complianceGroup: 0x06,
  complianceCheck: 0x07,
  reportTemplate: 0x08,
  reportType: 0x09,
  report: 0x0a,
  course: 0x0b,
  enrollment: 0x0c,
  goal: 0x0d,
  plannerType: 0x0e,
  budget: 0x0f,
  lineItem: 0x10,
  rule: 0x11,
  goalTask: 0x12,
  goalUpdate: 0x13,
} as const

/** The ids of one fixture tenant that tests address directly. */
export interface FixtureIds {
  companies: string[]
  tickets: string[]
  /** The ticket number of `tickets[0]`. */
  ticketNumber: string
  users: string[]
  roles: string[]
  complianceTemplates: string[]
  complianceGroups: string[]
  complianceCheck: string
  reportTemplates: string[]
  reportTypes: string[]
  report: string
  courses: string[]
  enrollments: string[]
  goals: string[]
  plannerTypes: string[]
  budget: string
  /** A budget with no line items. */
  emptyBudget: string
  rule: string
  npsSurveys: { full: string; empty: string; noInvites: string; half: string }
  meetingTypes: string[]
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

/**
 * The fixed ids of a fixture tenant.
 *
 * @example
 * fixtureIds('a').budget
 */
export function fixtureIds(tenant: FixtureTenant): FixtureIds {
  const id = (kind: number, n: number) => fixtureId(tenant, kind, n)
  return {
    companies: range(7).map((n) => id(K.company, n)),
    tickets: range(TICKET_ROWS.length).map((n) => id(K.ticket, n)),
    ticketNumber: `${tenant.toUpperCase()}-1001`,
    users: range(USER_ROWS.length).map((n) => id(K.user, n)),
    roles: range(2).map((n) => id(K.role, n)),
    complianceTemplates: range(TEMPLATE_ROWS.length).map((n) => id(K.complianceTemplate, n)),
    complianceGroups: range(2).map((n) => id(K.complianceGroup, n)),
    complianceCheck: id(K.complianceCheck, 1),
    reportTemplates: range(REPORT_TEMPLATE_ROWS.length).map((n) => id(K.reportTemplate, n)),
    reportTypes: range(2).map((n) => id(K.reportType, n)),
    report: id(K.report, 1),
    courses: range(3).map((n) => id(K.course, n)),
    enrollments: range(ENROLLMENT_ROWS.length).map((n) => id(K.enrollment, n)),
    goals: range(2).map((n) => id(K.goal, n)),
    plannerTypes: range(2).map((n) => id(K.plannerType, n)),
    budget: id(K.budget, 1),
    emptyBudget: id(K.budget, 2),
    rule: id(K.rule, 1),
    npsSurveys: {
      full: `nps-${tenant}-full`,
      empty: `nps-${tenant}-empty`,
      noInvites: `nps-${tenant}-no-invites`,
      half: `nps-${tenant}-half`,
    },
    meetingTypes: range(MEETING_TYPE_ROWS.length).map((n) => `mt-${tenant}-${String(n).padStart(2, '0')}`),
  }
}

// --- the tables ------------------------------------------------------------------------------

/** [name, createdAt, updatedAt]. Names: ties ('Acme' twice), case, code points above U+FFFF. */
const COMPANY_ROWS: Array<[string, string, string]> = [
  ['Acme', at(1), at(5)],
  ['acme', at(1), at(5)],
  ['Zeta', at(2), at(3)],
  ['Éclair', at(3), at(3)],
  ['😀 Smile', at(2), at(6)],
  ['Ａlpha', at(4), at(4)], // U+FF21 sorts before U+1F600 by code point, after it by UTF-16 unit
  ['Acme', at(1), at(2)],
]

/**
 * Tickets: [title, status, priority, assignedTo, company index | null, isClosed, provider,
 * createdAt, updatedAt | null, daysOpen | null].
 */
type TicketRow = [
  string,
  string | null,
  string | null,
  string | null,
  number | null,
  boolean,
  'psa_a' | 'psa_b' | 'psa_c' | 'psa_d',
  string,
  string | null,
  number | null,
]
const TICKET_ROWS: TicketRow[] = [
  ['Printer jam', 'Open', 'High', 'Ada Lovelace', 0, false, 'psa_a', at(10, 9), at(11), 3],
  ['printer jam', 'open', 'high', 'ada lovelace', 1, false, 'psa_b', at(10, 9), at(11), 3],
  ['Zebra label printer', 'Opened', 'Higher', 'Ada', 2, false, 'psa_c', at(10, 9), null, 5],
  ['alpha server down', 'In Progress', 'Low', 'Grace Hopper', 3, false, 'psa_d', at(10, 9), at(12), null],
  ['Alpha server down', 'Closed', null, null, null, true, 'psa_a', at(10, 9), at(12), 1],
  ['éclair machine broken', null, 'Medium', 'Grace Hopper', 4, false, 'psa_b', at(10, 9), null, 7],
  ['😀 emoji in subject', 'Open', 'Low', null, 5, false, 'psa_c', at(10, 9), at(13), null],
  ['Ａ fullwidth subject', 'OPEN', 'LOW', 'GRACE HOPPER', 6, true, 'psa_d', at(10, 9), at(13), 2],
  ['100% CPU usage', 'Open', 'High', 'Ada Lovelace', 0, false, 'psa_a', at(9, 12), at(10), 4],
  ['100 percent disk', 'Open', 'High', 'Ada Lovelace', 0, false, 'psa_a', at(9, 12), at(10), 4],
  ['snake_case field', 'Closed', 'Medium', null, 1, true, 'psa_b', at(9), null, null],
  ['snakeXcase field', 'Closed', 'Medium', null, 1, true, 'psa_b', at(9), null, null],
  ['path C:\\temp broken', 'Open', null, 'Grace Hopper', 2, false, 'psa_c', at(8), at(9), 10],
  ['path C:/temp broken', 'Open', null, 'Grace Hopper', 2, false, 'psa_c', at(8), at(9), 10],
  ['VPN drops', 'Open', 'Low', 'Ada Lovelace', null, false, 'psa_d', at(11), at(11), 0],
  ['VPN drops', 'Open', 'Low', 'Ada Lovelace', null, false, 'psa_d', at(11), at(11), 0],
  ['Edge: start of day', 'Waiting', 'Low', null, 0, false, 'psa_a', '2024-01-12T00:00:00.000Z', null, null],
  ['Edge: end of day', 'Waiting', 'Low', null, 0, false, 'psa_a', '2024-01-12T23:59:59.999Z', null, null],
  ['Edge: next day', 'Waiting', 'Low', null, 0, false, 'psa_a', '2024-01-13T00:00:00.000Z', null, null],
  ['Mail delay', 'Open', 'Medium', 'Ada Lovelace', 3, false, 'psa_b', at(7), at(14), 12],
  ['Mail delay', 'Open', 'Medium', 'Ada Lovelace', 3, false, 'psa_b', at(7), at(14), 12],
  ['Mail delay', 'Open', 'Medium', 'Ada Lovelace', 3, false, 'psa_b', at(7), at(14), 12],
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
const USER_ROWS: UserRow[] = [
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
const TEMPLATE_ROWS: TemplateRow[] = [
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

/** Report templates: [name, isShared, report type index | null, createdAt, updatedAt]. */
const REPORT_TEMPLATE_ROWS: Array<[string, boolean, number | null, string, string]> = [
  ['Quarterly review', true, 0, at(1), at(4)],
  ['quarterly review', false, 0, at(1), at(4)],
  ['Zeta summary', true, 1, at(2), at(2)],
  ['Étude', false, null, at(2), at(5)],
  ['😀 Fun', true, 1, at(3), at(3)],
  ['Quarterly review', true, null, at(3), at(4)],
]

/** Meeting types: [name, orderIndex]. Ties on orderIndex ordered by name, then on both by id. */
const MEETING_TYPE_ROWS: Array<[string, number]> = [
  ['Review', 2],
  ['Kickoff', 1],
  ['kickoff', 1],
  ['Zoom call', 1],
  ['Standup', 0],
  ['Kickoff', 1],
  ['Retro', 3],
]

/** Enrollments: [course index, user index, company index | null, status, enrolledAt]. */
const ENROLLMENT_ROWS: Array<[number, number, number | null, 'not_started' | 'in_progress' | 'completed', string]> = [
  [0, 0, 0, 'completed', at(5)],
  [0, 1, 0, 'in_progress', at(6)],
  [0, 2, 1, 'not_started', at(6)],
  [1, 0, 0, 'in_progress', at(4)],
  [1, 3, null, 'completed', at(7)],
  [2, 4, 2, 'not_started', at(6)],
]

/**
 * Line items of the fixture budget: [type, status, recurrence, quantity, unitPrice, createdAt]. Seeded
 * out of order.
 */
type LineItemRow = [
  'Software' | 'Hardware' | 'Labour' | 'Other' | 'Subscription',
  'draft' | 'pending' | 'approved' | 'rejected',
  'One-Time' | 'Monthly' | 'Annual',
  number,
  number,
  string,
]
const LINE_ITEM_ROWS: LineItemRow[] = [
  ['Subscription', 'approved', 'Monthly', 3, 10.005, at(3)],
  ['Software', 'approved', 'Annual', 2, 100.5, at(1)],
  ['Hardware', 'rejected', 'One-Time', 1, 999, at(2)],
  ['Hardware', 'pending', 'One-Time', 1, 250.25, at(2, 1)],
  ['Labour', 'draft', 'Monthly', 1.5, 33.333, at(4)],
  ['Other', 'approved', 'One-Time', 0, 10, at(5)],
]

/**
 * NPS responses of the fixture surveys.
 *
 * @example
 * NPS_RESPONSES.full.length // 7
 */
export const NPS_RESPONSES = {
  /** 3 promoters, 2 passives, 2 detractors of 9 invites: nps 14 (14.29), average 7.14, rate 77.78. */
  full: [10, 9, 7, 6, 0, 10, 8],
  /** 3 promoters, 3 passives, 2 detractors: nps 12.5 rounds to 13; average 7.25; 8 of 8 invited. */
  half: [9, 9, 10, 7, 8, 8, 5, 2],
  noInvites: [9, 3],
} as const

function companyRef(tenant: FixtureTenant, index: number | null) {
  if (index === null) return null
  const row = COMPANY_ROWS[index]!
  return { id: fixtureId(tenant, K.company, index + 1), name: `${row[0]}${tenant === 'b' ? ' (B)' : ''}` }
}

/** Interleaves a list (odd positions reversed) so that seeding order is neither id nor sort order. */
function shuffled<T>(list: readonly T[]): T[] {
  const even = list.filter((_, i) => i % 2 === 0)
  const odd = list.filter((_, i) => i % 2 === 1).reverse()
  return [...odd, ...even]
}

/**
 * The full seed of a fixture tenant. Tenant B has the same shapes with other ids and `(B)` in
 * its names, so that any leak between tenants is visible.
 *
 * @example
 * await store.seed(`tenant-${crypto.randomUUID()}`, fixtureSeed('a'))
 */
export function fixtureSeed(tenant: FixtureTenant): SeedData {
  const ids = fixtureIds(tenant)
  const suffix = tenant === 'b' ? ' (B)' : ''
  const companies = COMPANY_ROWS.map(([name, createdAt, updatedAt], i) => ({
    id: ids.companies[i]!,
    name: `${name}${suffix}`,
    domain: i === 0 ? 'acme.example' : null,
    status: 'active',
    employeeCount: i === 0 ? 50 : null,
    createdAt,
    updatedAt,
  }))
  const tickets = TICKET_ROWS.map(
    ([title, status, priority, assignedTo, company, isClosed, provider, createdAt, updatedAt, daysOpen], i) => ({
      id: ids.tickets[i]!,
      ticketNumber: `${tenant.toUpperCase()}-${1001 + i}`,
      title: `${title}${suffix}`,
      description: i === 0 ? 'Paper stuck in tray 2' : null,
      companyId: companyRef(tenant, company)?.id ?? null,
      companyName: companyRef(tenant, company)?.name ?? null,
      status,
      isClosed,
      priority,
      assignedTo,
      createdAt,
      updatedAt,
      daysOpen,
      provider,
      externalId: `ext-${tenant}-${i + 1}`,
      source: 'sync',
      notes:
        i === 0
          ? [
              { id: `note-${tenant}-1`, text: 'First', isInternal: false, createdAt: at(10, 10), createdBy: 'Ada' },
              { id: `note-${tenant}-3`, text: 'Third', isInternal: true, createdAt: at(10, 12), createdBy: 'Ada' },
              { id: `note-${tenant}-2`, text: 'Second', isInternal: false, createdAt: at(10, 11), createdBy: null },
            ]
          : [],
    }),
  )
  const roles = ['Admin', 'Technician'].map((name, i) => ({ id: ids.roles[i]!, name }))
  const users = USER_ROWS.map(([fullName, email, status, isPrimaryAdmin, lastLogin, createdAt, role, company], i) => ({
    id: ids.users[i]!,
    email: tenant === 'a' ? email : email.replace('@', '.b@'),
    fullName: fullName === null ? null : `${fullName}${suffix}`,
    status,
    isPrimaryAdmin,
    lastLogin,
    createdAt,
    updatedAt: createdAt,
    role: role === null ? null : roles[role]!,
    company: companyRef(tenant, company),
  }))
  const groups = ['Security', 'Operations'].map((name, i) => ({ id: ids.complianceGroups[i]!, name }))
  const complianceTemplates = TEMPLATE_ROWS.map(
    ([title, priority, criticality, group, approvalStatus, checkScope, createdAt, updatedAt], i) => ({
      id: ids.complianceTemplates[i]!,
      title: `${title}${suffix}`,
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
  const reportTypes = ['Executive', 'Technical'].map((name, i) => ({
    id: ids.reportTypes[i]!,
    name: `${name}${suffix}`,
  }))
  const reportTemplates = REPORT_TEMPLATE_ROWS.map(([name, isShared, type, createdAt, updatedAt], i) => ({
    id: ids.reportTemplates[i]!,
    name: `${name}${suffix}`,
    description: null,
    isShared,
    reportTypeId: type === null ? null : reportTypes[type]!.id,
    createdAt,
    updatedAt,
    templateStructure:
      i === 0
        ? {
            blocks: [{ id: 'b1', type: 'text', params: { text: 'Hello' }, layout: { x: 0, y: 0, w: 6, h: 2 } }],
            metadata: {
              title: 'Quarterly',
              subtitle: null,
              showHeader: true,
              showFooter: false,
              showPageNumbers: true,
            },
            pagePreset: 'a4',
            displaySettings: { pageSize: 'A4', orientation: 'portrait', margins: { top: 10 } },
          }
        : null,
  }))
  const courses = ['Security basics', 'Phishing', 'Onboarding'].map((title, i) => ({
    id: ids.courses[i]!,
    title: `${title}${suffix}`,
    courseType: 'video',
    isMandatory: i === 0,
    isGlobal: false,
    company: companyRef(tenant, 0),
    createdAt: at(1),
    updatedAt: at(1),
    metadata: i === 0 ? { level: 1 } : null,
  }))
  const trainingEnrollments = ENROLLMENT_ROWS.map(([course, user, company, status, enrolledAt], i) => ({
    id: ids.enrollments[i]!,
    course: { id: courses[course]!.id, title: courses[course]!.title, courseType: 'video' },
    user: { id: users[user]!.id, fullName: users[user]!.fullName, email: users[user]!.email },
    status,
    progress: status === 'completed' ? 100 : status === 'in_progress' ? 40 : 0,
    score: status === 'completed' ? 90 : null,
    enrolledAt,
    timeSpentSeconds: 60 * i,
    companyId: companyRef(tenant, company)?.id ?? null,
  }))
  const goals = ids.goals.map((id, g) => ({
    id,
    title: `Goal ${g + 1}${suffix}`,
    progressPercentage: 25 * (g + 1),
    quarter: 'Q1',
    year: 2024,
    company: companyRef(tenant, 0),
    createdAt: at(1),
    updatedAt: at(2),
    // Seeded out of order: tasks come back oldest first, updates newest first.
    tasks: [
      {
        id: fixtureId(tenant, K.goalTask, g * 10 + 2),
        title: 'Second task',
        isCompleted: false,
        description: null,
        dueDate: null,
        createdAt: at(3),
      },
      {
        id: fixtureId(tenant, K.goalTask, g * 10 + 1),
        title: 'First task',
        isCompleted: true,
        description: null,
        dueDate: at(31),
        createdAt: at(2),
      },
      {
        id: fixtureId(tenant, K.goalTask, g * 10 + 3),
        title: 'Third task',
        isCompleted: false,
        description: 'Last',
        dueDate: null,
        createdAt: at(4),
      },
    ],
    updates: [
      {
        id: fixtureId(tenant, K.goalUpdate, g * 10 + 1),
        updateText: 'Oldest',
        progressPercentage: 10,
        createdAt: at(2),
      },
      {
        id: fixtureId(tenant, K.goalUpdate, g * 10 + 3),
        updateText: 'Newest',
        progressPercentage: 30,
        createdAt: at(4),
      },
      {
        id: fixtureId(tenant, K.goalUpdate, g * 10 + 2),
        updateText: 'Middle',
        progressPercentage: 20,
        createdAt: at(3),
      },
    ],
  }))
  const plannerItemTypes = ['Laptop refresh', 'Licence renewal'].map((name, i) => ({
    id: ids.plannerTypes[i]!,
    name: `${name}${suffix}`,
    isSystem: i === 0,
    budgetCategory: i === 0 ? 'Hardware' : 'Software',
    createdAt: at(1),
    updatedAt: at(1),
  }))
  const lineItems = LINE_ITEM_ROWS.map(([type, status, recurrence, quantity, unitPrice, createdAt], i) => ({
    id: fixtureId(tenant, K.lineItem, i + 1),
    type,
    description: `${type} item ${i + 1}`,
    quantity,
    unitPrice,
    recurrence,
    termMonths: 12,
    status,
    currency: 'USD',
    createdAt,
    updatedAt: createdAt,
  }))
  const budgets = [
    {
      id: ids.budget,
      title: `FY24 budget${suffix}`,
      fiscalYear: 2024,
      periodType: 'Annual' as const,
      status: 'Draft' as const,
      currency: 'USD',
      notes: 'Initial notes',
      company: companyRef(tenant, 0),
      createdBy: { id: ids.users[0]!, name: 'Ada Lovelace' },
      createdAt: at(1),
      updatedAt: at(5),
      lineItems: shuffled(lineItems),
    },
    {
      id: ids.emptyBudget,
      title: `Empty budget${suffix}`,
      fiscalYear: 2025,
      periodType: 'Quarterly' as const,
      status: 'Approved' as const,
      currency: 'EUR',
      createdAt: at(1),
      updatedAt: at(1),
    },
  ]
  const automationRules = [
    {
      id: ids.rule,
      name: `Stale device alert${suffix}`,
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
  const reports = [
    {
      id: ids.report,
      title: `January report${suffix}`,
      description: 'Monthly summary',
      status: 'draft' as const,
      isShared: false,
      version: 1,
      coverImageUrl: null,
      dateStart: '2024-01-01',
      dateEnd: '2024-01-31',
      companyId: ids.companies[0]!,
      reportTypeId: ids.reportTypes[0]!,
      reportTemplateId: ids.reportTemplates[0]!,
      authorUserId: ids.users[0]!,
      createdAt: at(1),
      updatedAt: at(2),
      content: { sections: [] },
    },
  ]
  const npsSurvey = (id: string, title: string, responses: readonly number[], inviteCount: number) => ({
    id,
    title: `${title}${suffix}`,
    surveyType: 'one_time',
    ratingType: 'numeric_0_10',
    isActive: true,
    reminderEnabled: false,
    followUpEnabled: false,
    inviteCount,
    createdAt: at(1),
    updatedAt: at(1),
    responses: [...responses],
  })
  return {
    companies: shuffled(companies),
    tickets: shuffled(tickets),
    users: shuffled(users),
    complianceTemplates: shuffled(complianceTemplates),
    complianceChecks: [
      {
        id: ids.complianceCheck,
        checkId: ids.complianceTemplates[0]!,
        title: `Backups verified${suffix}`,
        status: {
          id: fixtureId(tenant, K.complianceCheck, 100),
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
    ],
    reportTypes,
    reportTemplates: shuffled(reportTemplates),
    reports,
    trainingCourses: courses,
    trainingEnrollments: shuffled(trainingEnrollments),
    meetingTypes: shuffled(
      MEETING_TYPE_ROWS.map(([name, orderIndex], i) => ({
        id: ids.meetingTypes[i]!,
        name: `${name}${suffix}`,
        color: i === 0 ? '#ff0000' : null,
        isInternal: i % 2 === 0,
        orderIndex,
        createdAt: at(1),
        updatedAt: at(1),
      })),
    ),
    goals,
    plannerItemTypes,
    budgets,
    automationRules,
    npsSurveys: [
      npsSurvey(ids.npsSurveys.full, 'Quarterly NPS', NPS_RESPONSES.full, 9),
      npsSurvey(ids.npsSurveys.empty, 'Empty NPS', [], 0),
      npsSurvey(ids.npsSurveys.noInvites, 'Uninvited NPS', NPS_RESPONSES.noInvites, 0),
      npsSurvey(ids.npsSurveys.half, 'Half NPS', NPS_RESPONSES.half, 8),
    ],
  }
}

/**
 * The part of a fixture tenant that the write operations touch: small, so that tests that write
 * can seed a fresh tenant each without slowing SQL stores down.
 *
 * @example
 * await store.seed(freshTenantId, writableSeed('a'))
 */
export function writableSeed(tenant: FixtureTenant): SeedData {
  const all = fixtureSeed(tenant)
  return {
    companies: all.companies,
    budgets: all.budgets,
    plannerItemTypes: all.plannerItemTypes,
    goals: all.goals,
    automationRules: all.automationRules,
    reports: all.reports,
    reportTypes: all.reportTypes,
    trainingCourses: all.trainingCourses,
    trainingEnrollments: all.trainingEnrollments,
  }
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
 * A minimal valid body for `POST /budgets/{id}/items`.
 *
 * @example
 * await h.call('POST', `/budgets/${ids.budget}/items`, { body: MINIMAL_LINE_ITEM })
 */
export const MINIMAL_LINE_ITEM = { type: 'Software', description: 'Licence', unitPrice: 12.5 } as const
