/**
 * The contract check: every response a test produces is validated against the OpenAPI document
 * (ajv, draft 2020-12): its status must be documented for its operation, its body must match the
 * schema for that status (strict objects: no extra or missing field; error `code`s from that
 * status's enum; `requestId` equal to the `X-Request-Id` header), every header the document marks
 * required must be there with a valid value, and no API header (ETag, Location, Retry-After,
 * rate limits, ...) may appear where the document does not declare it. A path the document does
 * not know must be a 404, a documented path with another method a 405 whose `Allow` lists exactly
 * the documented methods.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { createOpenApiDocument } from 'tenant-public-api'
import type { FetchLike } from 'tenant-public-api/client'

/** What the check needs of one exchange (a harness `CallResult` is one). */
export interface ObservedResponse {
  status: number
  headers: Headers
  /** The parsed JSON body, or `undefined` when the body was empty. */
  body: unknown
  request: Request
}

interface HeaderSpec {
  required?: boolean
  schema?: Record<string, unknown>
}
interface ResponseSpec {
  headers?: Record<string, HeaderSpec>
  content?: Record<string, { schema: object }>
}
interface Route {
  path: string
  method: string
  pattern: RegExp
  responses: Record<string, ResponseSpec>
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
/** The document the API serves by default; built once per test file. */
export const contractDocument = createOpenApiDocument()
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
ajv.addSchema({ $id: 'openapi', components: contractDocument.components } as object)

const documentedPaths = contractDocument.paths as Record<
  string,
  Record<string, { responses: Record<string, ResponseSpec> }>
>
const routes: Route[] = Object.entries(documentedPaths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, spec]) => ({
    path,
    method: method.toUpperCase(),
    pattern: pathPattern(path),
    responses: spec.responses,
  })),
)

/** A regular expression matching the concrete paths of a documented path template. */
export function pathPattern(template: string): RegExp {
  const parts = template.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&'))
  return new RegExp(`^${parts.join('[^/]+')}$`)
}

/**
 * Headers this API sets itself. Any of them on a response whose documented status does not
 * declare it is drift (a cookie is always wrong: the API is stateless).
 */
const API_HEADERS = [
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ratelimit-policy',
  'ratelimit',
  'etag',
  'location',
  'link',
  'retry-after',
  'idempotent-replayed',
  'www-authenticate',
  'set-cookie',
]

const JSON_TYPE = 'application/json; charset=utf-8'

/** Throws when `result` is not what the document says its operation answers. */
export function assertMatchesContract(result: ObservedResponse): void {
  const url = new URL(result.request.url)
  const requestMethod = result.request.method.toUpperCase()
  const method = requestMethod === 'HEAD' ? 'GET' : requestMethod
  const where = `${requestMethod} ${url.pathname}${url.search} → ${result.status}`
  const requestId = result.headers.get('x-request-id')
  if (requestId === null || !/^[A-Za-z0-9._:-]{1,128}$/.test(requestId))
    throw new Error(`${where}: missing or malformed X-Request-Id (${requestId})`)
  if (result.headers.has('set-cookie')) throw new Error(`${where}: the API set a cookie`)

  const onPath = routes.filter((route) => route.pattern.test(url.pathname))
  const route = onPath.find((candidate) => candidate.method === method)

  if (requestMethod === 'HEAD' && result.body !== undefined)
    throw new Error(`${where}: a HEAD response must have no body`)
  if (
    result.status === 400 &&
    result.body !== undefined &&
    (result.body as { code?: unknown }).code === 'COOKIES_NOT_ALLOWED'
  ) {
    // Refused before routing, whatever the path or method (the order of checks).
    validate('error', { $ref: 'openapi#/components/schemas/Error' }, result.body, where)
    assertErrorRequestId(result, where)
    return
  }
  if (requestMethod === 'OPTIONS' && onPath.length > 0) {
    if (result.status !== 204) throw new Error(`${where}: OPTIONS of a documented path must be 204`)
    assertAllow(result, onPath, where)
    return
  }
  if (route === undefined) {
    assertUndocumentedAnswer(result, onPath, where)
    return
  }

  const spec = route.responses[String(result.status)]
  if (spec === undefined)
    throw new Error(`${where}: status ${result.status} is not documented for ${route.method} ${route.path}`)
  assertHeaders(result.headers, spec.headers ?? {}, where)

  const schema = spec.content?.['application/json']?.schema
  if (requestMethod === 'HEAD' || schema === undefined) return
  if (result.headers.get('content-type') !== JSON_TYPE)
    throw new Error(`${where}: content-type is ${result.headers.get('content-type')}, not ${JSON_TYPE}`)
  validate(`${route.method} ${route.path} ${result.status}`, resolveRefs(schema), result.body, where)
  if (result.status >= 400) assertErrorRequestId(result, where)
}

