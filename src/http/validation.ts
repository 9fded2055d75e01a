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
export function checkInput(
  schema: v.GenericSchema<unknown, unknown> | undefined,
  input: unknown,
  where: 'query' | 'body',
): Checked {
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
    issues.push({
      in: where,
      path,
      message: unknownKey ? `Unknown ${where === 'query' ? 'query parameter' : 'field'}` : issue.message,
    })
  }
  return { ok: false, issues }
}

/** Decodes one `application/x-www-form-urlencoded` component strictly; `null` when it is not valid percent-encoded UTF-8. */
function decodeComponent(text: string): string | null {
  // Most names and values are plain (`limit=25`): nothing to decode.
  if (!text.includes('%') && !text.includes('+')) return text
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return null
  }
}

/**
 * The query string as a plain record, refusing a parameter given twice and any name or value that
 * is not valid percent-encoded UTF-8 (400). `URLSearchParams` would quietly turn `%FF` into
 * U+FFFD and keep a broken `%E0%A4%A` as text, so a filter would silently match something else;
 * the raw query is decoded here instead, strictly.
 */
export function queryRecord(url: URL): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  const issues: ValidationIssue[] = []
  const report = (path: string, message: string) => {
    if (!issues.some((issue) => issue.path === path && issue.message === message))
      issues.push({ in: 'query', path, message })
  }
  for (const pair of url.search.slice(1).split('&')) {
    if (pair === '') continue
    const separator = pair.indexOf('=')
    const rawName = separator === -1 ? pair : pair.slice(0, separator)
    const rawValue = separator === -1 ? '' : pair.slice(separator + 1)
    const name = decodeComponent(rawName)
    // The raw name of a URL's query is ASCII (the URL parser percent-encodes the rest), so it is safe to echo.
    if (name === null) {
      report(rawName, 'The parameter name is not valid percent-encoded UTF-8')
      continue
    }
    const value = decodeComponent(rawValue)
    if (value === null) {
      report(name, 'The value is not valid percent-encoded UTF-8')
      continue
    }
    if (name in out) {
      report(name, 'A query parameter may be given only once')
      continue
    }
    out[name] = value
  }
  if (issues.length > 0) throw validationError(issues)
  return out
}
