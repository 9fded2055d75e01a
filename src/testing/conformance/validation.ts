/**
 * Every validation bound: one past each limit is a 400 `VALIDATION_ERROR` whose `details` name the
 * field (`{ in, path, message }`), the limit itself is accepted. Also enums, unknown and repeated
 * parameters, unknown body fields, booleans, digits-only integers, `null` only where it clears, and
 * the references (category, goal, companies, report type) that must exist in the tenant.
 */
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { operations } from '../../operations/index.js'
import type { ErrorBody } from '../../http/errors.js'
import type { CallResult, Harness } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { fixtureIds, MINIMAL_LINE_ITEM, MINIMAL_RULE, writableSeed, type FixtureIds } from './fixtures.js'
import type { Row } from './reference.js'
import { hasIdParam, isPageList, sampleBody, samplePath } from './samples.js'
import { automationRules, budgets, reports } from '../../model/index.js'

/** A string of `n` characters. */
const chars = (n: number) => 'x'.repeat(n)
const UNKNOWN_UUID = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f'
const B = fixtureIds('b')

/**
 * Checks a 400 `VALIDATION_ERROR` whose details name `field` (one of `field` when a list) in `where`.
 *
 * @example
 * expectValidationError(await h.call('GET', '/tickets?limit=101'), 'query', 'limit')
 */
export function expectValidationError(
  result: CallResult,
  where: 'query' | 'body',
  field: string | readonly string[] | null,
): void {
  expect(result.status, JSON.stringify(result.body)).toBe(400)
  // Read as the Error shape with its fields unchecked: this function is what checks them.
  const body = result.body as { code?: unknown; details?: unknown }
  expect(body.code).toBe('VALIDATION_ERROR')
  const details = body.details as Array<Record<string, unknown>>
  expect(Array.isArray(details) && details.length > 0).toBe(true)
  for (const detail of details) {
    expect(Object.keys(detail).sort()).toEqual(['in', 'message', 'path'])
    expect(typeof detail.path).toBe('string')
    expect(typeof detail.message === 'string' && detail.message.length > 0).toBe(true)
  }
  if (field === null) return
  const fields = typeof field === 'string' ? [field] : field
  expect(
    details.some((detail) => detail.in === where && fields.includes(detail.path as string)),
    JSON.stringify(details),
  ).toBe(true)
}

type QueryCase = [path: string, query: string, field: string | string[] | null]

/** Lists and what one past each of their bounds is. */
const LIST_PATHS = operations
  .filter((operation) => operation.method === 'GET' && !hasIdParam(operation))
  .map((operation) => operation.path)

/** The lists paged by `page` (not the events feed, which refuses `page` as unknown). */
const PAGE_LIST_PATHS = operations.filter(isPageList).map((operation) => operation.path)

