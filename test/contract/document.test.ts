import { validate } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'
import { createOpenApiDocument, operations, ERROR_STATUS } from 'tenant-public-api'
import { RULE_LIMITS } from '../../src/model/automation-rules.js'
import { operationErrors } from '../../src/openapi/responses.js'
import { setup } from '../http/fixture.js'
import { assertMatchesContract, pathPattern, type ObservedResponse } from '../support/contract.js'

const document = createOpenApiDocument()
type DocOperation = {
  operationId: string
  parameters: Array<{ name: string; in: string; required: boolean }>
  security: Array<Record<string, string[]>>
  'x-required-scope': string
  requestBody?: unknown
  responses: Record<string, unknown>
}
const paths = document.paths as Record<string, Record<string, DocOperation>>
const BASE = '/api/public/v1'

function docOperation(id: string): { path: string; method: string; spec: DocOperation } {
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, spec] of Object.entries(methods)) if (spec.operationId === id) return { path, method, spec }
  }
  throw new Error(`${id} is not in the document`)
}

describe('the OpenAPI document', () => {
  it('passes a real OpenAPI 3.1 validator', async () => {
    const result = await validate(structuredClone(document) as never)
    expect(result).toMatchObject({ valid: true, warnings: [] })
  })

  it('is the document the API serves', async () => {
    const { api } = await setup()
    const response = await api(new Request(`http://api.test${BASE}/openapi.json`))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(document)))
  })

  it.each(operations.map((operation) => [operation.id, operation] as const))(
    'describes %s exactly as the registry declares it',
    (_id, operation) => {
      const { path, method, spec } = docOperation(operation.id)
      expect(method.toUpperCase()).toBe(operation.method)
      expect(path).toBe(BASE + operation.path.replace(/:(\w+)/g, '{$1}'))
      expect(spec['x-required-scope']).toBe(operation.scope)
      expect(spec.security).toEqual([{ bearerAuth: [operation.scope] }])
      const queryNames = Object.keys((operation.query as { entries?: object } | undefined)?.entries ?? {})
      expect(spec.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(queryNames)
      const pathNames = Object.keys((operation.params as { entries?: object } | undefined)?.entries ?? {})
      expect(spec.parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(pathNames)
      expect(spec.requestBody !== undefined).toBe(operation.body !== undefined)
      const statuses = [
        String(operation.successStatus),
        ...new Set(operationErrors(operation).map((code) => String(ERROR_STATUS[code]))),
      ]
      expect(Object.keys(spec.responses).sort()).toEqual(statuses.sort())
    },
  )

  it('has no operation the registry lacks', () => {
    const documented = Object.values(paths).flatMap((methods) => Object.values(methods).map((spec) => spec.operationId))
    const extra = documented.filter((id) => !operations.some((operation) => operation.id === id))
    expect(extra.every((id) => id === 'getOpenApiDocument' || id === 'getReferencePage')).toBe(true)
    expect(documented.length - extra.length).toBe(operations.length)
  })

  it('routes every documented path and method (none answers 404 route-not-found or 405)', async () => {
    const { api, key } = await setup()
    for (const [path, methods] of Object.entries(paths)) {
      for (const method of Object.keys(methods)) {
        const concrete = path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-0000000000ff')
        const response = await api(
          new Request(`http://api.test${concrete}`, {
            method: method.toUpperCase(),
            headers: { authorization: `Bearer ${key}` },
          }),
        )
        const body = response.headers.get('content-type')?.startsWith('application/json')
          ? ((await response.json()) as { error?: string })
          : {}
        expect(response.status, `${method} ${path}`).not.toBe(405)
        expect(body.error ?? '', `${method} ${path}`).not.toMatch(/No route matches/)
      }
    }
  })

  it('documents defaults, uuid formats and header schemas', () => {
    const create = docOperation('createBudgetLineItem').spec as unknown as {
      requestBody: {
        content: {
          'application/json': { schema: { properties: Record<string, { default?: unknown; format?: string }> } }
        }
      }
      responses: Record<string, { headers: Record<string, { required?: boolean }> }>
    }
    const props = create.requestBody.content['application/json'].schema.properties
    expect(props.quantity?.default).toBe(1)
    expect(props.currency?.default).toBe('USD')
    expect(props.categoryId?.format).toBe('uuid')
    expect(create.responses['201']?.headers.Location?.required).toBe(true)
    expect(create.responses['201']?.headers['X-Request-Id']?.required).toBe(true)
    expect(create.responses['429']?.headers['Retry-After']?.required).toBe(true)
  })

  it("states a rule's condition-group bounds (depth, groups, conditions) that the API enforces", () => {
    type Body = { requestBody: { content: { 'application/json': { schema: { properties: Record<string, Bound> } } } } }
    type Bound = { maxItems?: number; description?: string; properties?: Record<string, Bound> }
    const { maxGroupDepth, maxGroups, maxConditions } = RULE_LIMITS
    for (const id of ['createAutomationRule', 'updateAutomationRule'] as const) {
      const body = (docOperation(id).spec as unknown as Body).requestBody.content['application/json'].schema
      const conditions = body.properties.conditions!
      expect(conditions.maxItems, id).toBe(maxGroups)
      expect(conditions.description, id).toContain(`at most ${maxGroupDepth} deep`)
      expect(conditions.description, id).toContain(`at most ${maxGroups} groups and ${maxConditions} conditions`)
    }
    const group = (document.components as { schemas: Record<string, Bound> }).schemas.ConditionGroupInput!
    expect([group.properties?.groups?.maxItems, group.properties?.conditions?.maxItems]).toEqual([
      maxGroups,
      maxConditions,
    ])
  })

  it('matches the path templates it declares', () => {
    expect(pathPattern(`${BASE}/budgets/{id}/items`).test(`${BASE}/budgets/abc/items`)).toBe(true)
    expect(pathPattern(`${BASE}/budgets/{id}/items`).test(`${BASE}/budgets/a/b/items`)).toBe(false)
  })
})

