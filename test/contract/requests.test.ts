/**
 * The document tells the whole truth about requests: recorded valid and invalid requests of every
 * operation are put to the OpenAPI document (as a generated client or a request validator reads it)
 * and to the API (memory store), and each must be accepted by both or refused by both, as recorded.
 * They cover one valid and one invalid request per operation and each rule the API enforces that a
 * document could leave out (PATCH `{}`, `"*"` alone, `linkedItemId` with `linkedItemType`, a rule's
 * scope and companies, dates, `Idempotency-Key`, event types and ids, NUL and prototype keys).
 */
import { describe, expect, it } from 'vitest'
import { createOpenApiDocument, operations, webhookEndpoints } from 'tenant-public-api'
import { BASE, IDS, SAMPLES, setup, webhookEndpointRecord } from '../http/fixture.js'
import { documentProblems, requestLine, type RecordedRequest } from '../support/request-contract.js'

interface Recorded {
  name: string
  valid: boolean
  request: RecordedRequest
}

const valid = (name: string, request: RecordedRequest): Recorded => ({ name, valid: true, request })
const invalid = (name: string, request: RecordedRequest): Recorded => ({ name, valid: false, request })

/** The fixture's valid sample of each operation, as a recorded request. */
function sampleRequest(operationId: string): RecordedRequest {
  const operation = operations.find((candidate) => candidate.id === operationId)!
  const sample = SAMPLES[operationId]!
  const [path, query] = sample.path.split('?') as [string, string | undefined]
  const names = [...operation.path.matchAll(/:(\w+)/g)].map((match) => match[1]!)
  const match = new RegExp(`^${operation.path.replace(/:\w+/g, '([^/]+)')}$`).exec(path)!
  const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]))
  return { operationId, params, query, body: sample.body }
}

const id = (value: string) => ({ id: value })
const rule = (fields: Record<string, unknown>) => ({ ...(SAMPLES.createAutomationRule!.body as object), ...fields })
const lineItem = (fields: Record<string, unknown>) => ({
  type: 'Hardware',
  description: 'Laptop',
  unitPrice: 1,
  ...fields,
})
const endpoint = (events: unknown) => ({ url: 'https://hooks.example.com/new', events })

/** One invalid request per operation, beside the findings below. */
const PER_OPERATION: Recorded[] = [
  invalid('listTickets: limit 0', { operationId: 'listTickets', query: 'limit=0' }),
  invalid('getTicket: includeNotes=yes', {
    operationId: 'getTicket',
    params: id(IDS.ticket),
    query: 'includeNotes=yes',
  }),
  invalid('createBudgetLineItem: empty description', {
    operationId: 'createBudgetLineItem',
    params: id(IDS.budget),
    body: lineItem({ description: '' }),
  }),
  invalid('listComplianceTemplates: unknown sortBy', { operationId: 'listComplianceTemplates', query: 'sortBy=nope' }),
  invalid('getComplianceTemplate: malformed id', { operationId: 'getComplianceTemplate', params: id('nope') }),
  invalid('getComplianceCheck: malformed id', { operationId: 'getComplianceCheck', params: id('nope') }),
  invalid('listTrainingEnrollments: unknown status', { operationId: 'listTrainingEnrollments', query: 'status=done' }),
  invalid('deleteTrainingEnrollment: malformed id', { operationId: 'deleteTrainingEnrollment', params: id('nope') }),
  invalid('getTrainingCourse: malformed id', { operationId: 'getTrainingCourse', params: id('nope') }),
  invalid('listUsers: isPrimaryAdmin=maybe', { operationId: 'listUsers', query: 'isPrimaryAdmin=maybe' }),
  invalid('listReportTemplates: limit 101', { operationId: 'listReportTemplates', query: 'limit=101' }),
  invalid('getReportTemplate: includeStructure=1', {
    operationId: 'getReportTemplate',
    params: id(IDS.reportTemplate),
    query: 'includeStructure=1',
  }),
  invalid('listMeetingTypes: page 0', { operationId: 'listMeetingTypes', query: 'page=0' }),
  invalid('listCompanies: sortOrder=up', { operationId: 'listCompanies', query: 'sortOrder=up' }),
  invalid('getGoal: malformed id', { operationId: 'getGoal', params: id('nope') }),
  invalid('getNpsSurvey: id over 255 characters', { operationId: 'getNpsSurvey', params: id('x'.repeat(256)) }),
  invalid('getPlannerItemType: malformed id', { operationId: 'getPlannerItemType', params: id('nope') }),
  invalid('listWebhookEndpoints: limit 0', { operationId: 'listWebhookEndpoints', query: 'limit=0' }),
  invalid('getWebhookEndpoint: malformed id', { operationId: 'getWebhookEndpoint', params: id('nope') }),
  invalid('deleteWebhookEndpoint: malformed id', { operationId: 'deleteWebhookEndpoint', params: id('nope') }),
  invalid('rotateWebhookEndpointSecret: malformed id', { operationId: 'rotateWebhookEndpointSecret', params: id('x') }),
  invalid('listWebhookDeliveries: limit 101', {
    operationId: 'listWebhookDeliveries',
    params: id(IDS.webhookEndpoint),
    query: 'limit=101',
  }),
]