const QUERY_REJECTED: QueryCase[] = [
  ...LIST_PATHS.flatMap((path): QueryCase[] => [
    [path, 'page=0', 'page'],
    [path, 'page=-1', 'page'],
    [path, 'page=1.5', 'page'],
    [path, 'page=1e1', 'page'],
    [path, 'page=%2B1', 'page'],
    [path, 'page=%201', 'page'],
    [path, 'page=0x1', 'page'],
    [path, 'page=', 'page'],
    [path, 'limit=0', 'limit'],
    [path, 'limit=101', 'limit'],
    [path, 'limit=10.0', 'limit'],
    [path, 'limit=ten', 'limit'],
    [path, 'page=1&page=2', 'page'],
    [path, 'limit=5&limit=5', 'limit'],
  ]),
  ['/tickets', `search=${chars(256)}`, 'search'],
  ['/tickets', `status=${chars(101)}`, 'status'],
  ['/tickets', `priority=${chars(101)}`, 'priority'],
  ['/tickets', `assignedTo=${chars(256)}`, 'assignedTo'],
  ['/tickets', 'sortColumn=created_at', 'sortColumn'],
  ['/tickets', 'sortColumn=TITLE', 'sortColumn'],
  ['/tickets', 'sortDesc=TRUE', 'sortDesc'],
  ['/tickets', 'sortDesc=1', 'sortDesc'],
  ['/tickets', 'sortDesc=yes', 'sortDesc'],
  ['/tickets', 'isClosed=0', 'isClosed'],
  ['/tickets', 'isClosed=False', 'isClosed'],
  ['/tickets', 'provider=psa_e', 'provider'],
  ['/tickets', 'provider=PSA_A', 'provider'],
  ['/tickets', 'companyId=not-a-uuid', 'companyId'],
  ['/tickets', 'dateFrom=yesterday', 'dateFrom'],
  ['/tickets', 'dateTo=2024-13-01', 'dateTo'],
  ['/tickets', 'dateFrom=2024-01-11&dateTo=2024-01-10', ['dateFrom', 'dateTo', '']],
  ['/tickets', 'dateFrom=2024-01-10T10:00:00.001Z&dateTo=2024-01-10T10:00:00.000Z', ['dateFrom', 'dateTo', '']],
  ['/tickets', 'search=a&search=b', 'search'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'includeNotes=true&notesLimit=0', 'notesLimit'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'includeNotes=true&notesLimit=101', 'notesLimit'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'notesLimit=-1', 'notesLimit'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'includeNotes=1', 'includeNotes'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'includeNotes=yes', 'includeNotes'],
  ['/compliance/templates', `search=${chars(101)}`, 'search'],
  ['/compliance/templates', 'sortBy=name', 'sortBy'],
  ['/compliance/templates', 'sortOrder=ASC', 'sortOrder'],
  ['/compliance/templates', 'approvalStatus=archived', 'approvalStatus'],
  ['/compliance/templates', 'checkScope=site', 'checkScope'],
  ['/compliance/templates', 'groupId=1', 'groupId'],
  ['/users', `search=${chars(256)}`, 'search'],
  ['/users', 'sortColumn=name', 'sortColumn'],
  ['/users', 'sortDesc=no', 'sortDesc'],
  ['/users', 'status=banned', 'status'],
  ['/users', 'roleId=admin', 'roleId'],
  ['/users', 'companyId=acme', 'companyId'],
  ['/users', 'isPrimaryAdmin=1', 'isPrimaryAdmin'],
  ['/report-templates', 'sortBy=title', 'sortBy'],
  ['/report-templates', 'sortOrder=up', 'sortOrder'],
  ['/report-templates', 'reportTypeId=x', 'reportTypeId'],
  ['/report-templates', 'isShared=yes', 'isShared'],
  [`/report-templates/${'aaaaaaaa-0008-4000-8000-000000000001'}`, 'includeStructure=1', 'includeStructure'],
  ['/calendar/types', 'sortBy=name', 'sortBy'],
  ['/companies', 'sortBy=domain', 'sortBy'],
  ['/companies', 'sortOrder=descending', 'sortOrder'],
  ['/companies', 'search=acme', 'search'],
  ['/training/enrollments', 'status=done', 'status'],
  ['/training/enrollments', 'courseId=x', 'courseId'],
  ['/training/enrollments', 'userId=x', 'userId'],
  ['/training/enrollments', 'companyId=x', 'companyId'],
]

const QUERY_ACCEPTED: Array<[path: string, query: string]> = [
  ...PAGE_LIST_PATHS.flatMap(
    (path): Array<[string, string]> => [
      [path, 'page=1'],
      [path, 'limit=1'],
      [path, 'limit=100'],
      [path, 'page=2&limit=1'],
    ],
  ),
  ['/tickets', `search=${chars(255)}`],
  ['/tickets', `status=${chars(100)}`],
  ['/tickets', `priority=${chars(100)}`],
  ['/tickets', `assignedTo=${chars(255)}`],
  ['/tickets', 'sortDesc=false&isClosed=true'],
  ['/tickets', 'dateFrom=2024-01-10&dateTo=2024-01-10'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'includeNotes=true&notesLimit=1'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'includeNotes=true&notesLimit=100'],
  ['/compliance/templates', `search=${chars(100)}`],
  ['/users', `search=${chars(255)}`],
  [`/report-templates/${'aaaaaaaa-0008-4000-8000-000000000001'}`, 'includeStructure=false'],
]

type BodyTarget = 'lineItem' | 'budget' | 'createRule' | 'rule' | 'report'
const TARGETS: Record<
  BodyTarget,
  {
    operation: string
    method: string
    path: (ids: FixtureIds) => string
    success: number
    base: Record<string, unknown>
  }
