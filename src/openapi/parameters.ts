/**
 * The parameters of an operation: its path parameters, its query parameters (from the query-param
 * parsers of src/model/shared.ts), and the request headers it reads.
 */
import type { AnyOperation } from '../http/operation.js'
import { REQUEST_HEADERS } from '../http/request-headers.js'
import type * as v from 'valibot'
import { jsonSchema, safeText } from './schemas.js'

interface ParamEntry {
  type: string
  wrapped?: ParamEntry
  default?: unknown
  pipe?: Array<{ kind: string; type: string; metadata?: { param?: Record<string, unknown> }; description?: string }>
}

/** OpenAPI parameters from a strict-object query schema whose entries are the query-param parsers. */
function queryParameters(schema: v.GenericSchema | undefined): object[] {
  const entries = (schema as { entries?: Record<string, ParamEntry> } | undefined)?.entries ?? {}
  return Object.entries(entries).map(([name, entry]) => {
    const inner = entry.type === 'optional' && entry.wrapped ? entry.wrapped : entry
    const pipe = inner.pipe ?? []
    const json = safeText(
      pipe.find((item) => item.type === 'metadata')?.metadata?.param ?? { type: 'string' },
    ) as Record<string, unknown>
    const description = pipe.find((item) => item.type === 'description')?.description
    if (entry.default !== undefined) {
      const fallback = String(entry.default)
      json.default =
        json.type === 'integer' ? Number(fallback) : json.type === 'boolean' ? fallback === 'true' : fallback
    }
    return {
      name,
      in: 'query',
      required: entry.type !== 'optional',
      ...(description ? { description } : {}),
      // An array is written comma-separated (`types=a,b`), which OpenAPI calls form style, not exploded.
      ...(json.type === 'array' ? { style: 'form', explode: false } : {}),
      schema: json,
    }
  })
}

function pathParameters(operation: AnyOperation): object[] {
  const entries = (operation.params as { entries?: Record<string, v.GenericSchema> } | undefined)?.entries ?? {}
  return Object.entries(entries).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema: jsonSchema(schema, 'input'),
  }))
}

/** The request headers an operation reads (src/http/request-headers.ts: the pipeline checks the same table). */
function headerParameters(operation: AnyOperation): object[] {
  return REQUEST_HEADERS.filter((header) => header.readBy(operation)).map((header) => ({
    name: header.name,
    in: 'header',
    required: false,
    description: header.description,
    schema: header.schema,
  }))
}

/** Every parameter of an operation: path, then query, then header. */
export function operationParameters(operation: AnyOperation): object[] {
  return [...pathParameters(operation), ...queryParameters(operation.query), ...headerParameters(operation)]
}
