/**
 * The JSON Schemas of the MCP tools, taken from the OpenAPI document's builders (src/openapi/): a
 * tool's schema is the document's, made self-contained. The document's `$ref`s point into its
 * `components.schemas`; a tool schema stands alone, so each carries the components it uses as
 * `$defs` and its references point there.
 */
import type { JsonSchema } from '@valibot/to-json-schema'
import { errorSchema } from '../openapi/responses.js'
import { componentSchemas } from '../openapi/schemas.js'

/** A JSON Schema object as tools carry it. */
export type ToolSchema = Record<string, unknown>

const COMPONENT_REF = '#/components/schemas/'

let components: Record<string, unknown> | undefined

/** The document's components, `Error` included, converted once per process. */
function allComponents(): Record<string, unknown> {
  components ??= { ...componentSchemas(), Error: errorSchema() }
  return components
}

/** `value` with every component `$ref` pointing into `$defs`, and the names it references added to `used`. */
function relink(value: unknown, used: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => relink(item, used))
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_REF)) {
      const name = inner.slice(COMPONENT_REF.length)
      used.add(name)
      out[key] = `#/$defs/${name}`
    } else out[key] = relink(inner, used)
  }
  return out
}

/**
 * `schema` (of the OpenAPI document) as a standalone JSON Schema: the components it references,
 * directly or through each other, as its `$defs`.
 *
 * @example
 * standalone({ type: 'object', properties: { data: { $ref: '#/components/schemas/Ticket' } } })
 * // { type: 'object', properties: { data: { $ref: '#/$defs/Ticket' } }, $defs: { Ticket: {...}, ... } }
 */
export function standalone(schema: JsonSchema | ToolSchema): ToolSchema {
  const used = new Set<string>()
  const out = relink(schema, used) as ToolSchema
  const defs: Record<string, unknown> = {}
  const all = allComponents()
  // Components reference each other: follow until no new name turns up.
  for (let pending = [...used]; pending.length > 0; ) {
    const name = pending.pop()!
    if (name in defs) continue
    const found = new Set<string>()
    if (!(name in all)) throw new Error(`The OpenAPI document has no component ${name}`)
    defs[name] = relink(all[name], found)
    for (const next of found) if (!(next in defs)) pending.push(next)
  }
  return Object.keys(defs).length === 0 ? out : { ...out, $defs: sortedKeys(defs) }
}

function sortedKeys(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key]]),
  )
}
