/**
 * The date-times the API reads (src/model/shared.ts): what the check passes, the parser reads, and the
 * OpenAPI document's pattern states the same set, so a generated client never sends a date-time the
 * API refuses, and no date-time passes the check only to be misread.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DATE_TIME_PATTERN, isDateOrDateTime, isDateTime } from '../../src/model/shared.js'
import { createOpenApiDocument } from '../../src/openapi/document.js'

const pattern = new RegExp(DATE_TIME_PATTERN, 'u')

describe('date-times', () => {
  it('takes RFC 3339 with Z or a ±HH:MM offset, and what it takes Date.parse reads', () => {
    const two = (n: number) => String(n).padStart(2, '0')
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        fc.boolean(),
        (date, offset, zulu) => {
          const iso = date.toISOString()
          const sign = offset < 0 ? '-' : '+'
          const text = zulu
            ? iso
            : `${iso.slice(0, -1)}${sign}${two(Math.trunc(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`
          expect(isDateTime(text), text).toBe(true)
          expect(pattern.test(text), text).toBe(true)
          expect(Number.isNaN(Date.parse(text)), text).toBe(false)
        },
      ),
    )
  })

  it('refuses what valibot isoTimestamp passes but the parser cannot read, and days that do not exist', () => {
    const refused = [
      '2026-11-11T09:17:48+03',
      '2026-11-11T09:17:48 +03:00',
      '2026-11-11 09:17:48Z',
      '2026-11-11T09:17:48+0300',
      '2026-11-11T09:17Z',
      '2026-11-11t09:17:48z',
      '2026-02-30T00:00:00Z',
      '2026-11-11T24:00:00Z',
      '2026-11-11T09:17:48.1234567890Z',
    ]
    for (const text of refused) expect(isDateTime(text), text).toBe(false)
    expect(isDateOrDateTime('2024-02-29')).toBe(true)
    expect(isDateOrDateTime('2025-02-29')).toBe(false)
  })

  it('is stated in the OpenAPI document wherever a request takes a date-time', () => {
    const found: string[] = []
    const walk = (node: unknown, where: string): void => {
      if (typeof node !== 'object' || node === null) return
      const schema = node as { format?: unknown; pattern?: unknown }
      if (schema.format === 'date-time') {
        found.push(where)
        expect(schema.pattern, where).toBe(DATE_TIME_PATTERN)
      }
      for (const [key, inner] of Object.entries(node)) walk(inner, `${where}.${key}`)
    }
    for (const [path, methods] of Object.entries(createOpenApiDocument().paths as Record<string, object>))
      for (const [method, operation] of Object.entries(methods as Record<string, Record<string, unknown>>)) {
        walk(operation.parameters, `${method} ${path} parameters`)
        walk(operation.requestBody, `${method} ${path} body`)
      }
    expect(found.length).toBeGreaterThan(0)
  })
})