describe('assertMatchesContract catches drift', () => {
  async function observed(path: string, init: RequestInit = {}): Promise<ObservedResponse> {
    const { api, key } = await setup()
    const headers = new Headers(init.headers)
    headers.set('authorization', `Bearer ${key}`)
    const request = new Request(`http://api.test${BASE}${path}`, { ...init, headers })
    const response = await api(request.clone())
    const text = await response.text()
    return {
      status: response.status,
      headers: new Headers(response.headers),
      body: text === '' ? undefined : JSON.parse(text),
      request,
    }
  }

  it('accepts the real answer', async () => {
    const result = await observed('/tickets')
    expect(() => assertMatchesContract(result)).not.toThrow()
  })

  it('fails a response with an extra field', async () => {
    const result = await observed('/tickets')
    const body = result.body as { data: Array<Record<string, unknown>> }
    body.data[0]!.secret = 'leak'
    expect(() => assertMatchesContract(result)).toThrow(/additional properties/)
  })

  it('fails a response with a missing field', async () => {
    const result = await observed('/tickets')
    delete (result.body as { pagination: Record<string, unknown> }).pagination.totalPages
    expect(() => assertMatchesContract(result)).toThrow(/totalPages/)
  })

  it('fails a wrongly typed field', async () => {
    const result = await observed('/tickets')
    ;(result.body as { data: Array<Record<string, unknown>> }).data[0]!.isClosed = 'no'
    expect(() => assertMatchesContract(result)).toThrow(/boolean/)
  })

  it('fails an error code the status does not document', async () => {
    const result = await observed('/tickets/nope')
    expect(result.status).toBe(404)
    ;(result.body as { code: string }).code = 'RATE_LIMITED'
    expect(() => assertMatchesContract(result)).toThrow(/allowed values/)
  })

  it('fails an undocumented status', async () => {
    const result = await observed('/tickets')
    expect(() => assertMatchesContract({ ...result, status: 202 })).toThrow(/not documented/)
  })

  it('fails a missing required header and an undeclared one', async () => {
    const missing = await observed('/tickets')
    missing.headers.delete('x-ratelimit-limit')
    expect(() => assertMatchesContract(missing)).toThrow(/x-ratelimit-limit is missing/)
    const extra = await observed('/tickets')
    extra.headers.set('etag', '"1"')
    expect(() => assertMatchesContract(extra)).toThrow(/etag is not documented/)
    const badType = await observed('/tickets')
    badType.headers.set('x-ratelimit-remaining', 'lots')
    expect(() => assertMatchesContract(badType)).toThrow(/x-ratelimit-remaining/)
  })

  it('fails an error whose requestId differs from X-Request-Id', async () => {
    const result = await observed('/tickets?page=0')
    ;(result.body as { requestId: string }).requestId = 'other'
    expect(() => assertMatchesContract(result)).toThrow(/requestId/)
  })

  it('fails a path the document does not know unless it is a 404', async () => {
    const result = await observed('/tickets')
    const request = new Request(`http://api.test${BASE}/secret-admin`)
    expect(() => assertMatchesContract({ ...result, request })).toThrow(/secret-admin/)
    const notFound = await observed('/secret-admin')
    expect(notFound.status).toBe(404)
    expect(() => assertMatchesContract(notFound)).not.toThrow()
  })
})
