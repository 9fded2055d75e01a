/**
 * The MCP tools: a view of the operation registry, as the OpenAPI document and the typed client
 * are (docs/mcp.md). One tool per operation, named by its id; its input schema merges the
 * operation's path, query and body (and the `Idempotency-Key` and `If-Match` headers it reads) as
 * the OpenAPI document states them, its output schema is the success body's or the Error shape.
 */
import type { AnyOperation } from '../http/operation.js'
import { operationParameters } from '../openapi/parameters.js'
import { jsonSchema } from '../openapi/schemas.js'
import { operations } from '../operations/index.js'
import { standalone, type ToolSchema } from './schemas.js'

/** A tool as `tools/list` shows it. */
export interface ToolDefinition {
  name: string
  title: string
  description: string
  inputSchema: ToolSchema
  outputSchema: ToolSchema
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false }
}

/** Where each argument of a tool goes in its operation's REST request. */
export interface ToolRoute {
  /** Path parameters, in the order of the path. */
  path: readonly string[]
  /** Query parameters. */
  query: ReadonlySet<string>
  /** The header arguments: `idempotencyKey` → `Idempotency-Key`, `ifMatch` → `If-Match`. */
  headers: ReadonlyMap<string, string>
  /** Whether the operation takes a JSON body (every other argument goes there). */
  body: boolean
}

/** A tool with its operation. */
export interface McpTool {
  operation: AnyOperation
  definition: ToolDefinition
  route: ToolRoute
}

/** The argument names of the request headers an operation reads (src/openapi/parameters.ts). */
const HEADER_ARGUMENTS: Record<string, string> = { 'Idempotency-Key': 'idempotencyKey', 'If-Match': 'ifMatch' }

interface Parameter {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  description?: string
  schema: Record<string, unknown>
}

/** Collects a tool's arguments, refusing a name taken twice (the registry would be ambiguous as a tool). */
class Arguments {
  readonly properties: Record<string, unknown> = {}
  readonly required: string[] = []
  constructor(readonly tool: string) {}
  add(name: string, schema: unknown, required: boolean): void {
    if (name in this.properties) throw new Error(`Tool ${this.tool}: argument ${name} is both a parameter and a field`)
    this.properties[name] = schema
    if (required) this.required.push(name)
  }
}

/** Body keywords that hold on the merged arguments as they are (they speak of body fields only). */
const BODY_KEYWORDS = ['if', 'then', 'else', 'dependentRequired', 'dependentSchemas'] as const

function inputSchema(operation: AnyOperation, parameters: readonly Parameter[]): ToolSchema {
  const args = new Arguments(operation.id)
  for (const parameter of parameters) {
    const name = parameter.in === 'header' ? HEADER_ARGUMENTS[parameter.name] : parameter.name
    if (name === undefined) throw new Error(`Tool ${operation.id}: no argument for header ${parameter.name}`)
    const described = parameter.description
      ? { description: parameter.description, ...parameter.schema }
      : parameter.schema
    args.add(name, described, parameter.required)
  }
  const extra: Record<string, unknown> = {}
  if (operation.body !== undefined) {
    const body = jsonSchema(operation.body, 'input') as Record<string, unknown>
    if (body.type !== 'object' || typeof body.properties !== 'object')
      throw new Error(`Tool ${operation.id}: its body is not an object schema, so it cannot be merged`)
    const required = new Set((body.required as string[] | undefined) ?? [])
    const fields = Object.keys(body.properties as object)
    for (const field of fields)
      args.add(field, (body.properties as Record<string, unknown>)[field], required.has(field))
    for (const keyword of BODY_KEYWORDS) if (body[keyword] !== undefined) extra[keyword] = body[keyword]
    // A PATCH's "at least one field" counts body fields only: the id argument must not satisfy it.
    if (body.minProperties === 1) extra.anyOf = fields.map((field) => ({ required: [field] }))
    else if (body.minProperties !== undefined)
      throw new Error(`Tool ${operation.id}: minProperties ${String(body.minProperties)} cannot be merged`)
  }
  return standalone({
    type: 'object',
    properties: args.properties,
    ...(args.required.length > 0 ? { required: args.required } : {}),
    additionalProperties: false,
    ...extra,
  })
}

function outputSchema(operation: AnyOperation): ToolSchema {
  // Clients check every structured result against it, errors too (the SDK's client does): so the Error shape is in.
  return standalone({
    type: 'object',
    anyOf: [jsonSchema(operation.response, 'output'), { $ref: '#/components/schemas/Error' }],
  })
}

function describe(operation: AnyOperation): string {
  const text = operation.description ? `${operation.summary}. ${operation.description}` : `${operation.summary}.`
  return `${text} ${operation.method} ${operation.path.replace(/:(\w+)/g, '{$1}')}; scope ${operation.scope}.`
}

/** The tool of one operation. */
function toolOf(operation: AnyOperation): McpTool {
  const parameters = operationParameters(operation) as Parameter[]
  const read = operation.method === 'GET'
  return {
    operation,
    definition: {
      name: operation.id,
      title: operation.summary,
      description: describe(operation),
      inputSchema: inputSchema(operation, parameters),
      outputSchema: outputSchema(operation),
      annotations: {
        readOnlyHint: read,
        destructiveHint: operation.method === 'DELETE',
        idempotentHint: read || operation.method === 'DELETE',
        openWorldHint: false,
      },
    },
    route: {
      path: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
      query: new Set(parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name)),
      headers: new Map(
        parameters
          .filter((parameter) => parameter.in === 'header')
          .map((parameter) => [HEADER_ARGUMENTS[parameter.name]!, parameter.name]),
      ),
      body: operation.body !== undefined,
    },
  }
}

let tools: readonly McpTool[] | undefined
let byName: ReadonlyMap<string, McpTool> | undefined

/**
 * Every tool, in the order of the registry; built once per process (the schemas are converted once).
 *
 * @example
 * mcpTools().map((tool) => tool.definition.name) // ['listTickets', 'getTicket', ...]
 */
export function mcpTools(): readonly McpTool[] {
  tools ??= operations.map(toolOf)
  return tools
}

/**
 * The tool named `name`, or undefined.
 *
 * @example
 * findTool('getTicket')?.operation.path // '/tickets/:id'
 */
export function findTool(name: string): McpTool | undefined {
  byName ??= new Map(mcpTools().map((tool) => [tool.definition.name, tool]))
  return byName.get(name)
}
