import * as v from 'valibot'
import { isPrecheck } from '../model/precheck.js'
import type { ValidationIssue } from './errors.js'

/**
 * At most this many problems are listed in one `VALIDATION_ERROR`. When more were found, one final
 * entry `{ in, path: '', message: 'and N more problems (at most 100 are listed)' }` counts the rest.
 */
const MAX_LISTED_PROBLEMS = 100
/** An echoed `path` or `message` is cut to this many bytes of JSON: both can carry the client's keys and strings. */
const MAX_ECHO_BYTES = 256
/**
 * Bytes of JSON that the problems listed for one part of a request (query or body) may take, so
 * that the two parts together stay well below 64 KiB whatever the input.
 */
const LIST_BUDGET_BYTES = 30 * 1024
/** `{"in":"header","path":"","message":""},` */
const ENTRY_OVERHEAD_BYTES = 39

type Where = ValidationIssue['in']

/**
 * The outcome of validating one part of a request. A failure's `issues` are ready to send: at
 * most {@link MAX_LISTED_PROBLEMS} problems, then, when `unlisted > 0`, the entry that counts them.
 */
export type Checked = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[]; unlisted: number }

/** Bytes that `text` takes as a JSON string in UTF-8, quotes left out; lone surrogates and controls are escaped. */
function jsonBytes(text: string, stopAfter = Number.POSITIVE_INFINITY): number {
  let bytes = 0
  for (let i = 0; i < text.length && bytes <= stopAfter; i++) bytes += unitBytes(text, i)
  return bytes
}

/** Bytes of the code unit at `i` as JSON (a surrogate pair counts 4 at its first unit, 0 at its second). */
function unitBytes(text: string, i: number): number {
  const c = text.charCodeAt(i)
  if (c === 0x22 || c === 0x5c) return 2
  if (c < 0x20) return 6
  if (c < 0x80) return 1
  if (c < 0x800) return 2
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = text.charCodeAt(i + 1)
    return next >= 0xdc00 && next <= 0xdfff ? 4 : 6
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const previous = text.charCodeAt(i - 1)
    return previous >= 0xd800 && previous <= 0xdbff ? 0 : 6
  }
  return 3
}

/**
 * `text` cut so that it takes at most {@link MAX_ECHO_BYTES} bytes as JSON, ending in `…` when cut.
 *
 * @example
 * clipText('x'.repeat(10_000)) // 253 x's and '…'
 */
export function clipText(text: string): string {
  if (text.length <= MAX_ECHO_BYTES / 6 || jsonBytes(text, MAX_ECHO_BYTES) <= MAX_ECHO_BYTES) return text
  const room = MAX_ECHO_BYTES - 3 // the ellipsis is 3 bytes of UTF-8
  let bytes = 0
  let end = 0
  while (end < text.length) {
    const size = unitBytes(text, end)
    // A surrogate pair is kept or dropped whole.
    const width = size === 4 ? 2 : 1
    if (bytes + size > room) break
    bytes += size
    end += width
  }
  return `${text.slice(0, end)}…`
}

/**
 * The problems as a `VALIDATION_ERROR` lists them: each `path` and `message` clipped, at most
 * {@link MAX_LISTED_PROBLEMS} of them and at most 30 KiB, then one entry counting the rest of
 * `total` (the problems found, which may be more than were kept).
 */
export function listProblems(
  problems: readonly ValidationIssue[],
  total = problems.length,
  where: Where = problems[0]?.in ?? 'body',
): { issues: ValidationIssue[]; unlisted: number } {
  const issues: ValidationIssue[] = []
  let bytes = 0
  for (const problem of problems) {
    if (issues.length === MAX_LISTED_PROBLEMS) break
    const issue = { in: problem.in, path: clipText(problem.path), message: clipText(problem.message) }
    bytes += ENTRY_OVERHEAD_BYTES + jsonBytes(issue.path) + jsonBytes(issue.message)
    if (bytes > LIST_BUDGET_BYTES) break
    issues.push(issue)
  }
  const unlisted = total - issues.length
  if (unlisted > 0) {
    const noun = unlisted === 1 ? 'problem' : 'problems'
    issues.push({
      in: problems[issues.length]?.in ?? where,
      path: '',
      message: `and ${unlisted} more ${noun} (at most ${MAX_LISTED_PROBLEMS} are listed)`,
    })
  }
  return { issues, unlisted }
}

/**
 * The details of one `VALIDATION_ERROR` for several checked parts (query and body): their listed
 * problems together, capped again as {@link listProblems} does, with every unlisted one counted.
 *
 * @example
 * const issues = validationIssues(query, body)
 * if (issues.length > 0) throw validationError(issues)
 */
export function validationIssues(...checks: Checked[]): ValidationIssue[] {
  const problems: ValidationIssue[] = []
  let total = 0
  for (const check of checks) {
    if (check.ok) continue
    const listed = check.unlisted > 0 ? check.issues.slice(0, -1) : check.issues
    problems.push(...listed)
    total += listed.length + check.unlisted
  }
  return total === 0 ? [] : listProblems(problems, total).issues
}