> = {
  lineItem: {
    operation: 'createBudgetLineItem',
    method: 'POST',
    path: (ids) => `/budgets/${ids.budget}/items`,
    success: 201,
    base: { ...MINIMAL_LINE_ITEM },
  },
  budget: {
    operation: 'updateBudget',
    method: 'PATCH',
    path: (ids) => `/budgets/${ids.budget}`,
    success: 200,
    base: {},
  },
  createRule: {
    operation: 'createAutomationRule',
    method: 'POST',
    path: () => '/automation',
    success: 201,
    base: { ...MINIMAL_RULE },
  },
  rule: {
    operation: 'updateAutomationRule',
    method: 'PATCH',
    path: (ids) => `/automation/${ids.rule}`,
    success: 200,
    base: {},
  },
  report: {
    operation: 'updateReport',
    method: 'PATCH',
    path: (ids) => `/reports/${ids.report}`,
    success: 200,
    base: {},
  },
}

/** Condition groups nested `depth` deep. */
function nestedGroups(depth: number): unknown[] {
  let groups: unknown[] = []
  for (let level = 0; level < depth; level++) groups = [{ logic: 'AND', conditions: [], groups }]
  return groups
}
const conditions = (n: number) => [
  { logic: 'OR', conditions: Array.from({ length: n }, (_, i) => ({ field: `f${i}`, operator: 'eq', value: i })) },
]
const actions = (n: number) => Array.from({ length: n }, (_, i) => ({ actionType: 'notify', config: { i } }))
const without = (object: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(object).filter(([k]) => k !== key))

const A = fixtureIds('a')
/** A body target's method and path, its id shown as `{id}`: `PATCH /budgets/{id}`. */
const route = (target: BodyTarget) =>
  `${TARGETS[target].method} ${TARGETS[target].path(A).replace(/[0-9a-f-]{36}/, '{id}')}`
