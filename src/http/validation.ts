import * as v from 'valibot'
import { validationError, type ValidationIssue } from './errors.js'

/** The outcome of validating one part of a request. */
export type Checked = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] }

/** `conditions[0].field` from a valibot issue path. */
function issuePath(issue: v.BaseIssue<unknown>): string {
  let out = ''
  for (const item of issue.path ?? []) {
    const key = item.key
    out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`
  }
  return out
}

/**
 * Validates `input`, collecting one `{ in, path, message }` per offending field (unknown keys
 * included) instead of throwing, so that query and body problems are reported together.
 */
export function checkInput(schema: v.GenericSchema<unknown, unknown> | undefined, input: unknown, where: 'query' | 'body'): Checked {
  if (schema === undefined) return { ok: true, value: undefined }
  const result = v.safeParse(schema, input, { abortPipeEarly: true })
  if (result.success) return { ok: true, value: result.output }
  const seen = new Set<string>()
  const issues: ValidationIssue[] = []
  for (const issue of result.issues) {
    const path = issuePath(issue)
    if (seen.has(path)) continue
    seen.add(path)
    const unknownKey = issue.type === 'strict_object' && issue.expected === 'never'
    issues.push({ in: where, path, message: unknownKey ? `Unknown ${where === 'query' ? 'query parameter' : 'field'}` : issue.message })
  }
  return { ok: false, issues }
}

/**
 * The query string as a plain record, refusing a parameter given twice (400). `URLSearchParams`
 * has already replaced invalid UTF-8 with U+FFFD, so nothing here can throw on hostile input.
 */
export function queryRecord(url: URL): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  const repeated: ValidationIssue[] = []
  for (const [key, value] of url.searchParams) {
    if (key in out) {
      if (!repeated.some((issue) => issue.path === key)) {
        repeated.push({ in: 'query', path: key, message: 'A query parameter may be given only once' })
      }
      continue
    }
    out[key] = value
  }
  if (repeated.length > 0) throw validationError(repeated)
  return out
}
