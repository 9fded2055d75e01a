/**
 * A deep-frozen record carries its JSON text itself (src/model/stored-text.ts): visible on the
 * record, never enumerated, and left behind by every copy, so a copy never replies with a stale text.
 */
import { describe, expect, it } from 'vitest'
import { stringifyReply } from '../../src/http/reply-json.js'
import { deepFreeze, frozenFromJson } from '../../src/model/frozen-records.js'
import { storedJsonText, storedStringText, storedTextOf } from '../../src/model/stored-text.js'

const KEY = Symbol.for('tenant-public-api.stored-text')

describe('stored text', () => {
  it('is an own, non-enumerable property of what deepFreeze makes immutable, down to nested data', () => {
    const record = deepFreeze({ id: 't-1', tags: ['a'], nested: { n: 1 } })
    for (const value of [record, record.tags, record.nested]) {
      expect(Object.getOwnPropertySymbols(value)).toEqual([KEY])
      expect(Object.getOwnPropertyDescriptor(value, KEY)?.enumerable).toBe(false)
      expect(storedTextOf(value)?.record).toBe(value)
    }
    expect(Object.keys(record)).toEqual(['id', 'tags', 'nested'])
    expect(record).toEqual({ id: 't-1', tags: ['a'], nested: { n: 1 } })
    expect(storedJsonText(record)).toBe(JSON.stringify(record))
    expect(storedStringText(record)).toBe(JSON.stringify(JSON.stringify(record)).slice(1, -1))
  })

  it('holds the very text a record was parsed from', () => {
    const spaced = '{ "id": "t-2" }'
    const record = frozenFromJson<object>(spaced)
    expect(storedTextOf(record)?.json).toBe(spaced)
    expect(storedJsonText(record)).toBe(spaced)
  })

  it('is not given to what may change (a Date, what holds a function, a class instance)', () => {
    const withDate = deepFreeze({ at: new Date(0) })
    const withFunction = deepFreeze({ at: { toJSON: () => 1 } })
    class Point {
      x = 1
    }
    const instance = deepFreeze(new Point())
    for (const value of [withDate, withDate.at, withFunction, instance]) {
      expect(Object.getOwnPropertySymbols(value)).toEqual([])
      expect(storedJsonText(value)).toBeUndefined()
    }
    // What holds no function is still immutable inside what does.
    expect(storedJsonText(deepFreeze({ a: { b: 1 }, f: () => 1 }).a)).toBe('{"b":1}')
  })

  it('is left behind by copies, which may change', () => {
    const record = frozenFromJson<{ id: string; title?: string }>('{"id":"t-3"}')
    expect(stringifyReply({ data: record })).toBe('{"data":{"id":"t-3"}}')
    const spread = { ...record, title: 'changed' }
    const cloned = structuredClone(record)
    const assigned = Object.assign({}, record)
    for (const copy of [spread, cloned, assigned]) expect(Object.getOwnPropertySymbols(copy)).toEqual([])
    expect(stringifyReply({ data: spread })).toBe('{"data":{"id":"t-3","title":"changed"}}')
  })

  it('is not taken for its record by an object that reaches it otherwise', () => {
    const record = deepFreeze({ id: 't-4' })
    expect(storedJsonText(record)).toBe('{"id":"t-4"}')
    const child = Object.create(record) as { id: string; extra?: number }
    const described = Object.defineProperties({}, Object.getOwnPropertyDescriptors(record)) as { extra?: number }
    described.extra = 1
    expect(storedJsonText(child)).toBeUndefined()
    expect(storedJsonText(described)).toBeUndefined()
    expect(stringifyReply({ data: described })).toBe('{"data":{"id":"t-4","extra":1}}')
    // Freezing such a copy leaves it uncached rather than trusting the holder it carries.
    expect(storedJsonText(deepFreeze(described))).toBeUndefined()
  })
})