type BodyCase = [
  target: BodyTarget,
  label: string,
  body: (base: Record<string, unknown>) => unknown,
  field: string | string[] | null,
]
const BODY_REJECTED: BodyCase[] = [
  ['lineItem', 'description empty', (b) => ({ ...b, description: '' }), 'description'],
  ['lineItem', 'description 1001 chars', (b) => ({ ...b, description: chars(1001) }), 'description'],
  ['lineItem', 'description null', (b) => ({ ...b, description: null }), 'description'],
  ['lineItem', 'description missing', (b) => without(b, 'description'), 'description'],
  ['lineItem', 'notes 5001 chars', (b) => ({ ...b, notes: chars(5001) }), 'notes'],
  ['lineItem', 'notes null', (b) => ({ ...b, notes: null }), 'notes'],
  ['lineItem', 'termMonths 0', (b) => ({ ...b, termMonths: 0 }), 'termMonths'],
  ['lineItem', 'termMonths 121', (b) => ({ ...b, termMonths: 121 }), 'termMonths'],
  ['lineItem', 'termMonths 1.5', (b) => ({ ...b, termMonths: 1.5 }), 'termMonths'],
  ['lineItem', 'termMonths as a string', (b) => ({ ...b, termMonths: '12' }), 'termMonths'],
  ['lineItem', 'quantity -0.01', (b) => ({ ...b, quantity: -0.01 }), 'quantity'],
  ['lineItem', 'quantity as a string', (b) => ({ ...b, quantity: '1' }), 'quantity'],
  ['lineItem', 'unitPrice -1', (b) => ({ ...b, unitPrice: -1 }), 'unitPrice'],
  ['lineItem', 'unitPrice missing', (b) => without(b, 'unitPrice'), 'unitPrice'],
  ['lineItem', 'currency of 2 letters', (b) => ({ ...b, currency: 'US' }), 'currency'],
  ['lineItem', 'currency of 4 letters', (b) => ({ ...b, currency: 'USDX' }), 'currency'],
  ['lineItem', 'currency with a digit', (b) => ({ ...b, currency: 'U5D' }), 'currency'],
  ['lineItem', 'type not an enum value', (b) => ({ ...b, type: 'Food' }), 'type'],
  ['lineItem', 'type in the wrong case', (b) => ({ ...b, type: 'software' }), 'type'],
  ['lineItem', 'type missing', (b) => without(b, 'type'), 'type'],
  ['lineItem', 'recurrence not an enum value', (b) => ({ ...b, recurrence: 'Weekly' }), 'recurrence'],
  ['lineItem', 'status not an enum value', (b) => ({ ...b, status: 'done' }), 'status'],
  [
    'lineItem',
    'linkedItemType not an enum value',
    (b) => ({ ...b, linkedItemId: UNKNOWN_UUID, linkedItemType: 'car' }),
    'linkedItemType',
  ],
  [
    'lineItem',
    'linkedItemId without linkedItemType',
    (b) => ({ ...b, linkedItemId: UNKNOWN_UUID }),
    ['linkedItemId', 'linkedItemType'],
  ],
  [
    'lineItem',
    'linkedItemType without linkedItemId',
    (b) => ({ ...b, linkedItemType: 'device' }),
    ['linkedItemId', 'linkedItemType'],
  ],
  ['lineItem', 'categoryId not a uuid', (b) => ({ ...b, categoryId: 'laptops' }), 'categoryId'],
  ['lineItem', 'categoryId of no planner item type', (b) => ({ ...b, categoryId: UNKNOWN_UUID }), 'categoryId'],
  ['lineItem', 'categoryId of another tenant', (b) => ({ ...b, categoryId: B.plannerTypes[0] }), 'categoryId'],
  [
    'lineItem',
    'linked goal that does not exist',
    (b) => ({ ...b, linkedItemId: UNKNOWN_UUID, linkedItemType: 'goal' }),
    'linkedItemId',
  ],
  [
    'lineItem',
    'linked goal of another tenant',
    (b) => ({ ...b, linkedItemId: B.goals[0], linkedItemType: 'goal' }),
    'linkedItemId',
  ],
  ['lineItem', 'unknown field', (b) => ({ ...b, approvedBy: 'me' }), 'approvedBy'],
  ['lineItem', 'computed field annualisedCost', (b) => ({ ...b, annualisedCost: 1 }), 'annualisedCost'],
  ['lineItem', 'an array instead of an object', () => [], null],
  ['budget', 'empty body', () => ({}), null],
  ['budget', 'title empty', () => ({ title: '' }), 'title'],
  ['budget', 'title 256 chars', () => ({ title: chars(256) }), 'title'],
  ['budget', 'title null', () => ({ title: null }), 'title'],
  ['budget', 'fiscalYear 1899', () => ({ fiscalYear: 1899 }), 'fiscalYear'],
  ['budget', 'fiscalYear 2101', () => ({ fiscalYear: 2101 }), 'fiscalYear'],
  ['budget', 'fiscalYear 2024.5', () => ({ fiscalYear: 2024.5 }), 'fiscalYear'],
  ['budget', 'fiscalYear as a string', () => ({ fiscalYear: '2024' }), 'fiscalYear'],
  ['budget', 'fiscalYear null', () => ({ fiscalYear: null }), 'fiscalYear'],
  ['budget', 'periodType not an enum value', () => ({ periodType: 'Weekly' }), 'periodType'],
  ['budget', 'status not an enum value', () => ({ status: 'Done' }), 'status'],
  ['budget', 'status null', () => ({ status: null }), 'status'],
  ['budget', 'currency of 2 letters', () => ({ currency: 'EU' }), 'currency'],
  ['budget', 'currency null', () => ({ currency: null }), 'currency'],
  ['budget', 'notes 10001 chars', () => ({ notes: chars(10001) }), 'notes'],
  ['budget', 'unknown field', () => ({ title: 'ok', owner: 'me' }), 'owner'],
  ['budget', 'computed field totals', () => ({ totals: {} }), 'totals'],
  ['createRule', 'name empty', (b) => ({ ...b, name: '' }), 'name'],
  ['createRule', 'name 201 chars', (b) => ({ ...b, name: chars(201) }), 'name'],
  ['createRule', 'name missing', (b) => without(b, 'name'), 'name'],
  ['createRule', 'description 1001 chars', (b) => ({ ...b, description: chars(1001) }), 'description'],
  ['createRule', 'description null', (b) => ({ ...b, description: null }), 'description'],
  ['createRule', 'priority -1', (b) => ({ ...b, priority: -1 }), 'priority'],
  ['createRule', 'priority 101', (b) => ({ ...b, priority: 101 }), 'priority'],
  ['createRule', 'priority 1.5', (b) => ({ ...b, priority: 1.5 }), 'priority'],
  ['createRule', 'isActive as a string', (b) => ({ ...b, isActive: 'true' }), 'isActive'],
  ['createRule', 'triggerType not an enum value', (b) => ({ ...b, triggerType: 'cron' }), 'triggerType'],
  ['createRule', 'triggerConfig missing', (b) => without(b, 'triggerConfig'), 'triggerConfig'],
  ['createRule', 'entityType not an enum value', (b) => ({ ...b, entityType: 'car' }), 'entityType'],
  ['createRule', 'scopeType not an enum value', (b) => ({ ...b, scopeType: 'global' }), 'scopeType'],
  ['createRule', 'scopeType company without companyIds', (b) => ({ ...b, scopeType: 'company' }), 'companyIds'],
  [
    'createRule',
    'scopeType company with no company ids',
    (b) => ({ ...b, scopeType: 'company', companyIds: [] }),
    'companyIds',
  ],
  [
    'createRule',
    'scopeType tenant with companyIds',
    (b) => ({ ...b, scopeType: 'tenant', companyIds: [A.companies[0]] }),
    'companyIds',
  ],
  ['createRule', 'scopeType omitted with companyIds', (b) => ({ ...b, companyIds: [A.companies[0]] }), 'companyIds'],
  [
    'createRule',
    'an unknown company id',
    (b) => ({ ...b, scopeType: 'company', companyIds: [A.companies[0], UNKNOWN_UUID] }),
    'companyIds[1]',
  ],
  [
    'createRule',
    'another tenant’s company id',
    (b) => ({ ...b, scopeType: 'company', companyIds: [B.companies[0]] }),
    'companyIds[0]',
  ],
  [
    'createRule',
    'a company id that is not a uuid',
    (b) => ({ ...b, scopeType: 'company', companyIds: ['acme'] }),
    'companyIds[0]',
  ],
  ['createRule', 'conditions nested 6 deep', (b) => ({ ...b, conditions: nestedGroups(6) }), 'conditions'],
  ['createRule', '201 conditions', (b) => ({ ...b, conditions: conditions(201) }), 'conditions'],
  ['createRule', '51 actions', (b) => ({ ...b, actions: actions(51) }), 'actions'],
  [
    'createRule',
    'condition logic not AND or OR',
    (b) => ({ ...b, conditions: [{ logic: 'XOR' }] }),
    'conditions[0].logic',
  ],
  [
    'createRule',
    'a condition without a field',
    (b) => ({ ...b, conditions: [{ logic: 'AND', conditions: [{ operator: 'eq' }] }] }),
    'conditions[0].conditions[0].field',
  ],
  ['createRule', 'an action without actionType', (b) => ({ ...b, actions: [{ config: {} }] }), 'actions[0].actionType'],
  ['createRule', 'unknown field version', (b) => ({ ...b, version: 7 }), 'version'],
  ['rule', 'empty body', () => ({}), null],
  ['rule', 'name 201 chars', () => ({ name: chars(201) }), 'name'],
  ['rule', 'name null', () => ({ name: null }), 'name'],
  ['rule', 'description null', () => ({ description: null }), 'description'],
  ['rule', 'priority 101', () => ({ priority: 101 }), 'priority'],
  ['rule', 'priority null', () => ({ priority: null }), 'priority'],
  ['rule', 'scopeType tenant while the rule keeps company ids', () => ({ scopeType: 'tenant' }), 'companyIds'],
  ['rule', 'no company ids on a company rule', () => ({ companyIds: [] }), 'companyIds'],
  ['rule', 'an unknown company id', () => ({ companyIds: [UNKNOWN_UUID] }), 'companyIds[0]'],
  ['rule', '51 actions', () => ({ actions: actions(51) }), 'actions'],
  ['rule', 'unknown field version', () => ({ version: 9 }), 'version'],
  ['report', 'empty body', () => ({}), null],
  ['report', 'title empty', () => ({ title: '' }), 'title'],
  ['report', 'title 501 chars', () => ({ title: chars(501) }), 'title'],
  ['report', 'title null', () => ({ title: null }), 'title'],
  ['report', 'description 2001 chars', () => ({ description: chars(2001) }), 'description'],
  ['report', 'status not an enum value', () => ({ status: 'archived' }), 'status'],
  ['report', 'status null', () => ({ status: null }), 'status'],
  ['report', 'isShared as a string', () => ({ isShared: 'true' }), 'isShared'],
  ['report', 'isShared null', () => ({ isShared: null }), 'isShared'],
  ['report', 'companyId of no company', () => ({ companyId: UNKNOWN_UUID }), 'companyId'],
  ['report', 'companyId of another tenant', () => ({ companyId: B.companies[0] }), 'companyId'],
  ['report', 'companyId not a uuid', () => ({ companyId: 'acme' }), 'companyId'],
  ['report', 'reportTypeId of no report type', () => ({ reportTypeId: UNKNOWN_UUID }), 'reportTypeId'],
  ['report', 'reportTypeId of another tenant', () => ({ reportTypeId: B.reportTypes[0] }), 'reportTypeId'],
  ['report', 'dateStart not a date', () => ({ dateStart: 'soon' }), 'dateStart'],
  [
    'report',
    'dateStart after dateEnd',
    () => ({ dateStart: '2024-02-01', dateEnd: '2024-01-01' }),
    ['dateStart', 'dateEnd', ''],
  ],
  ['report', 'content not an object', () => ({ content: 'text' }), 'content'],
  ['report', 'computed field companyName', () => ({ companyName: 'Acme' }), 'companyName'],
  ['report', 'unknown field version', () => ({ version: 2 }), 'version'],
]

