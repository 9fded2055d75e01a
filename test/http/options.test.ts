import { describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, type PublicApiOptions } from 'tenant-public-api'
import { createHarness, testKey, testKeyResolver, type Reply } from 'tenant-public-api/testing'
import { assertMatchesContract } from '../support/contract.js'
import { IDS, seedData, setup, TENANT } from './fixture.js'

const base = (): PublicApiOptions => ({ store: createMemoryStore(), keyResolver: testKeyResolver() })

describe('basePath', () => {
  it.each([
    ['/v1/', '/v1'],
    ['v1', '/v1'],
    ['//v1//', '/v1'],
    ['/api/public/v2', '/api/public/v2'],
    ['/', ''],
    ['', ''],
  ])('%j serves the API under %j, and nothing under the default', async (basePath, served) => {
    const { api, key } = await setup({ basePath })
    const headers = { authorization: `Bearer ${key}` }
    expect((await api(new Request(`http://x${served}/tickets`, { headers }))).status).toBe(200)
    expect((await api(new Request(`http://x${served}/goals/${IDS.goal}`, { headers }))).status).toBe(200)
    expect((await api(new Request(`http://x${served}/openapi.json`))).status).toBe(200)
    const moved = await api(new Request('http://x/api/public/v1/tickets', { headers }))
    expect(moved.status).toBe(served === '/api/public/v1' ? 200 : 404)
  })

  it('the document served under a base path names its paths under it', async () => {
    const { api } = await setup({ basePath: '/v9/' })
    const document = (await (await api(new Request('http://x/v9/openapi.json'))).json()) as {
      paths: Record<string, unknown>
    }
    expect(Object.keys(document.paths)).toContain('/v9/tickets')
    expect(Object.keys(document.paths)).toContain('/v9/openapi.json')
    expect(Object.keys(document.paths).every((path) => path.startsWith('/v9/'))).toBe(true)
  })

  it('Location headers use the base path', async () => {
    const { h } = await setup({ basePath: '/v1/' })
    const result = await h.call<Reply<'createBudgetLineItem'>>('POST', `/budgets/${IDS.budget}/items`, {
      body: { type: 'Other', description: 'x', unitPrice: 1 },
    })
    expect(result.headers.get('location')).toBe(`/v1/budgets/${IDS.budget}/items/${result.body.data.id}`)
  })

  it.each(['/api/:version', '/api/*', '/a b', '/api(v1)', '/v1?x=1', '/v%31', '/../v1', '/v1+'])(
    'refuses %j, which the router would misread',
    (basePath) => {
      expect(() => createPublicApi({ ...base(), basePath })).toThrow(TypeError)
    },
  )
})

describe('publicOrigin', () => {
  /** The fixture with a second company, so that a page of one has a next page. */
  const twoCompanies = async (options: Partial<PublicApiOptions>) => {
    const set = await setup(options)
    const company = { ...seedData().companies![0]!, id: crypto.randomUUID(), name: 'Zenith' }
    await set.store.seed(TENANT, { companies: [company] })
    return set
  }

  it.each([
    ['https://portal.example', 'https://portal.example'],
    ['https://portal.example/', 'https://portal.example'],
    ['HTTPS://Portal.Example:443', 'https://portal.example'],
    ['http://localhost:3000', 'http://localhost:3000'],
  ])('%j makes every Link absolute from %j, whatever the request URL', async (publicOrigin, origin) => {
    const { h } = await twoCompanies({ publicOrigin })
    const { status, headers, body } = await h.call<Reply<'listCompanies'>>('GET', '/companies?limit=1')
    expect(status).toBe(200)
    const cursor = body.pagination.nextCursor as string
    expect(headers.get('link')).toBe(`<${origin}/api/public/v1/companies?limit=1&cursor=${cursor}>; rel="next"`)
  })

  it('left out, every Link is a relative reference: the request’s path and query, no host', async () => {
    const { h } = await twoCompanies({ basePath: '/v2' })
    const { headers, body } = await h.call<Reply<'listCompanies'>>('GET', '/companies?limit=1&page=1&sortBy=name')
    const cursor = body.pagination.nextCursor as string
    expect(headers.get('link')).toBe(`</v2/companies?limit=1&sortBy=name&cursor=${cursor}>; rel="next"`)
  })

  it('a Link never starts with `//` (a host): a path of an empty segment matches no list', async () => {
    const { api, key } = await twoCompanies({ basePath: '/' })
    const headers = { authorization: `Bearer ${key}` }
    const plain = await api(new Request('http://x/companies?limit=1', { headers }))
    expect(plain.headers.get('link')).toMatch(/^<\/companies\?limit=1&cursor=[\w-]+>; rel="next"$/)
    for (const path of ['//companies', '//evil.example/companies', '///companies'])
      expect((await api(new Request(`http://x${path}?limit=1`, { headers }))).status, path).toBe(404)
  })

  it.each([
    ['a path', 'https://portal.example/api/public/v1', /it has a path/],
    ['a query', 'https://portal.example/?x=1', /a query or a fragment/],
    ['an empty query', 'https://portal.example?', /a query or a fragment/],
    ['a fragment', 'https://portal.example#top', /a query or a fragment/],
    ['credentials', 'https://user:pass@portal.example', /credentials/],
    ['another scheme', 'ftp://portal.example', /the scheme is ftp:/],
    ['a javascript: URL', 'javascript:alert(1)', /the scheme is javascript:/],
    ['no scheme', 'portal.example', /not a URL/],
    ['a relative path', '/api', /not a URL/],
    ['an empty string', '', /not a URL/],
    ['a number', 42, /got number/],
    ['null', null, /got null/],
  ])('refuses %s with a TypeError naming the option', (_what, publicOrigin, why) => {
    const create = () => createPublicApi({ ...base(), publicOrigin: publicOrigin as string })
    expect(create).toThrow(TypeError)
    expect(create).toThrow(/^publicOrigin must be an http or https origin such as https:\/\/portal\.example: /)
    expect(create).toThrow(why)
  })
})