const patch = (operationId: string, target: string, body: unknown): RecordedRequest => ({
  operationId,
  params: id(target),
  body,
})

/** The rules a document could leave out (issue 20's findings), each accepted and refused. */
const FINDINGS: Recorded[] = [
  // 1. PATCH needs at least one field.
  invalid('updateBudget {}', patch('updateBudget', IDS.budget, {})),
  invalid('updateAutomationRule {}', patch('updateAutomationRule', IDS.rule, {})),
  invalid('updateReport {}', patch('updateReport', IDS.report, {})),
  invalid('updateWebhookEndpoint {}', patch('updateWebhookEndpoint', IDS.webhookEndpoint, {})),
  valid('updateBudget one field', patch('updateBudget', IDS.budget, { notes: null })),
  // 2. `"*"` stands alone; a repeated type is kept once.
  valid('events ["*"]', { operationId: 'createWebhookEndpoint', body: endpoint(['*']) }),
  valid('events with a repeat', {
    operationId: 'createWebhookEndpoint',
    body: endpoint(['ticket.created', 'ticket.created', 'ticket.updated']),
  }),
  invalid('events ["*","*"]', { operationId: 'createWebhookEndpoint', body: endpoint(['*', '*']) }),
  invalid('events "*" after a type', { operationId: 'createWebhookEndpoint', body: endpoint(['ticket.created', '*']) }),
  invalid('events []', { operationId: 'createWebhookEndpoint', body: endpoint([]) }),
  invalid('events of an unknown type', { operationId: 'createWebhookEndpoint', body: endpoint(['ticket.exploded']) }),
  invalid('PATCH events ["*","ticket.created"]', {
    ...patch('updateWebhookEndpoint', IDS.webhookEndpoint, { events: ['*', 'ticket.created'] }),
  }),
  valid('PATCH events ["*"]', patch('updateWebhookEndpoint', IDS.webhookEndpoint, { events: ['*'] })),
  // 3. linkedItemId and linkedItemType come together.
  valid('line item with a link', {
    operationId: 'createBudgetLineItem',
    params: id(IDS.budget),
    body: lineItem({ linkedItemId: IDS.goal, linkedItemType: 'goal' }),
  }),
  invalid('line item with linkedItemId alone', {
    operationId: 'createBudgetLineItem',
    params: id(IDS.budget),
    body: lineItem({ linkedItemId: IDS.goal }),
  }),
  invalid('line item with linkedItemType alone', {
    operationId: 'createBudgetLineItem',
    params: id(IDS.budget),
    body: lineItem({ linkedItemType: 'device' }),
  }),
  // 4. A tenant rule (the default) names no company, a company rule at least one.
  valid('company rule with a company', {
    operationId: 'createAutomationRule',
    body: rule({ scopeType: 'company', companyIds: [IDS.company] }),
  }),
  valid('tenant rule by default', { operationId: 'createAutomationRule', body: rule({ companyIds: [] }) }),
  invalid('company rule without companyIds', {
    operationId: 'createAutomationRule',
    body: rule({ scopeType: 'company' }),
  }),
  invalid('company rule with companyIds []', {
    operationId: 'createAutomationRule',
    body: rule({ scopeType: 'company', companyIds: [] }),
  }),
  invalid('tenant rule with a company', {
    operationId: 'createAutomationRule',
    body: rule({ scopeType: 'tenant', companyIds: [IDS.company] }),
  }),
  invalid('default-scoped rule with a company', {
    operationId: 'createAutomationRule',
    body: rule({ companyIds: [IDS.company] }),
  }),
  valid('PATCH to a company rule', {
    ...patch('updateAutomationRule', IDS.rule, { scopeType: 'company', companyIds: [IDS.company] }),
  }),
  invalid('PATCH to a tenant rule with a company', {
    ...patch('updateAutomationRule', IDS.rule, { scopeType: 'tenant', companyIds: [IDS.company] }),
  }),
  invalid('PATCH to a company rule without companies', {
    ...patch('updateAutomationRule', IDS.rule, { scopeType: 'company', companyIds: [] }),
  }),
  // 5. Report dates are dates or date-times; so are the lists' dateFrom and dateTo.
  valid(
    'report dates',
    patch('updateReport', IDS.report, { dateStart: '2026-01-15', dateEnd: '2026-02-01T10:00:00Z' }),
  ),
  valid('report date with an offset', patch('updateReport', IDS.report, { dateEnd: '2026-02-01T10:00:00.5+02:00' })),
  invalid('report date in words', patch('updateReport', IDS.report, { dateStart: 'tomorrow' })),
  invalid('report date that is no day', patch('updateReport', IDS.report, { dateStart: '2025-02-30' })),
  invalid('report date-time without a zone', patch('updateReport', IDS.report, { dateStart: '2026-01-15T10:00:00' })),
  valid('dateFrom as a date', { operationId: 'listTickets', query: 'dateFrom=2025-01-01&dateTo=2025-12-31T00:00:00Z' }),
  invalid('dateFrom in words', { operationId: 'listTickets', query: 'dateFrom=yesterday' }),
  invalid('dateFrom with an hours-only offset', {
    operationId: 'listTickets',
    query: 'dateFrom=2026-11-11T09:17:48%2B03',
  }),
  invalid(
    'report date-time with a space before its offset',
    patch('updateReport', IDS.report, { dateStart: '2026-11-11T09:17:48 +03:00' }),
  ),
  // 6. Idempotency-Key is 1..255 printable ASCII characters.
  valid('Idempotency-Key printable', {
    ...sampleRequest('createBudgetLineItem'),
    headers: { 'idempotency-key': 'retry-42:~!' },
  }),
  invalid('Idempotency-Key with a space', {
    ...sampleRequest('createBudgetLineItem'),
    headers: { 'idempotency-key': 'retry 42' },
  }),
  invalid('Idempotency-Key not ASCII', {
    ...sampleRequest('createBudgetLineItem'),
    headers: { 'idempotency-key': 'café' },
  }),
  invalid('Idempotency-Key too long', {
    ...sampleRequest('createBudgetLineItem'),
    headers: { 'idempotency-key': 'k'.repeat(256) },
  }),
  // 7. `types` names known event types, comma-separated.
  valid('types known', { operationId: 'listEvents', query: 'types=ticket.created,budget.updated,ticket.created' }),
  invalid('types unknown', { operationId: 'listEvents', query: 'types=ticket.created,ticket.exploded' }),
  invalid('types empty', { operationId: 'listEvents', query: 'types=' }),
  invalid('types over 20', { operationId: 'listEvents', query: `types=${Array(21).fill('ticket.created').join(',')}` }),
  // 8. `after` is an event id, from evt_000000000001.
  valid('after the first event', { operationId: 'listEvents', query: 'after=evt_000000000001' }),
  invalid('after evt_000000000000', { operationId: 'listEvents', query: 'after=evt_000000000000' }),
  invalid('after a short id', { operationId: 'listEvents', query: 'after=evt_42' }),
  // 9. No NUL or unpaired surrogate in a string, no prototype key in an object.
  invalid('NUL in a body string', patch('updateBudget', IDS.budget, { title: 'FY\u000025' })),
  invalid('unpaired surrogate in a body string', patch('updateReport', IDS.report, { description: 'a\ud800b' })),
  valid('paired surrogates in a body string', patch('updateReport', IDS.report, { description: 'on fire 🔥' })),
  invalid('NUL in a query value', { operationId: 'listUsers', query: 'search=a%00b' }),
  invalid('NUL in a free-form object', patch('updateReport', IDS.report, { content: { blocks: ['a\u0000'] } })),
  invalid('__proto__ in triggerConfig', {
    operationId: 'createAutomationRule',
    body: rule({ triggerConfig: JSON.parse('{"__proto__":{"admin":true}}') }),
  }),
  invalid('constructor in report content', patch('updateReport', IDS.report, { content: { a: { constructor: 1 } } })),
  invalid('prototype in a condition value', {
    operationId: 'createAutomationRule',
    body: rule({
      conditions: [{ logic: 'AND', conditions: [{ field: 'f', operator: 'eq', value: { prototype: 1 } }] }],
    }),
  }),
  valid('free-form objects of any other shape', {
    operationId: 'createAutomationRule',
    body: rule({
      triggerConfig: { days: 3, nested: { list: [1, 'two', null, { proto: true }] } },
      conditions: [{ logic: 'OR', conditions: [{ field: 'f', operator: 'in', value: ['a', { b: 2 }] }] }],
    }),
  }),
]