type AcceptedCase = [
  target: BodyTarget,
  label: string,
  body: (base: Record<string, unknown>) => unknown,
  check?: (data: Record<string, unknown>) => void,
]
const BODY_ACCEPTED: AcceptedCase[] = [
  ['lineItem', 'description of 1 char', (b) => ({ ...b, description: 'x' })],
  [
    'lineItem',
    'description of 1000 chars',
    (b) => ({ ...b, description: chars(1000) }),
    (d) => expect(d.description).toHaveLength(1000),
  ],
  ['lineItem', 'notes of 5000 chars', (b) => ({ ...b, notes: chars(5000) }), (d) => expect(d.notes).toHaveLength(5000)],
  ['lineItem', 'termMonths 1', (b) => ({ ...b, termMonths: 1 }), (d) => expect(d.termMonths).toBe(1)],
  ['lineItem', 'termMonths 120', (b) => ({ ...b, termMonths: 120 }), (d) => expect(d.termMonths).toBe(120)],
  [
    'lineItem',
    'quantity 0',
    (b) => ({ ...b, quantity: 0 }),
    (d) => expect([d.quantity, d.annualisedCost]).toEqual([0, 0]),
  ],
  ['lineItem', 'unitPrice 0', (b) => ({ ...b, unitPrice: 0 }), (d) => expect(d.unitPrice).toBe(0)],
  [
    'lineItem',
    'currency in lower case (stored upper-case)',
    (b) => ({ ...b, currency: 'eur' }),
    (d) => expect(d.currency).toBe('EUR'),
  ],
  [
    'lineItem',
    'categoryId of a planner item type',
    (b) => ({ ...b, categoryId: A.plannerTypes[1] }),
    (d) => expect(d.category).toEqual({ id: A.plannerTypes[1], name: 'Licence renewal' }),
  ],
  [
    'lineItem',
    'linked goal of the tenant (name is its title)',
    (b) => ({ ...b, linkedItemId: A.goals[1], linkedItemType: 'goal' }),
    (d) => expect(d.linkedItem).toEqual({ id: A.goals[1], type: 'goal', name: 'Goal 2' }),
  ],
  [
    'lineItem',
    'linked device (name null)',
    (b) => ({ ...b, linkedItemId: UNKNOWN_UUID, linkedItemType: 'device' }),
    (d) => expect(d.linkedItem).toEqual({ id: UNKNOWN_UUID, type: 'device', name: null }),
  ],
  ['budget', 'title of 1 char', () => ({ title: 'x' }), (d) => expect(d.title).toBe('x')],
  ['budget', 'title of 255 chars', () => ({ title: chars(255) }), (d) => expect(d.title).toHaveLength(255)],
  ['budget', 'fiscalYear 1900', () => ({ fiscalYear: 1900 }), (d) => expect(d.fiscalYear).toBe(1900)],
  ['budget', 'fiscalYear 2100', () => ({ fiscalYear: 2100 }), (d) => expect(d.fiscalYear).toBe(2100)],
  ['budget', 'notes of 10000 chars', () => ({ notes: chars(10000) }), (d) => expect(d.notes).toHaveLength(10000)],
  ['budget', 'notes null (clears)', () => ({ notes: null }), (d) => expect(d.notes).toBeNull()],
  [
    'budget',
    'currency in lower case (stored upper-case)',
    () => ({ currency: 'gbp' }),
    (d) => expect(d.currency).toBe('GBP'),
  ],
  ['createRule', 'name of 1 char', (b) => ({ ...b, name: 'x' })],
  ['createRule', 'name of 200 chars', (b) => ({ ...b, name: chars(200) }), (d) => expect(d.name).toHaveLength(200)],
  [
    'createRule',
    'description of 1000 chars',
    (b) => ({ ...b, description: chars(1000) }),
    (d) => expect(d.description).toHaveLength(1000),
  ],
  ['createRule', 'priority 0', (b) => ({ ...b, priority: 0 }), (d) => expect(d.priority).toBe(0)],
  ['createRule', 'priority 100', (b) => ({ ...b, priority: 100 }), (d) => expect(d.priority).toBe(100)],
  ['createRule', 'conditions nested 5 deep', (b) => ({ ...b, conditions: nestedGroups(5) })],
  [
    'createRule',
    '200 conditions',
    (b) => ({ ...b, conditions: conditions(200) }),
    (d) => expect((d.conditions as Row[])[0]?.conditions).toHaveLength(200),
  ],
  ['createRule', '50 actions', (b) => ({ ...b, actions: actions(50) }), (d) => expect(d.actions).toHaveLength(50)],
  [
    'createRule',
    'logic OR',
    (b) => ({ ...b, conditions: [{ logic: 'OR' }] }),
    (d) => expect((d.conditions as Row[])[0]?.logic).toBe('OR'),
  ],
  [
    'createRule',
    'scopeType company with company ids of the tenant',
    (b) => ({ ...b, scopeType: 'company', companyIds: [A.companies[2], A.companies[0]] }),
    (d) =>
      expect(d.companies).toEqual([
        { id: A.companies[2], name: 'Zeta' },
        { id: A.companies[0], name: 'Acme' },
      ]),
  ],
  ['rule', 'name of 200 chars', () => ({ name: chars(200) }), (d) => expect(d.name).toHaveLength(200)],
  ['rule', 'priority 0', () => ({ priority: 0 }), (d) => expect(d.priority).toBe(0)],
  ['rule', 'priority 100', () => ({ priority: 100 }), (d) => expect(d.priority).toBe(100)],
  [
    'rule',
    'scopeType tenant with companyIds []',
    () => ({ scopeType: 'tenant', companyIds: [] }),
    (d) => expect([d.scopeType, d.companyIds, d.companies]).toEqual(['tenant', [], []]),
  ],
  ['report', 'title of 1 char', () => ({ title: 'x' }), (d) => expect(d.title).toBe('x')],
  ['report', 'title of 500 chars', () => ({ title: chars(500) }), (d) => expect(d.title).toHaveLength(500)],
  [
    'report',
    'description of 2000 chars',
    () => ({ description: chars(2000) }),
    (d) => expect(d.description).toHaveLength(2000),
  ],
  ['report', 'description null (clears)', () => ({ description: null }), (d) => expect(d.description).toBeNull()],
  [
    'report',
    'companyId null (clears)',
    () => ({ companyId: null }),
    (d) => expect([d.companyId, d.companyName]).toEqual([null, null]),
  ],
  [
    'report',
    'reportTypeId null (clears)',
    () => ({ reportTypeId: null }),
    (d) => expect([d.reportTypeId, d.reportTypeName]).toEqual([null, null]),
  ],
  [
    'report',
    'dateStart and dateEnd null (clear)',
    () => ({ dateStart: null, dateEnd: null }),
    (d) => expect([d.dateStart, d.dateEnd]).toEqual([null, null]),
  ],
  [
    'report',
    'dateStart equal to dateEnd',
    () => ({ dateStart: '2024-03-01', dateEnd: '2024-03-01' }),
    (d) => expect([d.dateStart, d.dateEnd]).toEqual(['2024-03-01', '2024-03-01']),
  ],
]

