import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { TicketListQuerySchema } from '../../src/model/tickets.js'
import {
  checkInput,
  checkQuery,
  clipText,
  isUnsafeText,
  SAFE_TEXT_PATTERNS,
  validationIssues,
} from '../../src/http/validation.js'
import { errorBody, IDS, raw, setup, snapshot } from './fixture.js'
import type { Reply, ValidationErrorReply } from 'tenant-public-api/testing'

const RULE = `/automation/${IDS.rule}`
const BUDGET = `/budgets/${IDS.budget}`
const newRule = {
  name: 'R',
  triggerType: 'scheduled',
  triggerConfig: {},
  entityType: 'ticket',
  conditions: [],
  actions: [],
}
const json = { 'content-type': 'application/json' }

/** `n` arrays nested in one another, built iteratively as text (a recursive builder would overflow first). */
const nestedArrays = (n: number) => '['.repeat(n) + ']'.repeat(n)
const nestedObjects = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`

describe('VALIDATION_ERROR details', () => {
  it('is an array of { in, path, message } and nothing else', async () => {
    const { h } = await setup()
    const result = await h.call<ValidationErrorReply>('GET', '/tickets?page=0&limit=500&sortColumn=nope')
    expect(result.status).toBe(400)
    expect(result.body.code).toBe('VALIDATION_ERROR')
    expect(result.body.details).toEqual(
      expect.arrayContaining([
        { in: 'query', path: 'page', message: expect.any(String) },
        { in: 'query', path: 'limit', message: expect.any(String) },
        { in: 'query', path: 'sortColumn', message: expect.any(String) },
      ]),
    )
    for (const detail of result.body.details) expect(Object.keys(detail).sort()).toEqual(['in', 'message', 'path'])
  })

  it('reports query and body problems together', async () => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    const result = await h.call<ValidationErrorReply>('PATCH', `${RULE}?bogus=1`, {
      body: { priority: 500, extra: true },
    })
    expect(result.status).toBe(400)
    expect(result.body.details).toEqual(
      expect.arrayContaining([
        { in: 'query', path: 'bogus', message: 'Unknown query parameter' },
        { in: 'body', path: 'priority', message: expect.any(String) },
        { in: 'body', path: 'extra', message: 'Unknown field' },
      ]),
    )
    expect(await snapshot(store)).toEqual(before)
  })

  it('reports a bad If-Match and Idempotency-Key with the query and body problems, changing nothing', async () => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    const tooLong = 'W/"1", '.repeat(200)
    const rule = await h.call<ValidationErrorReply>('PATCH', `${RULE}?bogus=1`, {
      body: { priority: 500 },
      headers: { 'if-match': tooLong },
    })
    expect(rule.status).toBe(400)
    expect(rule.body.details).toEqual([
      { in: 'query', path: 'bogus', message: 'Unknown query parameter' },
      { in: 'body', path: 'priority', message: expect.any(String) },
      { in: 'header', path: 'If-Match', message: expect.stringContaining('printable ASCII') },
    ])
    // Latin-1 reaches a host through HTTP (obs-text): outside the pattern, a 400 rather than a 412.
    const latin1 = await h.call<ValidationErrorReply>('PATCH', RULE, {
      body: { priority: 5 },
      headers: { 'if-match': '"1"\u00e9' },
    })
    expect([latin1.status, latin1.body.details]).toEqual([400, [expect.objectContaining({ path: 'If-Match' })]])
    const item = await h.call<ValidationErrorReply>('POST', `${BUDGET}/items`, {
      body: { bogus: 1 },
      headers: { 'idempotency-key': 'with space' },
    })
    expect(item.body.details).toEqual(
      expect.arrayContaining([
        { in: 'body', path: 'bogus', message: 'Unknown field' },
        { in: 'header', path: 'Idempotency-Key', message: 'Must be 1..255 printable ASCII characters' },
      ]),
    )
    expect(await snapshot(store)).toEqual(before)
    // Within the pattern, If-Match is read as before: a version that is not the current one is a 412.
    const moved = await h.call('PATCH', RULE, { body: { priority: 5 }, headers: { 'if-match': '"abc", W/"99"' } })
    expect(moved.status).toBe(412)
  })

  it('names nested fields like conditions[0].conditions[1].field', async () => {
    const { h } = await setup()
    const conditions = [
      {
        logic: 'AND',
        conditions: [
          { field: 'status', operator: 'eq', value: 'x' },
          { field: '', operator: 'eq' },
        ],
      },
    ]
    const result = await h.call<ValidationErrorReply>('POST', '/automation', {
      body: { ...newRule, conditions, actions: [{ actionType: 'notify', bogus: 1 }] },
    })
    expect(result.status).toBe(400)
    expect(result.body.details).toEqual(
      expect.arrayContaining([
        { in: 'body', path: 'conditions[0].conditions[1].field', message: expect.any(String) },
        { in: 'body', path: 'actions[0].bogus', message: 'Unknown field' },
      ]),
    )
  })

  it('refuses unknown body fields on every write (no mass assignment)', async () => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    const cases: Array<[string, string, object]> = [
      ['PATCH', BUDGET, { title: 'x', id: '00000000-0000-4000-8000-00000000beef' }],
      ['PATCH', BUDGET, { title: 'x', totals: { grandTotal: 0 } }],
      ['PATCH', RULE, { name: 'x', version: 99 }],
      ['PATCH', RULE, { name: 'x', createdBy: { id: 'evil', name: 'Evil' } }],
      ['PATCH', `/reports/${IDS.report}`, { title: 'x', authorUserId: IDS.user }],
      ['POST', `${BUDGET}/items`, { type: 'Other', description: 'x', unitPrice: 1, annualisedCost: 0 }],
      ['POST', '/automation', { ...newRule, tenantId: 'tenant-b' }],
    ]
    for (const [method, path, body] of cases) {
      const result = await h.call<ValidationErrorReply>(method, path, { body })
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body.details.some((d: { message: string }) => d.message === 'Unknown field')).toBe(true)
    }
    expect(await snapshot(store)).toEqual(before)
  })

  it('refuses unknown and repeated query parameters', async () => {
    const { h } = await setup()
    for (const [query, path] of [
      ['page=1&page=2', 'page'],
      ['limit=5&limit=5', 'limit'],
      ['unknown=1', 'unknown'],
      ['Page=1', 'Page'],
      ['includeNotes', 'includeNotes'],
    ]) {
      const result = await h.call<ValidationErrorReply>('GET', `/tickets?${query}`)
      expect(result.status, query).toBe(400)
      expect(result.body.details).toEqual([{ in: 'query', path, message: expect.any(String) }])
    }
    expect((await h.call<ValidationErrorReply>('GET', `/goals/${IDS.goal}?x=1`)).status).toBe(400)
  })

  it.each([
    ['page=0'],
    ['page=-1'],
    ['page=+1'],
    ['page=1.5'],
    ['page=1e2'],
    ['page=0x10'],
    ['page='],
    ['page=%201'],
    ['page=99999999999999999999'],
    ['limit=0'],
    ['limit=101'],
    ['sortDesc=TRUE'],
    ['sortDesc=1'],
    ['isClosed=yes'],
    ['provider=psa_e'],
    ['companyId=not-a-uuid'],
    ['dateFrom=yesterday'],
    ['dateFrom=2025-02-30'],
    [`search=${'x'.repeat(256)}`],
  ])('a query value out of its constraints (%s) is 400', async (query) => {
    const { h } = await setup()
    const result = await h.call<ValidationErrorReply>('GET', `/tickets?${query}`)
    expect(result.status).toBe(400)
    expect(result.body.details[0]?.in).toBe('query')
  })
})

describe('hostile values', () => {
  it('a body nested deeper than 64 levels is 400, not a stack overflow: 100k nested arrays and objects', async () => {
    const { h, errors } = await setup()
    for (const nested of [nestedArrays(100_000), nestedObjects(100_000)]) {
      for (const [method, path] of [
        ['PATCH', RULE],
        ['POST', '/automation'],
        ['PATCH', `/reports/${IDS.report}`],
      ]) {
        const field = path!.startsWith('/reports') ? 'content' : 'triggerConfig'
        const result = await h.call<ValidationErrorReply>(method!, path!, {
          rawBody: `{"${field}":{"a":${nested}}}`,
          headers: json,
        })
        expect(result.status).toBe(400)
        expect(result.body.code).toBe('VALIDATION_ERROR')
        expect(result.body.details[0]?.message).toMatch(/64/)
      }
    }
    expect(errors).toEqual([])
  })

  it('64 levels of nesting (the body object included) pass; 65 do not', async () => {
    const { h } = await setup()
    // body (1) → triggerConfig (2) → a: k arrays → 2 + k levels.
    const ok = await h.call('PATCH', RULE, { rawBody: `{"triggerConfig":{"a":${nestedArrays(62)}}}`, headers: json })
    expect(ok.status).toBe(200)
    const tooDeep = await h.call('PATCH', RULE, {
      rawBody: `{"triggerConfig":{"a":${nestedArrays(63)}}}`,
      headers: json,
    })
    expect(tooDeep.status).toBe(400)
  })

  it('__proto__ and constructor.prototype keys are 400 and pollute nothing', async () => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    for (const [method, path, rawBody] of [
      ['PATCH', BUDGET, '{"__proto__":{"polluted":true},"title":"x"}'],
      ['PATCH', RULE, '{"triggerConfig":{"__proto__":{"polluted":true}}}'],
      ['PATCH', RULE, '{"triggerConfig":{"constructor":{"prototype":{"polluted":true}}}}'],
      ['PATCH', `/reports/${IDS.report}`, '{"content":{"a":[{"__proto__":{"polluted":true}}]}}'],
      [
        'POST',
        '/automation',
        '{"name":"R","triggerType":"scheduled","triggerConfig":{},"entityType":"ticket","conditions":[],' +
          '"actions":[{"actionType":"x","config":{"constructor":{"prototype":{"polluted":true}}}}]}',
      ],
    ] as const) {
      const result = await h.call<ValidationErrorReply>(method, path, { rawBody, headers: json })
      expect(result.status, rawBody).toBe(400)
      expect(result.body.code).toBe('VALIDATION_ERROR')
    }
    const query = await h.call<ValidationErrorReply>(
      'GET',
      '/tickets?__proto__[polluted]=1&constructor[prototype][polluted]=1',
    )
    expect(query.status).toBe(400)
    const protoQuery = await h.call<ValidationErrorReply>('GET', '/tickets?__proto__=1')
    expect(protoQuery.status).toBe(400)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    expect(await snapshot(store)).toEqual(before)
  })

  it('constructor and prototype keys are refused anywhere, rather than silently dropped', async () => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    for (const rawBody of [
      '{"triggerConfig":{"constructor":"x"}}',
      '{"triggerConfig":{"prototype":1}}',
      '{"triggerConfig":{"a":[{"constructor":{}}]}}',
    ]) {
      const result = await h.call<ValidationErrorReply>('PATCH', RULE, { rawBody, headers: json })
      expect(result.status, rawBody).toBe(400)
      expect(result.body.details[0]?.message).toBe('This key is not allowed')
    }
    expect((await h.call<ValidationErrorReply>('GET', '/tickets?constructor=x')).status).toBe(400)
    expect(await snapshot(store)).toEqual(before)
  })

  it.each([
    ['a NUL character', '{"title":"a\\u0000b"}'],
    ['a lone high surrogate', '{"title":"a\\ud800b"}'],
    ['a lone low surrogate', '{"title":"\\udc00"}'],
    ['a reversed surrogate pair', '{"title":"\\udc00\\ud800"}'],
    ['a NUL in a key', '{"title":"ok","notes":"x","a\\u0000":1}'],
  ])('%s in a string is 400', async (_label, rawBody) => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    const result = await h.call<ValidationErrorReply>('PATCH', BUDGET, { rawBody, headers: json })
    expect(result.status).toBe(400)
    expect(result.body.code).toBe('VALIDATION_ERROR')
    expect(await snapshot(store)).toEqual(before)
  })

  it('NUL and lone surrogates in free-form JSON and in the query are 400', async () => {
    const { h } = await setup()
    expect(
      (await h.call('PATCH', RULE, { rawBody: '{"triggerConfig":{"k":["\\ud83d"]}}', headers: json })).status,
    ).toBe(400)
    expect((await h.call<ValidationErrorReply>('GET', '/tickets?search=a%00b')).status).toBe(400)
    // A well-formed pair (an emoji) is fine.
    expect((await h.call('PATCH', BUDGET, { rawBody: '{"title":"\\ud83d\\ude00"}', headers: json })).status).toBe(200)
  })

  it('1e309 (Infinity once parsed) is 400 where a number is expected and in free-form JSON', async () => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    for (const [path, rawBody] of [
      [RULE, '{"priority":1e309}'],
      [RULE, '{"priority":-1e309}'],
      [RULE, '{"triggerConfig":{"threshold":1e309}}'],
      [`/reports/${IDS.report}`, '{"content":{"n":[1,-1e400]}}'],
      [BUDGET, '{"fiscalYear":1e309}'],
    ] as const) {
      const result = await h.call<ValidationErrorReply>('PATCH', path, { rawBody, headers: json })
      expect(result.status, rawBody).toBe(400)
    }
    expect(await snapshot(store)).toEqual(before)
  })

  it('-0 is accepted as zero', async () => {
    const { h } = await setup()
    const result = await h.call<Reply<'updateAutomationRule'>>('PATCH', RULE, {
      rawBody: '{"priority":-0}',
      headers: json,
    })
    expect(result.status).toBe(200)
    expect(result.body.data.priority).toBe(0)
    const item = await h.call<Reply<'createBudgetLineItem'>>('POST', `${BUDGET}/items`, {
      rawBody: '{"type":"Other","description":"x","unitPrice":-0,"quantity":-0}',
      headers: json,
    })
    expect(item.status).toBe(201)
    expect(item.body.data.annualisedCost).toBe(0)
  })

  it('huge and imprecise numbers are 400 where they are out of range', async () => {
    const { h } = await setup()
    for (const [path, body] of [
      [RULE, { priority: 1e300 }],
      [RULE, { priority: 2 ** 53 + 2 }],
      [RULE, { priority: 50.5 }],
      [BUDGET, { fiscalYear: 1e21 }],
      [BUDGET, { fiscalYear: -2025 }],
      [`${BUDGET}/items`, { type: 'Other', description: 'x', unitPrice: 1e308 }],
      [`${BUDGET}/items`, { type: 'Other', description: 'x', unitPrice: 1, quantity: 1e308 }],
      [`${BUDGET}/items`, { type: 'Other', description: 'x', unitPrice: 1, termMonths: 12.5 }],
    ] as const) {
      const result = await h.call<ValidationErrorReply>(path.endsWith('items') ? 'POST' : 'PATCH', path, { body })
      expect(result.status, JSON.stringify(body)).toBe(400)
    }
  })

  it('strings where numbers or booleans are expected, and the reverse, are 400', async () => {
    const { h } = await setup()
    for (const [path, body] of [
      [RULE, { priority: '5' }],
      [RULE, { isActive: 'true' }],
      [RULE, { priority: 'NaN' }],
      [RULE, { priority: 'Infinity' }],
      [RULE, { priority: null }],
      [RULE, { priority: [] }],
      [RULE, { name: 5 }],
      [RULE, { name: ['x'] }],
      [BUDGET, { fiscalYear: '2025' }],
      [BUDGET, { title: { toString: 'x' } }],
      [BUDGET, { title: null }],
    ] as const) {
      const result = await h.call<ValidationErrorReply>('PATCH', path, { body })
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body.details[0]).toMatchObject({ in: 'body', path: Object.keys(body)[0] })
    }
  })

  it('dates that do not exist (Feb 30th, month 13) are 400 in the query and the body', async () => {
    const { h } = await setup()
    for (const query of ['dateFrom=2025-02-30', 'dateTo=2025-02-29T00:00:00Z', 'dateFrom=2025-13-01']) {
      expect((await h.call<ValidationErrorReply>('GET', `/tickets?${query}`)).status, query).toBe(400)
    }
    expect((await h.call<ValidationErrorReply>('GET', '/tickets?dateFrom=2024-02-29')).status).toBe(200)
    for (const dateStart of ['2025-02-30', '2025-04-31T10:00:00Z']) {
      expect(
        (await h.call<ValidationErrorReply>('PATCH', `/reports/${IDS.report}`, { body: { dateStart } })).status,
        dateStart,
      ).toBe(400)
    }
    expect(
      (await h.call<ValidationErrorReply>('PATCH', `/reports/${IDS.report}`, { body: { dateStart: '2024-02-29' } }))
        .status,
    ).toBe(200)
  })

  it.each([
    'search=%FF',
    'search=%E0%A4%A',
    'search=%E0%A4',
    'search=%',
    'search=%zz',
    'search=%ED%A0%80',
    '%FF=1',
    'sea%E0rch=1',
  ])('invalid percent-encoding or UTF-8 in the query (%s) is 400, never 500', async (query) => {
    const { h, errors } = await setup()
    const result = await h.call<ValidationErrorReply>('GET', `/tickets?${query}`)
    expect(result.status).toBe(400)
    expect(result.body.code).toBe('VALIDATION_ERROR')
    expect(result.body.details[0]?.in).toBe('query')
    expect(errors).toEqual([])
  })

  it('valid percent-encoding and + in the query decode as form data', async () => {
    const { h } = await setup()
    const result = await h.call<Reply<'listTickets'>>('GET', '/tickets?search=Printer+on%20fire')
    expect(result.status).toBe(200)
    expect(result.body.data).toHaveLength(1)
  })

  it.each([
    '/goals/%FF',
    '/tickets/%E0%A4%A',
    '/tickets/%',
    '/tickets/%ED%A0%80',
    '/goals/not-a-uuid',
    `/goals/${IDS.goal}x`,
    '/surveys/nps/%00',
  ])('invalid or malformed ids in the path (%s) are 404, never 500', async (path) => {
    const { h, errors } = await setup()
    const result = await h.call<ValidationErrorReply>('GET', path)
    expect(result.status).toBe(404)
    expect(result.body.code).toBe('NOT_FOUND')
    expect(errors).toEqual([])
  })

  it('a huge string is refused by its length bound, not stored', async () => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    const result = await h.call<ValidationErrorReply>('PATCH', BUDGET, { body: { title: 'x'.repeat(900_000) } })
    expect(result.status).toBe(400)
    expect(result.body.details).toEqual([{ in: 'body', path: 'title', message: expect.any(String) }])
    expect(await snapshot(store)).toEqual(before)
  })
})

describe('bounded validation', () => {
  /** POSTs `rawBody` to /automation and reads the answer's bytes as well as its JSON. */
  async function postRule(rawBody: string) {
    const { api, key } = await setup()
    const response = await api(
      raw('/automation', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: rawBody,
      }),
    )
    const bytes = (await response.clone().arrayBuffer()).byteLength
    return { status: response.status, bytes, body: await errorBody(response) }
  }
  const ruleWith = (field: string, list: string) => {
    const { [field]: _dropped, ...rest } = newRule as Record<string, unknown>
    return `${JSON.stringify(rest).slice(0, -1)},"${field}":${list}}`
  }
  const repeated = (item: string, n: number) => `[${new Array(n).fill(item).join(',')}]`

  it.each([
    ['conditions', repeated('0', 500_000), 'A rule may have at most 200 condition groups'],
    ['actions', repeated('0', 500_000), 'A rule may have at most 50 actions'],
    ['companyIds', repeated('""', 333_000), 'Invalid length: Expected <=1000 but received 333000'],
  ])('a 1 MB body whose %s is one long array of junk is one small 400 naming the cap', async (field, list, message) => {
    const rawBody = ruleWith(field, list)
    expect(rawBody.length).toBeGreaterThan(950_000)
    const result = await postRule(rawBody)
    expect(result.status).toBe(400)
    expect(result.bytes).toBeLessThanOrEqual(64 * 1024)
    expect(result.body.details).toEqual([{ in: 'body', path: field, message }])
  })

  it('caps are checked before elements: 51 junk actions are one problem, not 51', async () => {
    const { h } = await setup()
    const result = await h.call<ValidationErrorReply>('POST', '/automation', {
      body: { ...newRule, actions: new Array(51).fill(0) },
    })
    expect(result.status).toBe(400)
    expect(result.body.details).toEqual([
      { in: 'body', path: 'actions', message: 'A rule may have at most 50 actions' },
    ])
  })

  it('condition groups count against a cap of 200 in all, nested ones included', async () => {
    const { h } = await setup()
    const group = { logic: 'AND' }
    const ok = await h.call<ValidationErrorReply>('POST', '/automation', {
      body: { ...newRule, conditions: [{ logic: 'OR', groups: new Array(199).fill(group) }] },
    })
    expect(ok.status).toBe(201)
    for (const conditions of [new Array(201).fill(group), [{ logic: 'OR', groups: new Array(200).fill(group) }]]) {
      const result = await h.call<ValidationErrorReply>('POST', '/automation', { body: { ...newRule, conditions } })
      expect(result.status).toBe(400)
      expect(result.body.details).toEqual([
        { in: 'body', path: 'conditions', message: 'A rule may have at most 200 condition groups' },
      ])
    }
  })

  it('junk conditions spread over groups within the group cap count against the 200 conditions', async () => {
    const { h } = await setup()
    const conditions = new Array(150).fill({ logic: 'AND', conditions: new Array(1000).fill(0) })
    const result = await h.call<ValidationErrorReply>('POST', '/automation', { body: { ...newRule, conditions } })
    expect(result.status).toBe(400)
    expect(result.body.details).toEqual([
      { in: 'body', path: 'conditions', message: 'A rule may have at most 200 conditions' },
    ])
  })

  it('more than 100 problems: 100 are listed, then one entry says how many more', async () => {
    const { h } = await setup()
    const result = await h.call<ValidationErrorReply>('PATCH', RULE, { body: { companyIds: new Array(150).fill('x') } })
    expect(result.status).toBe(400)
    const details = result.body.details as Array<{ in: string; path: string; message: string }>
    expect(details).toHaveLength(101)
    expect(details[0]).toEqual({ in: 'body', path: 'companyIds[0]', message: 'Must be a UUID' })
    expect(details[99]).toEqual({ in: 'body', path: 'companyIds[99]', message: 'Must be a UUID' })
    expect(details[100]).toEqual({ in: 'body', path: '', message: 'and 50 more problems (at most 100 are listed)' })
  })

  it('more than 100 unknown query parameters are capped the same way', async () => {
    const { h } = await setup()
    const query = Array.from({ length: 250 }, (_, i) => `p${i}=1`).join('&')
    const result = await h.call<ValidationErrorReply>('GET', `/tickets?${query}`)
    expect(result.status).toBe(400)
    expect(result.body.details).toHaveLength(101)
    expect(result.body.details[0]).toEqual({ in: 'query', path: 'p0', message: 'Unknown query parameter' })
    expect(result.body.details[100]).toEqual({
      in: 'query',
      path: '',
      message: 'and 150 more problems (at most 100 are listed)',
    })
  })

  it('unknown query parameters that differ only past what a listing shows are each a problem', async () => {
    const { h } = await setup()
    const prefix = 'p'.repeat(300)
    const few = await h.call<ValidationErrorReply>('GET', `/tickets?${prefix}a=1&${prefix}b=1&${prefix}c=1`)
    expect(few.status).toBe(400)
    // Each path is clipped for display (the same text), but each name counts.
    expect(few.body.details).toHaveLength(3)
    for (const issue of few.body.details) {
      expect(issue).toEqual({ in: 'query', path: `${'p'.repeat(253)}…`, message: 'Unknown query parameter' })
    }
    const many = Array.from({ length: 150 }, (_, i) => `${prefix}${i}=1`).join('&')
    const capped = await h.call<ValidationErrorReply>('GET', `/tickets?${many}`)
    expect(capped.status).toBe(400)
    // Listed up to 100 (and the 30 KiB listing budget), the rest counted: 150 in all.
    const listed = capped.body.details.length - 1
    expect(listed).toBeGreaterThan(50)
    expect(listed).toBeLessThanOrEqual(100)
    expect(capped.body.details.at(-1)).toEqual({
      in: 'query',
      path: '',
      message: `and ${150 - listed} more problems (at most 100 are listed)`,
    })
  })

  it('query and body problems of one request are capped together at 100 (then the count of the rest)', async () => {
    const { h } = await setup()
    const query = Array.from({ length: 80 }, (_, i) => `q${i}=1`).join('&')
    const body = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`b${i}`, 1]))
    const result = await h.call<ValidationErrorReply>('POST', `/automation?${query}`, { body })
    expect(result.status).toBe(400)
    const details = result.body.details as Array<{ in: string; path: string; message: string }>
    expect(details).toHaveLength(101)
    expect(details.filter((d) => d.in === 'query' && d.path !== '')).toHaveLength(80)
    expect(details.at(-1)?.message).toMatch(/^and \d+ more problems \(at most 100 are listed\)$/)
  })

  it('every unknown query parameter is reported, not just the first', async () => {
    const { h } = await setup()
    const result = await h.call<ValidationErrorReply>('GET', '/tickets?bogus=1&limit=5&other=2')
    expect(result.status).toBe(400)
    expect(result.body.details).toEqual([
      { in: 'query', path: 'bogus', message: 'Unknown query parameter' },
      { in: 'query', path: 'other', message: 'Unknown query parameter' },
    ])
  })

  it('every unknown body field is reported, at any depth, with the other problems', async () => {
    const { h } = await setup()
    const result = await h.call<ValidationErrorReply>('POST', '/automation', {
      body: { ...newRule, name: '', extra: 1, more: 2, actions: [{ actionType: 'notify', a: 1, b: 2 }] },
    })
    expect(result.status).toBe(400)
    expect(result.body.details).toEqual(
      expect.arrayContaining([
        { in: 'body', path: 'name', message: expect.any(String) },
        { in: 'body', path: 'extra', message: 'Unknown field' },
        { in: 'body', path: 'more', message: 'Unknown field' },
        { in: 'body', path: 'actions[0].a', message: 'Unknown field' },
        { in: 'body', path: 'actions[0].b', message: 'Unknown field' },
      ]),
    )
    expect(result.body.details).toHaveLength(5)
  })

  it('a key named like an Object method is an unknown field, not silently dropped', async () => {
    const { h } = await setup()
    const result = await h.call<ValidationErrorReply>('PATCH', BUDGET, { body: { title: 'x', toString: 1 } })
    expect(result.status).toBe(400)
    expect(result.body.details).toEqual([{ in: 'body', path: 'toString', message: 'Unknown field' }])
  })

  it('echoed keys and values are cut to 256 bytes of JSON', async () => {
    const { h } = await setup()
    const longKey = '\u0001'.repeat(10_000)
    const body = await h.call<ValidationErrorReply>('PATCH', RULE, {
      body: { [longKey]: 1, scopeType: 'x'.repeat(100_000) },
    })
    expect(body.status).toBe(400)
    for (const detail of body.body.details) {
      expect(JSON.stringify(detail.path).length).toBeLessThanOrEqual(258)
      expect(Buffer.byteLength(JSON.stringify(detail.message))).toBeLessThanOrEqual(258)
    }
    expect(body.body.details.map((d: { path: string }) => d.path)).toContain('scopeType')
    expect(body.body.details.find((d: { path: string }) => d.path.startsWith('\u0001'))?.path).toMatch(/…$/)
    const query = await h.call<ValidationErrorReply>(
      'GET',
      `/tickets?${'a'.repeat(20_000)}=1&search=${'b'.repeat(20_000)}`,
    )
    expect(query.status).toBe(400)
    expect(query.body.details).toHaveLength(2)
    for (const detail of query.body.details) expect(detail.path.length + detail.message.length).toBeLessThanOrEqual(512)
  })

  it('a refused key deep in free-form JSON is echoed clipped', async () => {
    const { h } = await setup()
    const key = 'k'.repeat(50_000)
    const result = await h.call<ValidationErrorReply>('PATCH', RULE, {
      rawBody: `{"triggerConfig":{"${key}":{"a":"\\u0000"}}}`,
      headers: json,
    })
    expect(result.status).toBe(400)
    expect(result.body.details).toHaveLength(1)
    expect(result.body.details[0]?.path).toMatch(/^triggerConfig\.k+…$/)
    expect(result.body.details[0]?.path.length).toBeLessThanOrEqual(256)
  })
})

describe('validation helpers', () => {
  it('SAFE_TEXT_PATTERNS, read as JSON Schema reads them (u flag), together accept what isUnsafeText does not', () => {
    const patterns = SAFE_TEXT_PATTERNS.map((pattern) => new RegExp(pattern, 'u'))
    const safe = { test: (text: string) => patterns.every((pattern) => pattern.test(text)) }
    // The NUL rule alone has no surrogate range, which RE2- and Rust-based validators cannot compile.
    expect(SAFE_TEXT_PATTERNS[0]).not.toMatch(/\\uD8/i)
    const samples = [
      '',
      'plain',
      'é ü 中文',
      'fire 🔥',
      'a\u0000b',
      '\u0000',
      'a\ud800',
      '\udfffz',
      '\ud83d\ud83d\ude00',
    ]
    for (const text of samples) expect(safe.test(text), JSON.stringify(text)).toBe(!isUnsafeText(text))
  })

  const unknownKeys = (prefix: string, n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, '1']))

  it('validationIssues lists the problems of query and body together, capped once', () => {
    const query = checkInput(v.strictObject({}), unknownKeys('q', 80), 'query')
    const body = checkInput(v.strictObject({}), unknownKeys('b', 80), 'body')
    const issues = validationIssues(query, body)
    expect(issues).toHaveLength(101)
    expect(issues[79]).toEqual({ in: 'query', path: 'q79', message: 'Unknown query parameter' })
    expect(issues[80]).toEqual({ in: 'body', path: 'b0', message: 'Unknown field' })
    expect(issues[100]).toEqual({ in: 'body', path: '', message: 'and 60 more problems (at most 100 are listed)' })
  })

  it('validationIssues counts what each part had already left unlisted', () => {
    const query = checkInput(v.strictObject({}), unknownKeys('q', 150), 'query')
    const body = checkInput(v.strictObject({}), unknownKeys('b', 10), 'body')
    const issues = validationIssues(query, body, { ok: true, value: {} })
    expect(issues).toHaveLength(101)
    expect(issues.every((issue, i) => i === 100 || issue.in === 'query')).toBe(true)
    expect(issues[100]).toEqual({ in: 'body', path: '', message: 'and 60 more problems (at most 100 are listed)' })
    expect(validationIssues({ ok: true, value: 1 })).toEqual([])
  })

  it('checkQuery reports malformed, repeated, NUL, unknown and out-of-range parameters together', () => {
    const url = new URL('http://x/?%FF=1&page=1&page=2&search=a%00b&bogus=1&limit=500&constructor=1')
    const checked = checkQuery(url, TicketListQuerySchema)
    expect(checked.ok).toBe(false)
    expect(checked.ok ? [] : checked.issues).toEqual([
      { in: 'query', path: '%FF', message: 'The parameter name is not valid percent-encoded UTF-8' },
      { in: 'query', path: 'page', message: 'A query parameter may be given only once' },
      { in: 'query', path: 'search', message: 'Strings must be well-formed Unicode without NUL characters' },
      { in: 'query', path: 'constructor', message: 'This key is not allowed' },
      { in: 'query', path: 'bogus', message: 'Unknown query parameter' },
      { in: 'query', path: 'limit', message: 'Must be at most 100' },
    ])
    const fine = checkQuery(new URL('http://x/?limit=5'), TicketListQuerySchema)
    expect(fine.ok && (fine.value as { limit: number }).limit).toBe(5)
  })

  it('clipText cuts to 256 bytes of JSON, never inside a surrogate pair', () => {
    expect(clipText('short')).toBe('short')
    for (const unit of ['x', '\u0001', '"', 'é', '€', '😀', '\ud800']) {
      const clipped = clipText(unit.repeat(1000))
      expect(clipped.endsWith('…')).toBe(true)
      expect(Buffer.byteLength(JSON.stringify(clipped)) - 2).toBeLessThanOrEqual(256)
      expect(clipped.slice(0, -1).isWellFormed() || unit === '\ud800').toBe(true)
    }
    const exact = 'x'.repeat(256)
    expect(clipText(exact)).toBe(exact)
  })
})
