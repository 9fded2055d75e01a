import { describe, expect, it } from 'vitest'
import { IDS, setup, snapshot } from './fixture.js'

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
    const result = await h.call('GET', '/tickets?page=0&limit=500&sortColumn=nope')
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
    const result = await h.call('PATCH', `${RULE}?bogus=1`, { body: { priority: 500, extra: true } })
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
    const result = await h.call('POST', '/automation', {
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
      const result = await h.call(method, path, { body })
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
      const result = await h.call('GET', `/tickets?${query}`)
      expect(result.status, query).toBe(400)
      expect(result.body.details).toEqual([{ in: 'query', path, message: expect.any(String) }])
    }
    expect((await h.call('GET', `/goals/${IDS.goal}?x=1`)).status).toBe(400)
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
    const result = await h.call('GET', `/tickets?${query}`)
    expect(result.status).toBe(400)
    expect(result.body.details[0].in).toBe('query')
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
        const result = await h.call(method!, path!, { rawBody: `{"${field}":{"a":${nested}}}`, headers: json })
        expect(result.status).toBe(400)
        expect(result.body.code).toBe('VALIDATION_ERROR')
        expect(result.body.details[0].message).toMatch(/64/)
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
        `{"name":"R","triggerType":"scheduled","triggerConfig":{},"entityType":"ticket","conditions":[],"actions":[{"actionType":"x","config":{"constructor":{"prototype":{"polluted":true}}}}]}`,
      ],
    ] as const) {
      const result = await h.call(method, path, { rawBody, headers: json })
      expect(result.status, rawBody).toBe(400)
      expect(result.body.code).toBe('VALIDATION_ERROR')
    }
    const query = await h.call('GET', '/tickets?__proto__[polluted]=1&constructor[prototype][polluted]=1')
    expect(query.status).toBe(400)
    const protoQuery = await h.call('GET', '/tickets?__proto__=1')
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
      const result = await h.call('PATCH', RULE, { rawBody, headers: json })
      expect(result.status, rawBody).toBe(400)
      expect(result.body.details[0].message).toBe('This key is not allowed')
    }
    expect((await h.call('GET', '/tickets?constructor=x')).status).toBe(400)
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
    const result = await h.call('PATCH', BUDGET, { rawBody, headers: json })
    expect(result.status).toBe(400)
    expect(result.body.code).toBe('VALIDATION_ERROR')
    expect(await snapshot(store)).toEqual(before)
  })

  it('NUL and lone surrogates in free-form JSON and in the query are 400', async () => {
    const { h } = await setup()
    expect(
      (await h.call('PATCH', RULE, { rawBody: '{"triggerConfig":{"k":["\\ud83d"]}}', headers: json })).status,
    ).toBe(400)
    expect((await h.call('GET', '/tickets?search=a%00b')).status).toBe(400)
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
      const result = await h.call('PATCH', path, { rawBody, headers: json })
      expect(result.status, rawBody).toBe(400)
    }
    expect(await snapshot(store)).toEqual(before)
  })

  it('-0 is accepted as zero', async () => {
    const { h } = await setup()
    const result = await h.call('PATCH', RULE, { rawBody: '{"priority":-0}', headers: json })
    expect(result.status).toBe(200)
    expect(result.body.data.priority).toBe(0)
    const item = await h.call('POST', `${BUDGET}/items`, {
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
      const result = await h.call(path.endsWith('items') ? 'POST' : 'PATCH', path, { body })
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
      const result = await h.call('PATCH', path, { body })
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body.details[0]).toMatchObject({ in: 'body', path: Object.keys(body)[0] })
    }
  })

  it('dates that do not exist (Feb 30th, month 13) are 400 in the query and the body', async () => {
    const { h } = await setup()
    for (const query of ['dateFrom=2025-02-30', 'dateTo=2025-02-29T00:00:00Z', 'dateFrom=2025-13-01']) {
      expect((await h.call('GET', `/tickets?${query}`)).status, query).toBe(400)
    }
    expect((await h.call('GET', '/tickets?dateFrom=2024-02-29')).status).toBe(200)
    for (const dateStart of ['2025-02-30', '2025-04-31T10:00:00Z']) {
      expect((await h.call('PATCH', `/reports/${IDS.report}`, { body: { dateStart } })).status, dateStart).toBe(400)
    }
    expect((await h.call('PATCH', `/reports/${IDS.report}`, { body: { dateStart: '2024-02-29' } })).status).toBe(200)
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
    const result = await h.call('GET', `/tickets?${query}`)
    expect(result.status).toBe(400)
    expect(result.body.code).toBe('VALIDATION_ERROR')
    expect(result.body.details[0].in).toBe('query')
    expect(errors).toEqual([])
  })

  it('valid percent-encoding and + in the query decode as form data', async () => {
    const { h } = await setup()
    const result = await h.call('GET', '/tickets?search=Printer+on%20fire')
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
    const result = await h.call('GET', path)
    expect(result.status).toBe(404)
    expect(result.body.code).toBe('NOT_FOUND')
    expect(errors).toEqual([])
  })

  it('a huge string is refused by its length bound, not stored', async () => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    const result = await h.call('PATCH', BUDGET, { body: { title: 'x'.repeat(900_000) } })
    expect(result.status).toBe(400)
    expect(result.body.details).toEqual([{ in: 'body', path: 'title', message: expect.any(String) }])
    expect(await snapshot(store)).toEqual(before)
  })
})
