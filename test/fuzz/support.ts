/** Helpers shared by the fuzz suites. */
import type * as v from 'valibot'

/** Keys of a (possibly piped) strict-object schema. */
export function keysOf(schema: v.GenericSchema | undefined): string[] {
  let current = schema as { entries?: Record<string, unknown>; pipe?: unknown[] } | undefined
  while (current !== undefined && current.entries === undefined && Array.isArray(current.pipe))
    current = current.pipe[0] as typeof current
  return Object.keys(current?.entries ?? {})
}

/** Bytes as `%XX`, so that any string (lone surrogates become U+FFFD) can go into a URL. */
export const percentEncode = (text: string) =>
  Array.from(new TextEncoder().encode(text), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')