const RECORDED: Recorded[] = [
  ...operations.map((operation) => valid(`${operation.id}: the sample`, sampleRequest(operation.id))),
  ...PER_OPERATION,
  ...FINDINGS,
]

/** Whether the API accepts the request, on a freshly seeded tenant; a 404 refuses a malformed path parameter. */
async function apiVerdict(request: RecordedRequest): Promise<{ accepted: boolean; status: number; body: unknown }> {
  const { h } = await setup()
  const [method, path] = requestLine(request, BASE)
  const result = await h.call<{ code?: string }>(method, path, { body: request.body, headers: request.headers })
  if (result.status >= 200 && result.status < 300) return { accepted: true, status: result.status, body: result.body }
  const refusal = (result.status === 400 && result.body.code === 'VALIDATION_ERROR') || result.status === 404
  if (!refusal) throw new Error(`${method} ${path}: neither accepted nor refused: ${JSON.stringify(result.body)}`)
  return { accepted: false, status: result.status, body: result.body }
}

describe('the document and the API agree on every recorded request', () => {
  it('records a valid and an invalid request of every operation', () => {
    for (const operation of operations) {
      const mine = RECORDED.filter((recorded) => recorded.request.operationId === operation.id)
      expect(
        mine.map((recorded) => recorded.valid),
        operation.id,
      ).toEqual(expect.arrayContaining([true, false]))
    }
  })

  it.each(RECORDED.map((recorded) => [recorded.name, recorded] as const))('%s', async (_name, recorded) => {
    const problems = documentProblems(recorded.request)
    const api = await apiVerdict(recorded.request)
    const verdicts = { document: problems.length === 0, api: api.accepted }
    const why = `document: ${JSON.stringify(problems)}; API ${api.status}: ${JSON.stringify(api.body).slice(0, 300)}`
    expect(verdicts, why).toEqual({ document: recorded.valid, api: recorded.valid })
    // The API answers a malformed path parameter 404, as an unknown id: only then may it refuse so.
    if (api.status === 404) expect(problems.map((problem) => problem.in)).toEqual(['path'])
  })
})

