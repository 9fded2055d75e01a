/**
 * Schema building blocks shared by every resource: identifiers, timestamps, envelopes and the
 * query-parameter parsers. Query parameters arrive as strings; each parser here turns one into its
 * typed value and carries the JSON Schema that the OpenAPI document shows for it.
 */
import * as v from 'valibot'

/**
 * A UUID of any version, compared case-insensitively (stored lower-case).
 *
 * @example
 * v.parse(UuidSchema, '3F2504E0-4F89-41D3-9A0C-0305E82C3301') // '3f2504e0-4f89-41d3-9a0c-0305e82c3301'
 */
export const UuidSchema = v.pipe(v.string(), v.uuid('Must be a UUID'), v.toLowerCase())
/**
 * The date-times the API reads, as a JSON Schema pattern: RFC 3339 as `Date.parse` reads it on every
 * runtime (`T`, seconds, an optional fraction, `Z` or a `±HH:MM` offset). valibot's `isoTimestamp` also
 * passes a space for the `T`, an hours-only offset (`+03`) and a space before the offset, which the
 * parser then refuses or misreads; so this pattern, not that one, is both the check and what the
 * OpenAPI document states (docs/api-behaviour.md).
 *
 * @example
 * new RegExp(DATE_TIME_PATTERN).test('2026-11-11T09:17:48+03:00') // true
 */
export const DATE_TIME_PATTERN =
  '^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,9})?' +
  '(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$'
const DATE_TIME = new RegExp(DATE_TIME_PATTERN)

/**
 * Whether `text` is a date-time the API reads: {@link DATE_TIME_PATTERN}, on a real calendar day.
 *
 * @example
 * isDateTime('2026-11-11T09:17:48Z') // true
 * isDateTime('2026-11-11T09:17:48+03') // false
 */
export function isDateTime(text: string): boolean {
  return DATE_TIME.test(text) && isCalendarDate(text)
}

/**
 * An ISO 8601 date-time as the API writes and reads it ({@link isDateTime}).
 *
 * @example
 * v.is(DateTimeSchema, '2026-01-15T09:30:00Z') // true
 * v.is(DateTimeSchema, '2026-02-30T09:30:00Z') // false: no such day
 */
export const DateTimeSchema = v.pipe(
  v.string(),
  v.check(isDateTime, 'Must be an ISO 8601 date-time such as 2026-01-15T09:30:00Z'),
  // Responses only (no request body takes one): they are `toISOString()`, so the format says enough.
  v.metadata({ format: 'date-time' }),
)
/**
 * A nullable date-time.
 *
 * @example
 * v.is(NullableDateTimeSchema, null) // true: a user who never logged in has `lastLogin: null`
 */
export const NullableDateTimeSchema = v.nullable(DateTimeSchema)
/**
 * `{ id, name }`: how one record names another.
 *
 * @example
 * v.parse(NamedRefSchema, { id: companyId, name: 'Acme' }) // a budget's `company`, a rule's `createdBy`
 */
export const NamedRefSchema = v.strictObject({ id: v.string(), name: v.nullable(v.string()) })
/**
 * A JSON object whose shape the API does not fix (trigger configs, action configs, report content).
 * Not `v.record`: that accepts an array and turns it into `{ "0": … }`. The OpenAPI generator shows
 * it as `{ "type": "object" }` (it recognises this schema by identity).
 *
 * @example
 * v.is(JsonObjectSchema, { cron: '0 9 * * 1' }) // true: a trigger config
 * v.is(JsonObjectSchema, ['0 9 * * 1']) // false: an array is not an object
 */
export const JsonObjectSchema = v.custom<Record<string, unknown>>(
  (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
  'Must be a JSON object',
)

/**
 * A finite JSON number (JSON has no NaN; `1e309` parses to Infinity and is refused here).
 *
 * @example
 * v.is(FiniteNumberSchema, JSON.parse('1e309')) // false: JSON's 1e309 parses to Infinity
 */
export const FiniteNumberSchema = v.pipe(v.number(), v.finite())

/**
 * The `pagination` object of every list response.
 *
 * @example
 * const { pagination } = v.parse(v.object({ pagination: PaginationSchema }), await response.json())
 * if (pagination.nextCursor !== null) next = await fetch(`${url}?cursor=${pagination.nextCursor}`)
 */
export const PaginationSchema = v.strictObject({
  page: v.pipe(v.number(), v.integer(), v.minValue(1)),
  limit: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)),
  totalCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  totalPages: v.pipe(v.number(), v.integer(), v.minValue(0)),
  hasNextPage: v.boolean(),
  hasPrevPage: v.boolean(),
  /** The cursor of the page after this one (`?cursor=`), null when nothing follows. */
  nextCursor: v.nullable(v.string()),
})
export type Pagination = v.InferOutput<typeof PaginationSchema>

/** `{ data }` around one resource. */
export function dataEnvelope<S extends v.GenericSchema>(schema: S) {
  return v.strictObject({ data: schema })
}

/** `{ data, pagination }` around a page of resources. */
export function listEnvelope<S extends v.GenericSchema>(schema: S) {
  return v.strictObject({ data: v.array(schema), pagination: PaginationSchema })
}

/**
 * The body of a DELETE.
 *
 * @example
 * v.parse(MessageSchema, await (await fetch(url, { method: 'DELETE', headers })).json()).message
 */
export const MessageSchema = v.strictObject({ message: v.string() })

