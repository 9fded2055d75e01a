/**
 * The request side of the contract check: whether the OpenAPI document accepts a request, read as a
 * generated client or a request validator would read it (ajv, draft 2020-12, with formats): path
 * parameters, query parameters deserialised by their schema's type (`style: form, explode: false`
 * arrays split on commas), header parameters and the JSON body, each against its schema.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { createOpenApiDocument } from 'tenant-public-api'

/** A request of one operation, as a test records it. */
export interface RecordedRequest {
  operationId: string
  /** Path parameters by name (encoded when sent). */
  params?: Record<string, string>
  /** The query string without `?`, as sent. */
  query?: string
  /** Request headers beyond the key's. */
  headers?: Record<string, string>
  /** The JSON body. */
  body?: unknown
}

/** Where the document refuses a request, and why. */
export interface DocumentProblem {
  in: 'path' | 'query' | 'header' | 'body'
  name: string
  message: string
}

interface Parameter {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  style?: string
  explode?: boolean
  schema: Record<string, unknown>
}
interface DocOperation {
  operationId: string
  parameters: Parameter[]
  requestBody?: { required: boolean; content: Record<string, { schema: object }> }
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
const document = createOpenApiDocument()
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
ajv.addSchema({ $id: 'openapi', components: document.components } as object)

const byId = new Map<string, { path: string; method: string; spec: DocOperation }>()
for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, DocOperation>>))
  for (const [method, spec] of Object.entries(methods)) byId.set(spec.operationId, { path, method, spec })

/**
 * The documented method and concrete path of a recorded request (relative to the document's base
 * path when `base` is given).
 *
 * @example
 * requestLine({ operationId: 'getGoal', params: { id } }, '/api/public/v1') // ['GET', '/goals/…']
 */
export function requestLine(request: RecordedRequest, base = ''): [method: string, path: string] {
  const found = byId.get(request.operationId)
  if (found === undefined) throw new Error(`${request.operationId} is not in the document`)
  const path = found.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.params?.[name] ?? ''))
  const query = request.query === undefined || request.query === '' ? '' : `?${request.query}`
  return [found.method.toUpperCase(), path.slice(base.length) + query]
}

/** Every problem the document finds with `request`; none when it accepts it. */
export function documentProblems(request: RecordedRequest): DocumentProblem[] {
  const found = byId.get(request.operationId)
  if (found === undefined) throw new Error(`${request.operationId} is not in the document`)
  const { spec } = found
  const problems: DocumentProblem[] = []
  const query = parseQuery(request.query ?? '')
  const headers = new Headers(request.headers)
  for (const parameter of spec.parameters) {
    const raw =
      parameter.in === 'path'
        ? request.params?.[parameter.name]
        : parameter.in === 'query'
          ? query.get(parameter.name)
          : (headers.get(parameter.name) ?? undefined)
    if (raw === undefined) {
      if (parameter.required) problems.push({ in: parameter.in, name: parameter.name, message: 'is required' })
      continue
    }
    const message = check(parameter.schema, deserialise(parameter, raw))
    if (message !== null) problems.push({ in: parameter.in, name: parameter.name, message })
  }
  const body = spec.requestBody?.content['application/json']?.schema
  if (body !== undefined) {
    const message = request.body === undefined ? 'is required' : check(body, request.body)
    if (message !== null) problems.push({ in: 'body', name: '', message })
  }
  return problems
}

/** The query as name → raw value (`+` and `%XX` decoded); a name given twice keeps its first value. */
function parseQuery(text: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const pair of text.split('&')) {
    if (pair === '') continue
    const at = pair.indexOf('=')
    const decode = (part: string) => decodeURIComponent(part.replaceAll('+', ' '))
    const name = decode(at === -1 ? pair : pair.slice(0, at))
    if (!out.has(name)) out.set(name, at === -1 ? '' : decode(pair.slice(at + 1)))
  }
  return out
}

/** A parameter's text as its schema's type: digits as an integer, `true`/`false`, a comma list as an array. */
function deserialise(parameter: Parameter, raw: string): unknown {
  const type = parameter.schema.type
  if (type === 'integer' || type === 'number') return /^-?\d+$/.test(raw) ? Number(raw) : raw
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw
  if (type === 'array') {
    if (parameter.style !== 'form' || parameter.explode !== false)
      throw new Error(`${parameter.name}: only comma-separated arrays are used here`)
    return raw === '' ? [] : raw.split(',')
  }
  return raw
}

const compiled = new Map<string, ValidateFunction>()

/** ajv's message when `value` does not match `schema` (refs resolved against the document), else null. */
function check(schema: object, value: unknown): string | null {
  const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')
  let validate = compiled.get(text)
  if (validate === undefined) {
    validate = ajv.compile(JSON.parse(text) as object)
    compiled.set(text, validate)
  }
  return validate(value) ? null : ajv.errorsText(validate.errors)
}