describe('maxBodyBytes', () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, '100' as unknown as number])(
    'refuses %j',
    (maxBodyBytes) => {
      expect(() => createPublicApi({ ...base(), maxBodyBytes })).toThrow(TypeError)
    },
  )

  it('defaults to 1 MiB: exactly 1,048,576 bytes are read, one more is 413', async () => {
    const store = createMemoryStore()
    await store.seed(TENANT, seedData())
    const h = createHarness(createPublicApi({ store, keyResolver: testKeyResolver() }), {
      key: testKey(TENANT),
      onResponse: assertMatchesContract,
    })
    const json = '{"title":"Big"}'
    const exact = json + ' '.repeat(1024 * 1024 - json.length)
    const headers = { 'content-type': 'application/json' }
    expect((await h.call('PATCH', `/budgets/${IDS.budget}`, { rawBody: exact, headers })).status).toBe(200)
    expect(
      (await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${IDS.budget}`, { rawBody: `${exact} `, headers }))
        .status,
    ).toBe(413)
  })
})

describe('required options', () => {
  it('are checked when the API is created, not on the first request', () => {
    const options = base()
    expect(() => createPublicApi({ ...options, store: undefined as never })).toThrow(/store/)
    expect(() => createPublicApi({ ...options, keyResolver: 'key' as never })).toThrow(/keyResolver/)
    expect(() => createPublicApi({ ...options, rateLimiter: {} as never })).toThrow(/rateLimiter/)
    expect(() => createPublicApi({ ...options, onError: 42 as never })).toThrow(/onError/)
    expect(() => createPublicApi(undefined as never)).toThrow(TypeError)
  })

  it("a store must have the Store port's methods: {} and a partial store are TypeErrors naming what is missing", () => {
    const options = base()
    expect(() => createPublicApi({ ...options, store: {} as never })).toThrow(TypeError)
    expect(() => createPublicApi({ ...options, store: {} as never })).toThrow(
      /records part: get, list, patch, addChild and 5 more; events part: listEvents; .*; close part: close$/,
    )
    const { listEvents: _dropped, ...partial } = createMemoryStore()
    expect(() => createPublicApi({ ...options, store: partial as never })).toThrow(
      "createPublicApi's store lacks methods of the Store port (docs/stores.md): events part: listEvents",
    )
    // A store whose methods live on its prototype (a class) is a store.
    class ClassStore {}
    const memory = createMemoryStore()
    for (const [name, value] of Object.entries(memory))
      if (typeof value === 'function') (ClassStore.prototype as Record<string, unknown>)[name] = value
    expect(() => createPublicApi({ ...options, store: new ClassStore() as never })).not.toThrow()
  })

  it("a store passed as its factory's promise is a TypeError that says to await the factory", async () => {
    const { createSqliteStore } = await import('tenant-public-api/sqlite')
    const pending = createSqliteStore({ filename: ':memory:' })
    expect(() => createPublicApi({ ...base(), store: pending as never })).toThrow(TypeError)
    expect(() => createPublicApi({ ...base(), store: pending as never })).toThrow(
      /await the store factory first, e.g. const store = await createSqliteStore/,
    )
    const store = await pending
    expect(() => createPublicApi({ ...base(), store })).not.toThrow()
    await store.close()
  })
})

describe('the default rate limiter', () => {
  it('allows 120 requests per 60 s per key, then 429', async () => {
    const store = createMemoryStore()
    await store.seed(TENANT, seedData())
    const h = createHarness(createPublicApi({ store, keyResolver: testKeyResolver() }), { key: testKey(TENANT) })
    const started = Date.now()
    let last: Awaited<ReturnType<typeof h.call>> | undefined
    for (let i = 0; i < 120; i++) {
      last = await h.call<Reply<'listMeetingTypes'>>('GET', '/calendar/types')
      expect(last.status).toBe(200)
    }
    expect(last!.headers.get('x-ratelimit-limit')).toBe('120')
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0')
    const reset = Date.parse(last!.headers.get('x-ratelimit-reset')!)
    expect(reset).toBeGreaterThanOrEqual(started + 60_000 - 1000)
    expect(reset).toBeLessThanOrEqual(Date.now() + 60_000)
    const limited = await h.call<Reply<'listMeetingTypes'>>('GET', '/calendar/types')
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(50)
    expect(
      (await h.call<Reply<'listMeetingTypes'>>('GET', '/calendar/types', { key: testKey(TENANT, ['calendar.read']) }))
        .status,
    ).toBe(200)
  })
})
