/**
 * The byte size a store gives an event page's events (docs/extensions.md, section 3): `utf8Length`
 * of JSON text agrees with its UTF-8 encoding for any string, lone surrogates escaped as JSON does.
 */
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { utf8Length } from '../../src/stores/event-feed.js'

it('utf8Length of JSON text is the length of its UTF-8 encoding', () => {
  const utf8 = new TextEncoder()
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.jsonValue()), (value) => {
      const text = JSON.stringify(value)
      expect(utf8Length(text)).toBe(utf8.encode(text).length)
    }),
  )
  expect(utf8Length('aé€😀')).toBe(1 + 2 + 3 + 4)
})