// ---------------------------------------------------------------------------------------------
// Query parameters

/**
 * Marks a query-parameter parser with the JSON Schema it accepts (read by the OpenAPI generator).
 * The schema's type is written out, not named: the registry's declarations show it, and a name the
 * package does not export would make a consumer's inferred types unnameable (TS2742).
 */
function param<S extends v.GenericSchema<string, unknown>>(schema: S, json: Record<string, unknown>, description = '') {
  return v.pipe(schema, v.metadata({ param: json }), v.description(description))
}

const DIGITS = /^\d{1,16}$/

/** A decimal integer parameter within `min..max` (digits only: no sign, exponent or fraction). */
export function integerParam(min: number, max: number, description?: string) {
  return param(
    v.pipe(
      v.string(),
      v.regex(DIGITS, 'Must be a whole number written with digits only'),
      v.transform((digits: string) => Number(digits)),
      v.minValue(min, `Must be at least ${min}`),
      v.maxValue(max, `Must be at most ${max}`),
    ),
    { type: 'integer', minimum: min, maximum: max },
    description,
  )
}

/** `true` or `false`, nothing else. */
export function booleanParam(description?: string) {
  return param(
    v.pipe(
      v.string(),
      v.picklist(['true', 'false'], 'Must be true or false'),
      v.transform((s) => s === 'true'),
    ),
    { type: 'boolean' },
    description,
  )
}

/** One of a fixed set of strings. */
export function enumParam<const T extends readonly [string, ...string[]]>(values: T, description?: string) {
  return param(
    v.pipe(v.string(), v.picklist(values, `Must be one of: ${values.join(', ')}`)),
    { type: 'string', enum: [...values] },
    description,
  )
}

/** A free-text parameter of at most `max` characters. */
export function textParam(max: number, description?: string) {
  return param(
    v.pipe(v.string(), v.maxLength(max, `Must be at most ${max} characters`)),
    { type: 'string', maxLength: max },
    description,
  )
}

/** A UUID parameter. */
export function uuidParam(description?: string) {
  return param(
    v.pipe(v.string(), v.uuid('Must be a UUID'), v.toLowerCase()),
    { type: 'string', format: 'uuid' },
    description,
  )
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

/**
 * Whether the `YYYY-MM-DD` that a date or date-time starts with names a real day: `Date.parse`
 * quietly rolls `2025-02-30` over to March 2nd, and `isoTimestamp` checks only digit ranges.
 *
 * @example
 * isCalendarDate('2024-02-29T10:00:00Z') // true
 * isCalendarDate('2025-02-30') // false
 */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text)
  if (match === null) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  // Not `Date.UTC`: it takes years 0-99 as 1900-1999, so `0050-01-01` would be checked as 1950's.
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/**
 * What a date-or-date-time check here accepts, as the OpenAPI document states it: a real day
 * `YYYY-MM-DD`, or a real date-time as {@link DATE_TIME_PATTERN} states it.
 *
 * @example
 * v.metadata(DATE_OR_DATE_TIME_JSON)
 */
export const DATE_OR_DATE_TIME_JSON = {
  anyOf: [
    { type: 'string', format: 'date' },
    { type: 'string', format: 'date-time', pattern: DATE_TIME_PATTERN },
  ],
}

/**
 * Whether `text` is a real day `YYYY-MM-DD` or a date-time the API reads ({@link isDateTime}).
 *
 * @example
 * isDateOrDateTime('2026-01-15') // true
 */
export function isDateOrDateTime(text: string): boolean {
  return DATE_ONLY.test(text) ? isCalendarDate(text) : isDateTime(text)
}

/**
 * An RFC 3339 date-time (with `Z` or a `±HH:MM` offset), or a date `YYYY-MM-DD` meaning the start of that
 * UTC day (`bound: 'start'`) or its last millisecond (`bound: 'end'`), normalised to `toISOString()`.
 */
export function dateTimeParam(bound: 'start' | 'end', description?: string) {
  return param(
    v.pipe(
      v.string(),
      v.check(isDateOrDateTime, 'Must be an ISO 8601 date-time or date'),
      v.transform((s) => {
        const iso = DATE_ONLY.test(s) ? `${s}T${bound === 'start' ? '00:00:00.000' : '23:59:59.999'}Z` : s
        const time = Date.parse(iso)
        return Number.isNaN(time) ? null : new Date(time).toISOString()
      }),
      v.string('Must be a valid calendar date'),
    ),
    { type: 'string', ...DATE_OR_DATE_TIME_JSON },
    description,
  )
}

/** `page`, `limit` and `cursor`, shared by every list. */
export const paginationQuery = {
  page: v.optional(integerParam(1, Number.MAX_SAFE_INTEGER, 'Page number, from 1.'), '1'),
  limit: v.optional(integerParam(1, 100, 'Items per page, 1..100.'), '25'),
  cursor: v.optional(
    param(
      v.pipe(v.string(), v.minLength(1, 'Must not be empty'), v.maxLength(1024, 'Must be at most 1024 characters')),
      { type: 'string', minLength: 1, maxLength: 1024 },
      'The `nextCursor` of the previous page: the page after it (not with `page`).',
    ),
  ),
}

/** `sortOrder` of the lists that take `asc`/`desc`. */
export function sortOrderParam(defaultOrder: 'asc' | 'desc') {
  return v.optional(enumParam(['asc', 'desc'], 'Sort direction.'), defaultOrder)
}
