/**
 * The key format of docs/api-keys.md against known vectors: CRC-32 (IEEE, as zlib), SHA-256 as
 * node:crypto computes it, and the checksum that lets a resolver refuse a mistyped key unread.
 */
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  constantTimeEqual,
  crc32,
  hashKey,
  isKeyPrefix,
  isWellFormedKey,
  newKeyToken,
} from '../../src/http/api-key-token.js'

describe('the API key format', () => {
  it('computes CRC-32 (IEEE 802.3) as zlib does on its check vectors', () => {
    expect(crc32('123456789')).toBe(0xcbf43926)
    expect(crc32('')).toBe(0)
    expect(crc32('The quick brown fox jumps over the lazy dog')).toBe(0x414fa339)
    expect(crc32('a')).toBe(0xe8b7be43)
  })

  it('hashes a key to the lower-case hex SHA-256 that node:crypto gives', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), async (text) => {
        expect(await hashKey(text)).toBe(createHash('sha256').update(text).digest('hex'))
      }),
      { numRuns: 50 },
    )
  })

  it('makes keys of prefix, 32 random base62 characters and a 6-character checksum, all different', () => {
    const keys = new Set(Array.from({ length: 2_000 }, () => newKeyToken('tpa')))
    expect(keys.size).toBe(2_000)
    for (const key of keys) {
      expect(key).toMatch(/^tpa_[0-9A-Za-z]{38}$/)
      expect(isWellFormedKey('tpa', key)).toBe(true)
    }
    // Every base62 character shows up in the random part: the alphabet is used whole.
    const seen = new Set([...keys].flatMap((key) => [...key.slice(4, 36)]))
    expect(seen.size).toBe(62)
  })

  it('refuses any single-character change, another prefix, length or alphabet', () => {
    const key = newKeyToken('acme')
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
    for (let i = 5; i < key.length; i++) {
      for (const c of alphabet) {
        if (c === key[i]) continue
        expect(isWellFormedKey('acme', `${key.slice(0, i)}${c}${key.slice(i + 1)}`)).toBe(false)
      }
    }
    expect(isWellFormedKey('tpa', key)).toBe(false)
    expect(isWellFormedKey('acme', `${key}x`)).toBe(false)
    expect(isWellFormedKey('acme', key.slice(0, -1))).toBe(false)
    expect(isWellFormedKey('acme', `${key.slice(0, 10)}-${key.slice(11)}`)).toBe(false)
    expect(isWellFormedKey('acme', key)).toBe(true)
  })

  it('accepts prefixes of 1..20 letters and digits starting with a letter', () => {
    for (const prefix of ['t', 'tpa', 'Acme2', 'a'.repeat(20)]) expect(isKeyPrefix(prefix)).toBe(true)
    for (const prefix of ['', '2fa', 'tp_a', 'tpa-', 'a'.repeat(21), 'tpä']) expect(isKeyPrefix(prefix)).toBe(false)
  })

  it('compares strings for equality', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => constantTimeEqual(a, b) === (a === b)))
    expect(constantTimeEqual('abc', 'abc')).toBe(true)
    expect(constantTimeEqual('abc', 'abd')).toBe(false)
    expect(constantTimeEqual('abc', 'ab')).toBe(false)
  })
})
