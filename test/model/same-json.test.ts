/**
 * Change detection compares fields with sameJson instead of their JSON text: it must agree with
 * `JSON.stringify(a) === JSON.stringify(b)` on anything a record may hold.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { changeOf } from '../../src/model/events.js'
import { sameJson } from '../../src/model/same-json.js'
import { awkwardJsonValue } from '../support/awkward-json.js'

const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, fc.jsonValue(), awkwardJsonValue, tie('array'), tie('object')),
  array: fc.array(tie('any'), { maxLength: 4 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'toJSON', '0', '__proto__'), tie('any'), { maxKeys: 4 }),
})).any

/** Arrays and objects with the plain or no prototype: the values `copy` copies and `changed` walks into. */
function copyable(input: unknown): input is Record<string, unknown> {
  if (input === null || typeof input !== 'object') return false
  const proto = Object.getPrototypeOf(input)
  return Array.isArray(input) || proto === Object.prototype || proto === null
}

/** A deep copy of arrays and plain objects (other values kept as they are), so equal text comes from other objects. */
function copy(input: unknown): unknown {
  if (Array.isArray(input)) return Array.from(input, copy)
  if (!copyable(input)) return input
  const out = Object.create(Object.getPrototypeOf(input)) as Record<string, unknown>
  for (const [key, member] of Object.entries(input))
    Object.defineProperty(out, key, { value: copy(member), enumerable: true, writable: true, configurable: true })
  return out
}

/** The copy with one leaf changed along `path` (indexes into the members met on the way). */
function changed(input: unknown, path: number[], replacement: unknown): unknown {
  const out = copy(input)
  if (!copyable(out)) return out
  let parent = out
  for (const step of path) {
    const keys = Object.keys(parent)
    if (keys.length === 0) return out
    const key = keys[step % keys.length]!
    if (step % 3 === 0 || !copyable(parent[key])) {
      parent[key] = replacement
      return out
    }
    parent = parent[key] as Record<string, unknown>
  }
  return out
}

const agrees = (a: unknown, b: unknown) => sameJson(a, b) === (JSON.stringify(a) === JSON.stringify(b))

describe('sameJson', () => {
  it('agrees with comparing JSON text: a value and a deep copy of it', () => {
    fc.assert(
      fc.property(value, (a) => sameJson(a, copy(a)) && agrees(a, copy(a))),
      { numRuns: 500 },
    )
  })

  it('agrees with comparing JSON text: a value and a copy with one member changed', () => {
    fc.assert(
      fc.property(value, fc.array(fc.nat(), { maxLength: 4 }), value, (a, path, replacement) =>
        agrees(a, changed(a, path, replacement)),
      ),
      { numRuns: 1000 },
    )
  })

  it('agrees with comparing JSON text: two independent values', () => {
    fc.assert(fc.property(value, value, agrees), { numRuns: 1000 })
  })

  it('keeps what JSON keeps: key order, null in arrays for undefined, members left out for undefined', () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false)
    expect(sameJson([undefined], [null])).toBe(true)
    expect(sameJson({ a: undefined, b: 1 }, { b: 1 })).toBe(true)
    expect(sameJson({ a: null }, {})).toBe(false)
    expect(sameJson(new Date(0), '1970-01-01T00:00:00.000Z')).toBe(true)
    expect(sameJson(new Number(1), new Number(2))).toBe(false)
  })

  it('drives changeOf: previous holds exactly the fields whose JSON differs', () => {
    const before = { id: 'r', name: 'A', conditions: [{ field: 'x', values: [1, 2] }], tags: undefined }
    const after = { id: 'r', name: 'A', conditions: [{ field: 'x', values: [1, 3] }], tags: [] }
    expect(changeOf('automation_rule', 'r', before, after)?.previous).toEqual({
      conditions: before.conditions,
      tags: null,
    })
    expect(changeOf('automation_rule', 'r', before, copy(before) as typeof before)).toBeNull()
  })

  it('drives changeOf: every key of either side once, before its own and then the new ones, as JSON decides', () => {
    const record = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'toJSON', 'constructor'), value, { maxKeys: 5 })
    /** The fields whose JSON text differs, by the text itself, over the union of both sides' own keys. */
    const reference = (before: Record<string, unknown>, after: Record<string, unknown>) => {
      const previous: Record<string, unknown> = {}
      for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
        const [was, is] = [before, after].map((side) => (Object.hasOwn(side, key) ? side[key] : undefined))
        if (JSON.stringify(was) !== JSON.stringify(is)) previous[key] = was ?? null
      }
      return Object.keys(previous).length === 0 ? null : previous
    }
    fc.assert(
      fc.property(record, record, fc.array(fc.nat(), { maxLength: 3 }), value, (a, b, path, replacement) => {
        for (const after of [b, changed(a, path, replacement) as Record<string, unknown>, copy(a)])
          expect(changeOf('automation_rule', 'r', a, after as Record<string, unknown>)?.previous ?? null).toEqual(
            reference(a, after as Record<string, unknown>),
          )
      }),
      { numRuns: 1000 },
    )
  })
})