type PathKey = string | number

/** `conditions[0].field` from path keys. */
export function formatPath(keys: readonly PathKey[]): string {
  let out = ''
  for (const key of keys) out += typeof key === 'number' ? `[${key}]` : out === '' ? key : `.${key}`
  return out
}

/** One problem per path, counted past what is kept (a few more than are listed, so the rest can be counted). */
class Problems {
  readonly kept: ValidationIssue[] = []
  private readonly seen = new Set<string>()
  count = 0
  /** Set when a value was over its cap: its elements were not looked at, so the schema is not run. */
  overCap = false

  constructor(readonly where: Where) {}

  add(path: string, message: string): void {
    if (this.seen.has(path)) return
    this.seen.add(path)
    this.count++
    if (this.kept.length <= MAX_LISTED_PROBLEMS) this.kept.push({ in: this.where, path, message })
  }

  failure(): { ok: false; issues: ValidationIssue[]; unlisted: number } {
    return { ok: false, ...listProblems(this.kept, this.count, this.where) }
  }
}

/** The parts of a valibot schema that {@link scan} reads. */
interface SchemaNode {
  kind: string
  type: string
  pipe?: readonly SchemaNode[]
  entries?: Record<string, SchemaNode>
  item?: SchemaNode
  wrapped?: SchemaNode
  getter?: (input: unknown) => SchemaNode
  '~run'?: (dataset: { typed: boolean; value: unknown }, config: v.Config<never>) => { issues?: v.BaseIssue<unknown>[] }
}

const WRAPPERS = new Set([
  'optional',
  'exact_optional',
  'nullable',
  'nullish',
  'undefinedable',
  'non_optional',
  'non_nullable',
  'non_nullish',
])
const OBJECTS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest'])

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Whether `action` is a cap to check on the raw value before its elements: an array's
 * `maxLength`, or a `precheck` (src/model/precheck.ts). A string's `maxLength` is left to the schema, which checks
 * it before anything costly and reports it alongside the other problems.
 */
function isCap(action: SchemaNode, schema: SchemaNode, input: unknown): boolean {
  if (isPrecheck(action)) return true
  return action.type === 'max_length' && schema.type === 'array' && Array.isArray(input)
}

/**
 * Walks `input` along `schema` without validating it: reports each array over its cap (without
 * looking at its elements) and every unknown key of a strict object (valibot reports only the
 * first of each object). Costs one visit of the parts of `input` the schema names.
 */
function scan(schema: SchemaNode, input: unknown, keys: PathKey[], problems: Problems): void {
  if (schema.pipe !== undefined) {
    const schemas: SchemaNode[] = []
    for (const item of schema.pipe) {
      // After a transformation, the pipe's actions see another value than the raw input.
      if (item.kind === 'transformation') break
      if (item.kind === 'schema') {
        schemas.push(item)
        continue
      }
      if (item.kind !== 'validation' || !isCap(item, schema, input)) continue
      const dataset = item['~run']!({ typed: true, value: input }, v.getGlobalConfig({ abortPipeEarly: true }))
      const issue = dataset.issues?.[0]
      if (issue !== undefined) {
        problems.overCap = true
        problems.add(formatPath(keys), issue.message)
        return
      }
    }
    for (const inner of schemas) scan(inner, input, keys, problems)
    return
  }
  if (WRAPPERS.has(schema.type)) {
    if (input !== undefined && input !== null && schema.wrapped) scan(schema.wrapped, input, keys, problems)
  } else if (schema.type === 'lazy' && schema.getter) {
    scan(schema.getter(input), input, keys, problems)
  } else if (schema.type === 'array' && schema.item && Array.isArray(input)) {
    for (let i = 0; i < input.length; i++) {
      keys.push(i)
      scan(schema.item, input[i], keys, problems)
      keys.pop()
    }
  } else if (OBJECTS.has(schema.type) && schema.entries && isRecord(input)) {
    const strict = schema.type === 'strict_object'
    for (const key of Object.keys(input)) {
      keys.push(key)
      if (Object.hasOwn(schema.entries, key)) scan(schema.entries[key]!, input[key], keys, problems)
      else if (strict) problems.add(formatPath(keys), unknownKeyMessage(problems.where))
      keys.pop()
    }
  }
}

function unknownKeyMessage(where: Where): string {
  return `Unknown ${where === 'query' ? 'query parameter' : 'field'}`
}

/**
 * Validates `input`, collecting one `{ in, path, message }` per offending field (every unknown key
 * included) instead of throwing, so that query and body problems are reported together. Caps come
 * first: an array over its `maxLength` (or a failed `precheck` (src/model/precheck.ts)) is reported without any of
 * its elements being validated, and then the schema does not run, so neither the work nor the
 * answer grows with what is past the cap. At most {@link MAX_LISTED_PROBLEMS} problems are listed.
 */