/**
 * Whether the operation's body schema alone rejects `body`: then the pipeline answers before any
 * store call, and the case is store-independent. A body the schema accepts and the API still
 * rejects was refused on what the store holds (a reference, the stored record it merges into).
 */
function schemaRejects(target: BodyTarget, body: unknown): boolean {
  const schema = operations.find((operation) => operation.id === TARGETS[target].operation)?.body
  if (schema === undefined) throw new Error(`No body schema for ${TARGETS[target].operation}`)
  return !v.safeParse(schema, body).success
}

/**
 * Registers the store-independent validation tests: every rejected query and every body the
 * schema rejects. They run once per test run (`runHttpConformance`), not per store.
 *
 * @example
 * validation(ctx)
 */
export function validation(ctx: ConformanceContext): void {
  describe('validation: query parameters', () => {
    for (const [path, query, field] of QUERY_REJECTED) {
      it(`rejects ${path}?${query.length > 60 ? `${query.slice(0, 40)}…(${query.length} chars)` : query}`, async () => {
        expectValidationError(await ctx.a.h.call('GET', `${path}?${query}`), 'query', field)
      })
    }
    for (const operation of operations) {
      it(`rejects an unknown query parameter on ${operation.method} ${operation.path}`, async () => {
        const { h } = operation.method === 'GET' ? { h: ctx.a.h } : await ctx.fresh(writableSeed('a'))
        const path = samplePath(operation, A)
        const result = await h.call(
          operation.method,
          `${path}${path.includes('?') ? '&' : '?'}bogus=1`,
          sampleBody(operation),
        )
        expectValidationError(result, 'query', 'bogus')
      })
    }
  })

  describe('validation: bodies the schema rejects', () => {
    // A writable tenant of its own, so that a wrongly accepted body cannot touch the fixtures.
    let rejecting: Harness | undefined
    const h = async () => (rejecting ??= (await ctx.fresh(writableSeed('a'))).h)
    for (const [target, label, body, field] of BODY_REJECTED) {
      if (!schemaRejects(target, body(TARGETS[target].base))) continue
      it(`${route(target)} rejects ${label}`, async () => {
        expectValidationError(await send(await h(), target, body(TARGETS[target].base)), 'body', field)
      })
    }
  })
}

