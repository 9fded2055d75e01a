/**
 * The contract check: every response a test produces is validated against the OpenAPI document's
 * schema for its operation and status (ajv, draft 2020-12). A field, status or code that the code
 * produces and the document does not describe fails the test that produced it.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { createOpenApiDocument } from 'tenant-public-api'
import type { CallResult } from '../../src/testing/harness.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
const document = createOpenApiDocument()
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
ajv.addSchema({ $id: 'openapi', components: document.components } as object)

type ResponseSpec = { content?: Record<string, { schema: object }> }
interface Route {
  method: string
  pattern: RegExp
  responses: Record<string, ResponseSpec>
}

const routes: Route[] = Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, ResponseSpec> }>>).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, spec]) => ({
    method: method.toUpperCase(),
    pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
    responses: spec.responses,
  })),
)

/** Rewrites `#/components/schemas/X` to the ajv-registered document. */
function resolveRefs(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'))
}

const compiled = new Map<string, ValidateFunction>()

/** Throws when `result` is not what the document says its operation answers. */
export function assertMatchesContract(result: CallResult): void {
  const url = new URL(result.request.url)
  const method = result.request.method === 'HEAD' ? 'GET' : result.request.method
  const route = routes.find((r) => r.method === method && r.pattern.test(url.pathname))
  const where = `${result.request.method} ${url.pathname}${url.search} → ${result.status}`
  if (result.request.method === 'HEAD' || result.request.method === 'OPTIONS') return
  if (route === undefined) {
    // Unknown paths and methods: the answer must still be the Error shape.
    if (result.status !== 404 && result.status !== 405 && result.status !== 400) throw new Error(`${where}: no operation in the document`)
    validate('error', { $ref: 'openapi#/components/schemas/Error' }, result.body, where)
    return
  }
  const spec = route.responses[String(result.status)]
  if (spec === undefined) throw new Error(`${where}: status not documented for this operation`)
  const schema = spec.content?.['application/json']?.schema
  if (schema === undefined) return
  validate(`${method} ${route.pattern.source} ${result.status}`, resolveRefs(schema) as object, result.body, where)
}

function validate(key: string, schema: object, body: unknown, where: string): void {
  let check = compiled.get(key)
  if (check === undefined) {
    check = ajv.compile(schema)
    compiled.set(key, check)
  }
  if (!check(body)) {
    throw new Error(`${where}: response does not match the OpenAPI document: ${ajv.errorsText(check.errors)}\n${JSON.stringify(body).slice(0, 500)}`)
  }
}