/** A response to a path or method the document does not have: only the router's own refusals are allowed. */
function assertUndocumentedAnswer(result: ObservedResponse, onPath: Route[], where: string): void {
  let code: string | undefined
  if (result.request.method.toUpperCase() === 'HEAD') {
    code = result.status === 404 ? 'NOT_FOUND' : result.status === 405 ? 'METHOD_NOT_ALLOWED' : undefined
  } else {
    validate('error', { $ref: 'openapi#/components/schemas/Error' }, result.body, where)
    assertErrorRequestId(result, where)
    code = (result.body as { code?: string }).code
  }
  if (onPath.length === 0) {
    if (result.status !== 404 || code !== 'NOT_FOUND')
      throw new Error(`${where}: a path the document does not know must be 404 NOT_FOUND, got ${result.status} ${code}`)
    return
  }
  if (result.status !== 405 || code !== 'METHOD_NOT_ALLOWED')
    throw new Error(
      `${where}: an undocumented method on a documented path must be 405 METHOD_NOT_ALLOWED, ` +
        `got ${result.status} ${code}`,
    )
  assertAllow(result, onPath, where)
}

/** `Allow` must list exactly the documented methods of the path (plus HEAD for GET, and OPTIONS). */
function assertAllow(result: ObservedResponse, onPath: Route[], where: string): void {
  const expected = new Set(
    onPath.flatMap((route) => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method])).concat('OPTIONS'),
  )
  const allow = new Set(
    (result.headers.get('allow') ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean),
  )
  const same = allow.size === expected.size && [...allow].every((m) => expected.has(m))
  if (!same)
    throw new Error(
      `${where}: Allow is "${result.headers.get('allow')}", the document says ${[...expected].join(', ')}`,
    )
}

function assertErrorRequestId(result: ObservedResponse, where: string): void {
  const body = result.body as { requestId?: unknown }
  if (body.requestId !== result.headers.get('x-request-id'))
    throw new Error(
      `${where}: body requestId ${String(body.requestId)} differs from ` +
        `X-Request-Id ${result.headers.get('x-request-id')}`,
    )
}

function assertHeaders(headers: Headers, documented: Record<string, HeaderSpec>, where: string): void {
  const byName = new Map(Object.entries(documented).map(([name, spec]) => [name.toLowerCase(), spec]))
  for (const [name, spec] of byName) {
    const value = headers.get(name)
    if (value === null) {
      if (spec.required) throw new Error(`${where}: required header ${name} is missing`)
      continue
    }
    const schema = spec.schema ?? { type: 'string' }
    const typed =
      schema.type === 'integer' || schema.type === 'number'
        ? /^-?\d+(\.\d+)?$/.test(value)
          ? Number(value)
          : value
        : value
    validate(`header ${JSON.stringify(schema)}`, schema, typed, `${where}: header ${name}`)
  }
  for (const name of API_HEADERS) {
    if (headers.has(name) && !byName.has(name))
      throw new Error(`${where}: header ${name} is not documented for this response`)
  }
}

/** Rewrites `#/components/schemas/X` to the ajv-registered document. */
function resolveRefs(schema: unknown): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as object
}

const compiled = new Map<string, ValidateFunction>()

function validate(key: string, schema: object, value: unknown, where: string): void {
  let check = compiled.get(key)
  if (check === undefined) {
    check = ajv.compile(schema)
    compiled.set(key, check)
  }
  if (!check(value)) {
    throw new Error(
      `${where}: does not match the OpenAPI document: ${ajv.errorsText(check.errors)}\n` +
        `${JSON.stringify(value)?.slice(0, 500)}`,
    )
  }
}

/**
 * Checks a Fetch response (reading a clone) against the contract.
 *
 * @example
 * const { client } = await createTestApi({ onResponse: assertResponseMatchesContract })
 */
export async function assertResponseMatchesContract(response: Response, request: Request): Promise<void> {
  const text = await response.clone().text()
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    throw new Error(`${request.method} ${request.url} → ${response.status}: body is not JSON: ${text.slice(0, 200)}`)
  }
  assertMatchesContract({ status: response.status, headers: response.headers, body, request })
}

/**
 * A `fetch` for the client that calls `api` in-process and checks every answer against the contract.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://api.test', apiKey, fetch: contractFetch(api) })
 */
export function contractFetch(api: (request: Request) => Promise<Response>): FetchLike {
  return async (input, init) => {
    const request = new Request(input, init)
    const response = await api(request.clone())
    await assertResponseMatchesContract(response, request)
    return response
  }
}
