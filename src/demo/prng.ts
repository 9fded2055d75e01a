/**
 * A small seeded PRNG (sfc32) and the helpers the demo generator draws with. Everything the demo
 * data contains comes from here, so one seed always gives byte-identical data.
 */

/** A source of uniform 32-bit unsigned integers. */
export interface Rng {
  /** The next uniform 32-bit unsigned integer. */
  u32(): number
  /** A float in [0, 1). */
  next(): number
  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number
  /** True with probability `p`. */
  chance(p: number): boolean
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T
  /** One element of a non-empty list, chosen by `weights` (same length, positive sum). */
  weighted<T>(items: readonly T[], weights: readonly number[]): T
  /** A v4 UUID, lower-case. */
  uuid(): string
}

/**
 * A bijective 32-bit mix (murmur3's finaliser): distinct inputs give distinct outputs, so ids that
 * embed `fmix32(index)` can never collide.
 *
 * @example
 * fmix32(1) !== fmix32(2) // always
 */
export function fmix32(value: number): number {
  let h = value >>> 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/**
 * Hashes a string to 32 bits (FNV-1a then {@link fmix32}); used to derive independent streams.
 *
 * @example
 * hashString('tickets') // a fixed 32-bit number
 */
export function hashString(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return fmix32(h)
}

// Byte-to-hex table: formatting ids is the generator's hottest path, and toString(16) is slow.
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))
const hex = (w: number, byte: number): string => HEX[(w >>> (byte * 8)) & 0xff] as string
const hex8 = (w: number): string => hex(w, 3) + hex(w, 2) + hex(w, 1) + hex(w, 0)

/**
 * Formats four 32-bit words as a v4 UUID (version nibble 4, variant 10xx), lower-case.
 *
 * @example
 * uuidFromWords(0, 0, 0, 0) // '00000000-0000-4000-8000-000000000000'
 */
export function uuidFromWords(w0: number, w1: number, w2: number, w3: number): string {
  const version = ((w1 & 0xffff0fff) | 0x00004000) >>> 0
  const variant = ((w2 & 0x3fffffff) | 0x80000000) >>> 0
  return (
    `${hex8(w0)}-${hex(version, 3)}${hex(version, 2)}-${hex(version, 1)}${hex(version, 0)}-` +
    `${hex(variant, 3)}${hex(variant, 2)}-${hex(variant, 1)}${hex(variant, 0)}${hex8(w3)}`
  )
}

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): 128 bits of state, passes PractRand,
 * a handful of integer operations per draw. A class so one instance can be re-seeded per ticket
 * without allocating.
 *
 * @example
 * const rng = new Sfc32(42, 0, 0, 0)
 * rng.int(1, 6) // a die roll, the same one every time
 */
export class Sfc32 implements Rng {
  private a = 0
  private b = 0
  private c = 0
  private d = 0

  constructor(seedA: number, seedB: number, seedC: number, seedD: number) {
    this.reseed(seedA, seedB, seedC, seedD)
  }

  /** Starts over from a new seed (and warms up, so similar seeds diverge at once). */
  reseed(seedA: number, seedB: number, seedC: number, seedD: number): this {
    this.a = seedA >>> 0
    this.b = seedB >>> 0
    this.c = seedC >>> 0
    this.d = seedD >>> 0
    for (let i = 0; i < 12; i++) this.u32()
    return this
  }

  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0
    this.d = (this.d + 1) >>> 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) >>> 0
    const c = (this.c << 21) | (this.c >>> 11)
    this.c = (c + t) >>> 0
    return t
  }

  next(): number {
    return this.u32() / 4294967296
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T
  }

  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0
    for (const w of weights) total += w
    let r = this.next() * total
    for (let i = 0; i < items.length; i++) {
      r -= weights[i] ?? 0
      if (r < 0) return items[i] as T
    }
    return items[items.length - 1] as T
  }

  uuid(): string {
    return uuidFromWords(this.u32(), this.u32(), this.u32(), this.u32())
  }
}

/**
 * An independent stream for `label` under `seed`: each collection of the demo tenant draws from
 * its own stream, so changing how many tickets are generated never changes the budgets.
 *
 * @example
 * const companies = stream(1, 'companies')
 */
export function stream(seed: number, label: string): Sfc32 {
  return new Sfc32(fmix32(seed), hashString(label), 0x9e3779b9, 1)
}
