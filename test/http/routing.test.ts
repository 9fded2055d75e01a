import { describe, expect, it } from 'vitest'
import { operations, type ErrorBody } from 'tenant-public-api'
import { concretePath, IDS, raw, sampleOf, setup } from './fixture.js'

/** Registry paths with the methods each allows, as the `Allow` header lists them. */
function allowedByPath(): Map<string, string[]> {
  const byPath = new Map<string, string[]>()
  for (const operation of operations) {
    const methods = byPath.get(operation.path) ?? []
    methods.push(...(operation.method === 'GET' ? ['GET', 'HEAD'] : [operation.method]))
    byPath.set(operation.path, methods)
  }
  return byPath
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

describe('routing', () => {
  it('answers 404 NOT_FOUND for unknown paths inside the base path, before authentication', async () => {
    const { h } = await setup()
    for (const path of [
      '',
      '/',
      '/ticketz',
      '/Tickets',
      `/tickets/${IDS.ticket}/notes`,
      '/budgets',
      `/budgets/${IDS.budget}/items/x`,
      '/automation/x/y',
      '/surveys',
      '/openapi.yaml',
    ]) {
      for (const key of [undefined, null]) {
        const result = await h.call<ErrorBody>('GET', path, { key })
        expect(result.status, path).toBe(404)
        expect(result.body.code).toBe('NOT_FOUND')
        expect(result.headers.has('x-ratelimit-limit')).toBe(false)
      }
    }
  })

  it('answers 404 NOT_FOUND for paths outside the base path', async () => {
    const { api } = await setup()
    for (const path of [
      '/',
      '/tickets',
      '/api/public/v2/tickets',
      '/api/public/v1x/tickets',
      '/api/public/tickets',
      '/API/PUBLIC/V1/tickets',
    ]) {
      const response = await api(new Request(`http://api.test${path}`))
      expect(response.status, path).toBe(404)
      const body = (await response.json()) as { code: string; requestId: string }
      expect(body.code).toBe('NOT_FOUND')
      expect(body.requestId).toBe(response.headers.get('x-request-id'))
    }
  })

  it('answers 405 METHOD_NOT_ALLOWED with Allow to each other method on each path, before authentication', async () => {
    const { h } = await setup()
    let checked = 0
    for (const [path, allowed] of allowedByPath()) {
      const concrete = path.replace(/:\w+/g, IDS.budget)
      for (const method of METHODS.filter((m) => !allowed.includes(m))) {
        const result = await h.call<ErrorBody>(method, concrete, { key: null })
        expect(result.status, `${method} ${path}`).toBe(405)
        expect(result.headers.get('allow')).toBe([...allowed, 'OPTIONS'].join(', '))
        if (method !== 'HEAD') expect(result.body.code).toBe('METHOD_NOT_ALLOWED')
        checked++
      }
    }
    expect(checked).toBeGreaterThan(operations.length * 3)
  })

  it('answers 405 on the OpenAPI document for other methods than GET and HEAD', async () => {
    const { h } = await setup()
    const result = await h.call('POST', '/openapi.json', { body: {} })
    expect(result.status).toBe(405)
    expect(result.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  it('answers OPTIONS with 204, Allow and no body, without authentication', async () => {
    const { api } = await setup()
    for (const [path, allowed] of allowedByPath()) {
      const response = await api(raw(path.replace(/:\w+/g, IDS.goal), { method: 'OPTIONS' }))
      expect(response.status, path).toBe(204)
      expect(response.headers.get('allow')).toBe([...allowed, 'OPTIONS'].join(', '))
      expect(response.headers.get('x-request-id')).toBeTruthy()
      expect(await response.text()).toBe('')
    }
    expect((await api(raw('/nowhere', { method: 'OPTIONS' }))).status).toBe(404)
  })

  it('answers HEAD of every GET route with the status and headers of the GET, and an empty body', async () => {
    const { api, key } = await setup()
    const headers = { authorization: `Bearer ${key}` }
    const variable = new Set(['x-request-id', 'x-ratelimit-remaining', 'ratelimit'])
    for (const operation of operations.filter((o) => o.method === 'GET')) {
      const { path } = sampleOf(operation)
      for (const target of [path, concretePath(operation, '00000000-0000-4000-8000-00000000dead')]) {
        const get = await api(raw(target, { headers }))
        const head = await api(raw(target, { method: 'HEAD', headers }))
        expect(head.status, `HEAD ${target}`).toBe(get.status)
        const strip = (h: Headers) => [...h].filter(([name]) => !variable.has(name))
        expect(strip(head.headers)).toEqual(strip(get.headers))
        expect(head.headers.get('x-request-id')).toBeTruthy()
        expect(await head.text()).toBe('')
      }
    }
  })

  it('answers HEAD of the OpenAPI document, an unknown path and a 401 with empty bodies', async () => {
    const { api } = await setup()
    const cases: Array<[string, number]> = [
      ['/openapi.json', 200],
      ['/nowhere', 404],
      ['/tickets', 401],
    ]
    for (const [path, status] of cases) {
      const response = await api(raw(path, { method: 'HEAD' }))
      expect(response.status, path).toBe(status)
      expect(response.headers.get('x-request-id')).toBeTruthy()
      expect(await response.text()).toBe('')
    }
  })

  it('answers 404 for a registry path with a trailing slash: one canonical URL per resource', async () => {
    const { h } = await setup()
    for (const path of [
      '/tickets/',
      '/tickets//',
      `/goals/${IDS.goal}/`,
      `/budgets/${IDS.budget}/items/`,
      '/openapi.json/',
    ]) {
      const result = await h.call<ErrorBody>('GET', path)
      expect(result.status, path).toBe(404)
      expect(result.body.code).toBe('NOT_FOUND')
    }
  })

  it('treats the path case-sensitively and does not decode %2F into a separator', async () => {
    const { h } = await setup()
    expect((await h.call('GET', '/TICKETS')).status).toBe(404)
    // `%2F` stays inside the id segment: an unknown ticket, not another route.
    const result = await h.call<ErrorBody>('GET', `/tickets/${IDS.ticket}%2Fnotes`)
    expect(result.status).toBe(404)
    expect(result.body.code).toBe('NOT_FOUND')
    expect(result.headers.has('x-ratelimit-limit')).toBe(true)
  })
})