type Json = Record<string, unknown>
const document = createOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, Json> }>>
}
const docOperations = Object.values(document.paths).flatMap((methods) => Object.values(methods))

it('refuses evt_000000000000 with a message that fits the pattern', async () => {
  const { h } = await setup()
  const result = await h.call<{ details: Array<{ path: string; message: string }> }>(
    'GET',
    '/events?after=evt_000000000000',
  )
  expect(result.body.details).toEqual([
    { in: 'query', path: 'after', message: 'Must be an event id: evt_ and 12 digits, from evt_000000000001' },
  ])
})

it('refuses a PATCH whose scopeType and companyIds disagree before looking the rule up', async () => {
  const { h } = await setup()
  const result = await h.call<{ code: string; details: unknown }>('PATCH', `/automation/${IDS.company}`, {
    body: { scopeType: 'tenant', companyIds: [IDS.company] },
  })
  expect(result.status).toBe(400)
  expect(result.body.details).toEqual([
    { in: 'body', path: 'companyIds', message: 'A tenant-scoped rule takes no company ids' },
  ])
})

describe('the Link header', () => {
  it('is declared by every list, and only by lists', () => {
    for (const spec of docOperations) {
      const success = Object.entries(spec.responses).find(([status]) => status.startsWith('2'))![1]
      const isPageList = JSON.stringify(success.content ?? {}).includes('"#/components/schemas/Pagination"')
      expect(Object.keys(success.headers as Json).includes('Link'), spec.operationId).toBe(isPageList)
    }
  })

  it('GET /webhook-endpoints sends the Link its document declares', async () => {
    const { store, h } = await setup()
    await store.replaceVersioned(webhookEndpoints, 'tenant-a', { ...webhookEndpointRecord(), id: IDS.company }, null)
    // The harness checks every answer against the document: an undeclared Link fails the call.
    const first = await h.call<{ pagination: { nextCursor: string } }>('GET', '/webhook-endpoints?limit=1')
    expect(first.status).toBe(200)
    expect(first.headers.get('link')).toMatch(/^<\/api\/public\/v1\/webhook-endpoints\?limit=1&cursor=/)
  })
})