export function checkInput(
  schema: v.GenericSchema<unknown, unknown> | undefined,
  input: unknown,
  where: Where,
): Checked {
  if (schema === undefined) return { ok: true, value: undefined }
  const problems = new Problems(where)
  const value = collectProblems(schema, input, problems)
  return problems.count === 0 ? { ok: true, value } : problems.failure()
}

/**
 * {@link checkInput}'s work, adding to `problems` (one per whole path: two names that differ only
 * past what a listing shows are two problems); the parsed value when the schema passed.
 */
function collectProblems(schema: v.GenericSchema<unknown, unknown>, input: unknown, problems: Problems): unknown {
  scan(schema as unknown as SchemaNode, input, [], problems)
  if (problems.overCap) return undefined
  const result = v.safeParse(schema, input, { abortPipeEarly: true })
  if (result.success) return result.output
  for (const issue of result.issues) {
    const unknownKey = issue.type === 'strict_object' && issue.expected === 'never'
    const keys = (issue.path ?? []).map((item) => (typeof item.key === 'number' ? item.key : String(item.key)))
    problems.add(formatPath(keys), unknownKey ? unknownKeyMessage(problems.where) : issue.message)
  }
  return undefined
}

/**
 * Decodes one `application/x-www-form-urlencoded` component strictly; `null` when it is not valid
 * percent-encoded UTF-8.
 */
function decodeComponent(text: string): string | null {
  // Most names and values are plain (`limit=25`): nothing to decode.
  if (!text.includes('%') && !text.includes('+')) return text
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return null
  }
}

/** Keys refused anywhere in a body or query: they could reach an object's prototype. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/** Whether a string holds what no database stores faithfully: NUL, or an unpaired surrogate. */
export function isUnsafeText(text: string): boolean {
  return text.includes('\u0000') || !text.isWellFormed()
}

/**
 * The strings {@link isUnsafeText} refuses, as JSON Schema patterns (ECMA-262 read with the `u` flag,
 * as JSON Schema reads patterns, so a paired surrogate is one character): the OpenAPI document puts
 * both on every free-form string of a request, under `allOf`. Two patterns, not one: validators built
 * on RE2 or Rust's `regex` cannot compile a surrogate range and drop the pattern that has one; apart,
 * they still keep the NUL rule.
 */
export const SAFE_TEXT_PATTERNS: readonly [noNul: string, noLoneSurrogate: string] = [
  '^[^\\u0000]*$',
  '^[^\\uD800-\\uDFFF]*$',
]

/**
 * The query as a record, every malformed or repeated parameter reported to `problems` and left out.
 * `URLSearchParams` would quietly turn `%FF` into U+FFFD and keep a broken `%E0%A4%A` as text, so a
 * filter would silently match something else; the raw query is decoded here instead, strictly.
 */
function decodeQuery(url: URL, problems: Problems): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  for (const pair of url.search.slice(1).split('&')) {
    if (pair === '') continue
    const separator = pair.indexOf('=')
    const rawName = separator === -1 ? pair : pair.slice(0, separator)
    const rawValue = separator === -1 ? '' : pair.slice(separator + 1)
    const name = decodeComponent(rawName)
    // The raw name of a URL's query is ASCII (the URL parser percent-encodes the rest), so it is safe to echo.
    if (name === null) {
      problems.add(rawName, 'The parameter name is not valid percent-encoded UTF-8')
      continue
    }
    const value = decodeComponent(rawValue)
    if (value === null) {
      problems.add(name, 'The value is not valid percent-encoded UTF-8')
      continue
    }
    if (name in out) {
      problems.add(name, 'A query parameter may be given only once')
      continue
    }
    out[name] = value
  }
  return out
}

const EMPTY_QUERY = v.strictObject({})

/**
 * The whole query checked at once: malformed and repeated parameters, NUL characters and
 * prototype keys, unknown parameters and values out of their constraints, all reported together.
 *
 * @example
 * const query = checkQuery(url, operation.query)
 * if (query.ok) use(query.value)
 */
export function checkQuery(url: URL, schema: v.GenericSchema<unknown, unknown> | undefined): Checked {
  const problems = new Problems('query')
  const record = decodeQuery(url, problems)
  for (const [name, value] of Object.entries(record)) {
    let message: string | undefined
    if (FORBIDDEN_KEYS.has(name)) message = 'This key is not allowed'
    else if (isUnsafeText(name) || isUnsafeText(value))
      message = 'Strings must be well-formed Unicode without NUL characters'
    if (message === undefined) continue
    problems.add(name, message)
    delete record[name]
  }
  // The same Problems: each distinct name counts once, by the whole name (a listing clips it for display only).
  const value = collectProblems(schema ?? EMPTY_QUERY, record, problems)
  return problems.count === 0 ? { ok: true, value } : problems.failure()
}
