/**
 * The parameters of an operation: its path parameters, its query parameters (from the query-param
 * parsers of src/model/shared.ts), and the request headers it reads.
 */
import { IDEMPOTENCY_KEY } from '../http/idempotency.js'
import { takesIfMatch, type AnyOperation } from '../http/operation.js'
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

/** The request headers an operation reads: `Idempotency-Key` and `If-Match`. */
function headerParameters(operation: AnyOperation): object[] {
  const parameters: object[] = []
  if (operation.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Makes a retry safe: a repeat within 24 h with the same body replays the first response.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY.source },
    })
  }
  if (takesIfMatch(operation)) {
    parameters.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description: 'The version you read (`"3"` or `3`); 412 if the resource has moved on.',
      schema: { type: 'string' },
    })
  }
  return parameters
}

/** Every parameter of an operation: path, then query, then header. */
export function operationParameters(operation: AnyOperation): object[] {
  return [...pathParameters(operation), ...queryParameters(operation.query), ...headerParameters(operation)]
}