interface Link {
  operationId: string
  parameters: Record<string, string>
}

/** The value of a link's runtime expression, from the create's request and answer. */
function evaluate(expression: string, request: RecordedRequest, answer: unknown): string {
  if (expression.startsWith('$request.path.')) return request.params![expression.slice('$request.path.'.length)]!
  const pointer = /^\$response\.body#(\/.*)$/.exec(expression)?.[1]
  if (pointer === undefined) throw new Error(`unsupported expression ${expression}`)
  const value = pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((at, key) => (at as Json)[key], answer)
  return String(value)
}

describe('OpenAPI links', () => {
  const creates = docOperations.filter((spec) => spec.responses['201'] !== undefined)
  const linksOf = (operationId: string) =>
    (creates.find((spec) => spec.operationId === operationId)?.responses['201']?.links ?? {}) as Record<string, Link>

  it('go from every create to what can be done with what it made', () => {
    expect(creates.length).toBeGreaterThan(0)
    for (const spec of creates) expect(Object.keys(linksOf(spec.operationId)), spec.operationId).not.toEqual([])
    expect(Object.keys(linksOf('createWebhookEndpoint')).sort()).toEqual(
      [
        'getWebhookEndpoint',
        'updateWebhookEndpoint',
        'deleteWebhookEndpoint',
        'rotateWebhookEndpointSecret',
        'listWebhookDeliveries',
      ].sort(),
    )
    expect(Object.keys(linksOf('createAutomationRule'))).toEqual(['updateAutomationRule'])
    expect(Object.keys(linksOf('createBudgetLineItem'))).toEqual(['updateBudget'])
  })

  const followed = creates.flatMap((spec) =>
    Object.values(linksOf(spec.operationId)).map(
      (link) => [`${spec.operationId} → ${link.operationId}`, spec, link] as const,
    ),
  )
  it.each(followed)('%s: a client that follows the link reaches a 2xx', async (_name, spec, link) => {
    const { h } = await setup()
    const create = sampleRequest(spec.operationId)
    const [createMethod, createPath] = requestLine(create, BASE)
    const created = await h.call(createMethod, createPath, { body: create.body })
    expect(created.status).toBe(201)
    const params = Object.fromEntries(
      Object.entries(link.parameters).map(([name, expression]) => [name, evaluate(expression, create, created.body)]),
    )
    const next: RecordedRequest = { operationId: link.operationId, params, body: sampleRequest(link.operationId).body }
    expect(documentProblems(next)).toEqual([])
    const [method, path] = requestLine(next, BASE)
    const answer = await h.call<{ data?: { id?: string } }>(method, path, { body: next.body })
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300)
    if (link.parameters.id === '$response.body#/data/id' && !Array.isArray(answer.body.data) && answer.body.data)
      expect(answer.body.data.id).toBe(params.id)
  })
})
