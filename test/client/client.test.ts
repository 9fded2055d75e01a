import { describe, expect, expectTypeOf, it } from 'vitest'
import { operations } from 'tenant-public-api'
import {
  ApiResponseError,
  CLIENT_ROUTES,
  createClient,
  retryAfterMs,
  type FetchLike,
  type ItemOf,
  type ResponseOf,
} from 'tenant-public-api/client'
import { IDS, setup } from '../http/fixture.js'
import { testKey } from 'tenant-public-api/testing'
import { contractFetch } from '../support/contract.js'

async function client(options: { retries?: number } = {}) {
  const s = await setup()
  return {
    ...s,
    client: createClient({ baseUrl: 'http://api.test', apiKey: s.key, fetch: contractFetch(s.api), ...options }),
  }
}

/** A fetch that answers the first `failures` calls with `failure`, then passes to `next`; records every request. */
function flaky(failures: number, failure: () => Response | Promise<Response>, next: FetchLike) {
  const seen: Request[] = []
  return {
    seen,
    fetch: async (input: string, init: RequestInit) => {
      seen.push(new Request(input, init))
      return seen.length <= failures ? failure() : next(input, init)
    },
  }
}

describe('client routes', () => {
  it('match the registry: method, path, lists, idempotency and If-Match', () => {
    expect(Object.keys(CLIENT_ROUTES).sort()).toEqual(operations.map((operation) => operation.id).sort())
    for (const operation of operations) {
      const route = CLIENT_ROUTES[operation.id as keyof typeof CLIENT_ROUTES] as {
        method: string
        path: string
        list?: true
        feed?: true
        idempotent?: true
        ifMatch?: true
      }
      expect(route.method, operation.id).toBe(operation.method)
      expect(route.path, operation.id).toBe(operation.path)
      expect(route.idempotent === true, operation.id).toBe(operation.idempotent === true)
      expect(route.ifMatch === true, operation.id).toBe(operation.errors.includes('PRECONDITION_FAILED'))
      expect(route.list === true || route.feed === true, operation.id).toBe(
        'pagination' in ((operation.response as { entries?: object }).entries ?? {}),
      )
    }
  })
})

