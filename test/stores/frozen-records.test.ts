/**
 * Reply bodies reuse the JSON text of deep-frozen records (frozen-records.ts). The serialiser must
 * still return exactly what JSON.stringify returns, for anything an operation may put in a body.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { stringifyReply, stringifyReplyAsString } from '../../src/http/reply-json.js'
import { deepFreeze, frozenFromJson } from '../../src/model/frozen-records.js'
import { awkwardJsonValue } from '../support/awkward-json.js'

const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, fc.jsonValue(), awkwardJsonValue, tie('array'), tie('object')),
  array: fc.array(tie('any'), { maxLength: 5 }),
  object: fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'toJSON', '0', '10', 'data')), tie('any'), {
    maxKeys: 5,
  }),
})).any

describe('stringifyReply', () => {
  it('returns what JSON.stringify returns, for any value, frozen or not', () => {
    fc.assert(
      fc.property(value, fc.boolean(), (input, freeze) => {
        const expected = JSON.stringify(input) ?? 'null'
        const envelope = { data: input, pagination: { page: 1 } }
        if (freeze && !(typeof input === 'object' && input !== null && Object.isFrozen(input))) {
          try {
            deepFreeze(input)
          } catch {
            // exotic values (a Date) freeze fine; anything else is left as it is
          }
        }
        expect(stringifyReply(input)).toBe(expected)
        expect(stringifyReply(envelope)).toBe(JSON.stringify(envelope))
        // A second time, from the remembered text.
        expect(stringifyReply(envelope)).toBe(JSON.stringify(envelope))
      }),
      { numRuns: 500 },
    )
  })

  it('does not trust freezing where it does not make a value immutable (a Date)', () => {
    const record = deepFreeze({ at: new Date(0) })
    expect(stringifyReply({ data: record })).toBe('{"data":{"at":"1970-01-01T00:00:00.000Z"}}')
    record.at.setTime(1000)
    expect(stringifyReply({ data: record })).toBe('{"data":{"at":"1970-01-01T00:00:01.000Z"}}')
  })

  it('does not cache what holds a function (a toJSON may answer differently each time)', () => {
    let calls = 0
    const record = deepFreeze({ at: { toJSON: () => ++calls } })
    expect(stringifyReply({ data: record })).toBe('{"data":{"at":1}}')
    expect(stringifyReply({ data: record })).toBe('{"data":{"at":2}}')
  })

  it('reuses the stored text of a record read from JSON, and the record is frozen', () => {
    const text = JSON.stringify({ id: 't-1', title: 'Printer jam', tags: ['a', 'b'], nested: { n: 1 } })
    const record = frozenFromJson<{ nested: { n: number } }>(text)
    expect(Object.isFrozen(record) && Object.isFrozen(record.nested)).toBe(true)
    expect(stringifyReply({ data: [record, record] })).toBe(`{"data":[${text},${text}]}`)
    // The very text given is reused, not a fresh serialisation (seen when the text is not canonical).
    const spaced = '{ "id": "t-2" }'
    expect(stringifyReply({ data: [frozenFromJson(spaced)] })).toBe(`{"data":[${spaced}]}`)
  })
})

describe('stringifyReplyAsString', () => {
  /** What the MCP endpoint's text block must hold: the reply's JSON as a JSON string, without its quotes. */
  const asString = (input: unknown) => JSON.stringify(stringifyReply(input)).slice(1, -1)

  it('is the reply body written as the contents of a JSON string, for any value, frozen or not', () => {
    fc.assert(
      fc.property(value, fc.boolean(), (input, freeze) => {
        if (freeze) {
          try {
            deepFreeze(input)
          } catch {
            // as above: what cannot be frozen is left as it is
          }
        }
        const envelope = { data: [input, input], pagination: { page: 1, next: 'a"b\\c' } }
        expect(stringifyReplyAsString(input)).toBe(asString(input))
        expect(stringifyReplyAsString(envelope)).toBe(asString(envelope))
        // A second time, from the remembered escaped texts.
        expect(stringifyReplyAsString(envelope)).toBe(asString(envelope))
        expect(JSON.parse(`"${stringifyReplyAsString(envelope)}"`)).toBe(stringifyReply(envelope))
      }),
      { numRuns: 500 },
    )
  })

  it('reuses the text a record was read from, escaped once', () => {
    const spaced = '{ "id": "t-\u00e9\\n", "note": "say \\"hi\\"" }'
    const record = frozenFromJson(spaced)
    const body = { data: [record, record] }
    expect(stringifyReplyAsString(body)).toBe(JSON.stringify(`{"data":[${spaced},${spaced}]}`).slice(1, -1))
  })
})