/** A write's answer: the record written, or the Error shape. */
type WriteReply = Partial<ErrorBody> & { data?: Record<string, unknown> }

const send = (h: Harness, target: BodyTarget, body: unknown) =>
  h.call<WriteReply>(TARGETS[target].method, TARGETS[target].path(A), { body })

/**
 * Registers the validation tests that reach the store: bounds accepted (the store sees the
 * extreme values), references that must exist in the tenant, bodies refused against the stored
 * record, and proof that no rejected body changed anything.
 *
 * @example
 * validationAgainstStore(ctx)
 */
export function validationAgainstStore(ctx: ConformanceContext): void {
  describe('validation: accepted queries reach the store', () => {
    for (const [path, query] of QUERY_ACCEPTED) {
      it(`accepts ${path}?${query.length > 60 ? `${query.slice(0, 40)}…(${query.length} chars)` : query}`, async () => {
        const result = await ctx.a.h.call('GET', `${path}?${query}`)
        expect(result.status, JSON.stringify(result.body)).toBe(200)
      })
    }
  })

  describe('validation: bodies', () => {
    // Rejected requests write nothing, so they share one tenant; the last test proves it is untouched.
    let rejecting: { tenantId: string; h: Harness } | undefined
    const rejectingTenant = async () => (rejecting ??= await ctx.fresh(writableSeed('a')))
    for (const [target, label, body, field] of BODY_REJECTED) {
      if (schemaRejects(target, body(TARGETS[target].base))) continue
      it(`${route(target)} rejects ${label}`, async () => {
        const { h } = await rejectingTenant()
        expectValidationError(await send(h, target, body(TARGETS[target].base)), 'body', field)
      })
    }
    it('rejected bodies changed nothing', async () => {
      const { h, tenantId } = await rejectingTenant()
      // One schema-rejected body per target as well, through the store under test.
      for (const target of Object.keys(TARGETS) as BodyTarget[]) {
        const rejected = BODY_REJECTED.find(([t, , body]) => t === target && schemaRejects(t, body(TARGETS[t].base)))
        if (rejected) expect((await send(h, target, rejected[2](TARGETS[target].base))).status).toBe(400)
      }
      const { tenantId: pristine } = await ctx.fresh(writableSeed('a'))
      const read = (id: string) =>
        Promise.all([
          ctx.store.get(budgets, id, A.budget),
          ctx.store.get(budgets, id, A.emptyBudget),
          ctx.store.get(automationRules, id, A.rule),
          ctx.store.get(reports, id, A.report),
        ])
      expect(await read(tenantId)).toEqual(await read(pristine))
    })
    for (const [target, label, body, check] of BODY_ACCEPTED) {
      it(`${route(target)} accepts ${label}`, async () => {
        const { h } = await ctx.fresh(writableSeed('a'))
        const result = await send(h, target, body(TARGETS[target].base))
        expect(result.status, JSON.stringify(result.body).slice(0, 500)).toBe(TARGETS[target].success)
        check?.(result.body.data ?? {})
      })
    }
  })
}