describe('createClient against the real handler', () => {
  it('calls every kind of operation with typed arguments and answers', async () => {
    const { client: c } = await client()
    const list = await c.listTickets({ isClosed: false, limit: 5, sortColumn: 'title' })
    expectTypeOf(list.data[0]!.provider).toEqualTypeOf<'psa_a' | 'psa_b' | 'psa_c' | 'psa_d'>()
    expect(list.pagination.limit).toBe(5)
    const ticket = await c.getTicket('T-1001', { includeNotes: true })
    expect(ticket.data.notes).toHaveLength(1)
    const item = await c.createBudgetLineItem(IDS.budget, {
      type: 'Hardware',
      description: 'Laptop',
      unitPrice: 1200,
      quantity: 2,
    })
    expectTypeOf(item).toEqualTypeOf<ResponseOf<'createBudgetLineItem'>>()
    expect(item.data.annualisedCost).toBe(2400)
    const budget = await c.updateBudget(IDS.budget, { notes: null, title: 'FY25 revised' })
    expect(budget.data.lineItems).toHaveLength(2)
    const rule = await c.updateAutomationRule(IDS.rule, { priority: 9 }, { ifMatch: 1 })
    expect(rule.data.version).toBe(2)
    const deleted = await c.deleteTrainingEnrollment(IDS.enrollment)
    expect(deleted).toEqual({ message: 'Enrollment deleted' })
    const survey = await c.getNpsSurvey(IDS.survey)
    expect(survey.data.responseCount).toBe(3)
  })

  it('throws a typed ApiResponseError with the Error body and request id', async () => {
    const { client: c } = await client()
    const error = await c.getGoal(IDS.ticket, undefined).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiResponseError)
    const apiError = error as ApiResponseError
    expect(apiError.status).toBe(404)
    expect(apiError.code).toBe('NOT_FOUND')
    expect(apiError.requestId).toMatch(/^[0-9a-f-]{36}$/)
    const invalid = (await c.listTickets({ limit: 500 }).catch((e: unknown) => e)) as ApiResponseError
    expect(invalid.code).toBe('VALIDATION_ERROR')
    expect(invalid.details).toEqual([expect.objectContaining({ in: 'query', path: 'limit' })])
    const stale = (await c
      .updateReport(IDS.report, { title: 'x' }, { ifMatch: 7 })
      .catch((e: unknown) => e)) as ApiResponseError
    expect(stale.code).toBe('PRECONDITION_FAILED')
  })

  it('walks every page of a list', async () => {
    const s = await setup()
    await s.store.seed('tenant-a', {
      users: Array.from({ length: 7 }, (_, i) => ({
        id: `00000000-0000-4000-8000-1000000000${String(i).padStart(2, '0')}`,
        email: `u${i}@example.com`,
        fullName: `User ${i}`,
        status: 'active' as const,
        isPrimaryAdmin: false,
        createdAt: '2025-03-01T00:00:00.000Z',
        updatedAt: '2025-03-01T00:00:00.000Z',
      })),
    })
    const { fetch, seen } = flaky(0, () => new Response(), contractFetch(s.api))
    const c = createClient({ baseUrl: 'http://api.test', apiKey: s.key, fetch })
    const emails: string[] = []
    for await (const user of c.paginate.listUsers({ limit: 3, sortColumn: 'email', sortDesc: false })) {
      expectTypeOf(user).toEqualTypeOf<ItemOf<'listUsers'>>()
      emails.push(user.email)
    }
    expect(emails).toHaveLength(8)
    expect(new Set(emails).size).toBe(8)
    // By cursor: the first request as given, then each page's nextCursor and no page.
    const asked = seen.map((r) => new URL(r.url).searchParams)
    expect(asked.map((q) => [q.get('page'), q.has('cursor'), q.get('limit')])).toEqual([
      [null, false, '3'],
      [null, true, '3'],
      [null, true, '3'],
    ])
  })

  it('walks by cursor: records added mid-walk before the position repeat nothing, and a page is a start', async () => {
    const s = await setup()
    const user = (i: number, email: string) => ({
      id: `00000000-0000-4000-8000-2000000000${String(i).padStart(2, '0')}`,
      email,
      fullName: `User ${i}`,
      status: 'active' as const,
      isPrimaryAdmin: false,
      createdAt: '2025-03-01T00:00:00.000Z',
      updatedAt: '2025-03-01T00:00:00.000Z',
    })
    const tenant = `client-walk-${crypto.randomUUID()}`
    await s.store.seed(tenant, { users: Array.from({ length: 6 }, (_, i) => user(i, `m${i}@example.com`)) })
    const c = createClient({ baseUrl: 'http://api.test', apiKey: testKey(tenant, '*'), fetch: contractFetch(s.api) })
    const emails: string[] = []
    for await (const u of c.paginate.listUsers({ limit: 2, sortColumn: 'email', sortDesc: false })) {
      emails.push(u.email)
      // An offset walk would see the records after this one shift by one and repeat one of them.
      if (emails.length === 1) await s.store.seed(tenant, { users: [user(50, 'a@example.com')] })
    }
    expect(emails).toEqual([0, 1, 2, 3, 4, 5].map((i) => `m${i}@example.com`))
    const fromPage = []
    for await (const u of c.paginate.listUsers({ limit: 2, page: 2, sortColumn: 'email', sortDesc: false }))
      fromPage.push(u.email)
    expect(fromPage).toEqual([1, 2, 3, 4, 5].map((i) => `m${i}@example.com`))
  })
})

describe('types', () => {
  it('come from the schemas: unknown fields, wrong enums and missing ids do not compile', async () => {
    const { client: c } = await client()
    const refused = async () => {
      await c.createAutomationRule({
        name: 'r',
        triggerType: 'scheduled',
        triggerConfig: {},
        entityType: 'ticket',
        // @ts-expect-error: `bogus` is not a field of a condition group
        conditions: [{ logic: 'AND', bogus: 1 }],
        actions: [],
      })
      // @ts-expect-error: not a sort column of the ticket list
      await c.listTickets({ sortColumn: 'nope' })
      // @ts-expect-error: getTicket needs the id
      await c.getTicket()
      // @ts-expect-error: only line item creation takes an idempotency key
      await c.updateBudget(IDS.budget, { title: 't' }, { idempotencyKey: 'k' })
    }
    expect(typeof refused).toBe('function')
    const rule = await c.createAutomationRule({
      name: 'r',
      triggerType: 'scheduled',
      triggerConfig: {},
      entityType: 'ticket',
      conditions: [{ logic: 'OR', conditions: [{ field: 'priority', operator: 'eq', value: 'P1' }] }],
      actions: [{ actionType: 'notify' }],
    })
    expect(rule.data.conditions[0]?.conditions[0]?.id).toEqual(expect.any(String))
    expect(rule.data.actions[0]).toMatchObject({ order: 0, requiresApproval: false, config: {} })
  })
})

