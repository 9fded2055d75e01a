/**
 * Example values generated from JSON Schemas of the OpenAPI document, for the reference page:
 * deterministic, and valid for the schema they come from (enums take their first value, bounds
 * are respected, formats get a plausible value).
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type SchemaObject = Record<string, unknown>

const FORMAT_EXAMPLES: Record<string, string> = {
  uuid: '3f2b8c1e-6d4a-4f7e-9a1b-2c3d4e5f6a7b',
  'date-time': '2026-01-15T09:30:00.000Z',
  date: '2026-01-15',
  email: 'ada@example.com',
  uri: 'https://example.com/resource',
}

/**
 * An example value for `schema`; `$ref`s are resolved against `components`.
 *
 * @example
 * exampleOf({ type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] }, {})
 * // { id: '3f2b8c1e-6d4a-4f7e-9a1b-2c3d4e5f6a7b' }
 */
export function exampleOf(schema: unknown, components: Record<string, unknown>, depth = 0): Json {
  if (typeof schema !== 'object' || schema === null || depth > 8) return null
  const s = schema as SchemaObject
  if (typeof s.$ref === 'string') return exampleOf(components[s.$ref.split('/').pop() ?? ''], components, depth + 1)
  if ('const' in s) return s.const as Json
  if (s.default !== undefined) return s.default as Json
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0] as Json
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0] as Json
  const choices = (s.anyOf ?? s.oneOf) as unknown[] | undefined
  if (Array.isArray(choices)) {
    const nonNull = choices.find((choice) => (choice as SchemaObject).type !== 'null') ?? choices[0]
    return exampleOf(nonNull, components, depth + 1)
  }
  // Beside a type, `allOf` only narrows it (a string's second pattern): the type's example serves.
  if (Array.isArray(s.allOf) && s.type === undefined) {
    return s.allOf.reduce<Json>((merged, part) => {
      const value = exampleOf(part, components, depth + 1)
      return isObject(merged) && isObject(value) ? Object.assign(merged, value) : (value ?? merged)
    }, {})
  }
  const type = Array.isArray(s.type)
    ? (s.type.find((t) => t !== 'null') as string | undefined)
    : (s.type as string | undefined)
  switch (type) {
    case 'object': {
      const out: Record<string, Json> = {}
      for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, unknown>))
        out[name] = exampleOf(property, components, depth + 1)
      return out
    }
    case 'array':
      return depth > 5 ? [] : [exampleOf(s.items, components, depth + 1)]
    case 'integer':
    case 'number': {
      const minimum = typeof s.minimum === 'number' ? s.minimum : 0
      const maximum = typeof s.maximum === 'number' ? s.maximum : Number.MAX_SAFE_INTEGER
      return Math.min(Math.max(minimum, type === 'integer' ? 1 : 10), maximum)
    }
    case 'boolean':
      return true
    case 'string': {
      if (typeof s.format === 'string' && FORMAT_EXAMPLES[s.format]) return FORMAT_EXAMPLES[s.format] as string
      if (s.pattern === '^[A-Za-z]{3}$') return 'USD'
      const minLength = typeof s.minLength === 'number' ? s.minLength : 0
      const maxLength = typeof s.maxLength === 'number' ? s.maxLength : 1_000
      const text = 'string'.padEnd(minLength, 'x')
      return text.slice(0, Math.max(minLength, Math.min(text.length, maxLength)))
    }
    case 'null':
      return null
    default:
      return {}
  }
}

function isObject(value: Json): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
