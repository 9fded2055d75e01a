/**
 * The shape of an API key (docs/api-keys.md): `<prefix>_` + 32 random base62 characters + a
 * 6-character base62 CRC32 of those 32, as GitHub's tokens are made. The checksum lets a resolver
 * refuse a mistyped or made-up token without a store read, and lets secret scanners recognise a
 * real key. Web Crypto only (`crypto.getRandomValues`, `crypto.subtle`): the core runs on Node,
 * Bun, Deno and edge runtimes alike.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** Random characters in a key: 32 base62 characters, about 190 bits. */
const RANDOM_LENGTH = 32
/** Base62 characters of the checksum: 62^6 > 2^32, so any CRC32 fits. */
const CHECKSUM_LENGTH = 6
/** How many characters of a key are kept for display. */
export const KEY_START_LENGTH = 12
const PREFIX = /^[A-Za-z][A-Za-z0-9]{0,19}$/

/**
 * Whether `prefix` can start a key: 1..20 ASCII letters and digits, starting with a letter.
 *
 * @example
 * isKeyPrefix('tpa') // true
 */
export function isKeyPrefix(prefix: string): boolean {
  return PREFIX.test(prefix)
}

// CRC-32 (IEEE 802.3, as zlib computes it), by hand: Node's zlib.crc32 is Node-only and needs
// Node 22, and the check is ten lines over a 256-entry table.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/**
 * The CRC-32 of an ASCII string.
 *
 * @example
 * crc32('123456789') // 0xcbf43926
 */
export function crc32(text: string): number {
  let crc = 0xffffffff
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

/** `value` in base62, left-padded with `0` to `length` characters. */
function base62(value: number, length: number): string {
  let out = ''
  for (let rest = value; out.length < length; rest = Math.floor(rest / 62)) out = BASE62[rest % 62] + out
  return out
}

/** `length` uniformly random base62 characters (bytes of 248 and above are redrawn: no modulo bias). */
function randomBase62(length: number): string {
  let out = ''
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62]
    }
  }
  return out
}

/**
 * A new key with `prefix`: `<prefix>_` + 32 random base62 characters + their base62 CRC32.
 *
 * @example
 * newKeyToken('tpa') // 'tpa_3kTq9Zx1…' (43 characters)
 */
export function newKeyToken(prefix: string): string {
  const random = randomBase62(RANDOM_LENGTH)
  return `${prefix}_${random}${base62(crc32(random), CHECKSUM_LENGTH)}`
}

const BODY = new RegExp(`^[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`)

/**
 * Whether `token` has the shape of a key with `prefix` and a checksum that matches: what a resolver
 * checks before it reads the store.
 *
 * @example
 * isWellFormedKey('tpa', newKeyToken('tpa')) // true
 */
export function isWellFormedKey(prefix: string, token: string): boolean {
  if (token.length !== prefix.length + 1 + RANDOM_LENGTH + CHECKSUM_LENGTH) return false
  if (!token.startsWith(`${prefix}_`)) return false
  const body = token.slice(prefix.length + 1)
  if (!BODY.test(body)) return false
  const random = body.slice(0, RANDOM_LENGTH)
  return body.slice(RANDOM_LENGTH) === base62(crc32(random), CHECKSUM_LENGTH)
}

/**
 * The lower-case hex SHA-256 of a key: all a store keeps of it.
 *
 * @example
 * await hashKey(token) // '9f86d0…' (64 characters)
 */
export async function hashKey(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)))
  let hex = ''
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0')
  return hex
}

/**
 * Whether two strings are equal, in time that depends only on their length: for comparing a stored
 * hash with a computed one, so the time taken tells an attacker nothing about how much matched.
 *
 * @example
 * constantTimeEqual(record.hash, await hashKey(token))
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}