describe('retries', () => {
  const rateLimited = () =>
    new Response(JSON.stringify({ error: 'slow down', code: 'RATE_LIMITED', requestId: 'r1' }), {
      status: 429,
      headers: { 'retry-after': '0', 'content-type': 'application/json' },
    })

  it('retries a 429 after Retry-After and then succeeds', async () => {
    const s = await setup()
    const { fetch, seen } = flaky(2, rateLimited, contractFetch(s.api))
    const c = createClient({ baseUrl: 'http://api.test', apiKey: s.key, fetch })
    const result = await c.listCompanies()
    expect(result.data).toHaveLength(1)
    expect(seen).toHaveLength(3)
  })

  it('gives up after `retries` and throws the last error', async () => {
    const { fetch, seen } = flaky(10, rateLimited, async () => Promise.reject(new Error('unreachable')))
    const c = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch, retries: 1 })
    const error = (await c.listCompanies().catch((e: unknown) => e)) as ApiResponseError
    expect(error.code).toBe('RATE_LIMITED')
    expect(seen).toHaveLength(2)
  })

  it('does not wait for a Retry-After beyond maxRetryDelayMs', async () => {
    const { fetch, seen } = flaky(
      10,
      () => new Response('{"error":"x","code":"RATE_LIMITED"}', { status: 429, headers: { 'retry-after': '3600' } }),
      async () => Promise.reject(new Error('unreachable')),
    )
    const c = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch, maxRetryDelayMs: 1000 })
    await expect(c.listCompanies()).rejects.toMatchObject({ status: 429 })
    expect(seen).toHaveLength(1)
  })

  it('reuses one generated Idempotency-Key across retries of a line item creation, so it is created once', async () => {
    const s = await setup()
    let calls = 0
    const fetch = async (input: string, init: RequestInit) => {
      const request = new Request(input, init)
      calls += 1
      const response = await contractFetch(s.api)(request.url, {
        method: request.method,
        headers: request.headers,
        body: await request.text(),
      })
      // The first attempt is carried out but its answer is lost: a 503 as a proxy would send.
      return calls === 1
        ? new Response('{"error":"down","code":"SERVICE_UNAVAILABLE"}', {
            status: 503,
            headers: { 'retry-after': '0' },
          })
        : response
    }
    const seenKeys: string[] = []
    const c = createClient({
      baseUrl: 'http://api.test',
      apiKey: s.key,
      fetch: (input, init) => {
        seenKeys.push(new Headers(init.headers).get('idempotency-key') ?? '')
        return fetch(input, init)
      },
    })
    const created = await c.createBudgetLineItem(IDS.budget, { type: 'Software', description: 'Seats', unitPrice: 5 })
    expect(seenKeys).toHaveLength(2)
    expect(seenKeys[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(seenKeys[1]).toBe(seenKeys[0])
    const budget = await c.updateBudget(IDS.budget, { status: 'Draft' })
    expect(budget.data.lineItems.filter((item) => item.description === 'Seats')).toEqual([created.data])
  })

  it('retries network errors of reads but not of a POST without an idempotency key', async () => {
    const s = await setup()
    const down = () => Promise.reject(new TypeError('fetch failed'))
    const read = flaky(1, down, contractFetch(s.api))
    await createClient({ baseUrl: 'http://api.test', apiKey: s.key, fetch: read.fetch }).listCompanies()
    expect(read.seen).toHaveLength(2)
    const write = flaky(1, down, contractFetch(s.api))
    await expect(
      createClient({ baseUrl: 'http://api.test', apiKey: s.key, fetch: write.fetch }).createAutomationRule({
        name: 'r',
        triggerType: 'scheduled',
        triggerConfig: {},
        entityType: 'ticket',
        conditions: [],
        actions: [],
      }),
    ).rejects.toThrow('fetch failed')
    expect(write.seen).toHaveLength(1)
  })

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000)
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000)
    expect(retryAfterMs('soon')).toBeUndefined()
  })
})
