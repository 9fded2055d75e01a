/** Time helpers of the demo generator: everything is relative to {@link DEMO_NOW}, never to the clock. */
import type { Rng } from './prng.js'
import { DEMO_NOW } from './tickets.js'

export { DEMO_NOW }

/** One hour and one day in milliseconds. */
export const HOUR = 3_600_000
export const DAY = 24 * HOUR

/** `ms` as the API writes timestamps (`toISOString()`). */
export function iso(ms: number): string {
  return new Date(ms).toISOString()
}

/** `ms` as a calendar date `YYYY-MM-DD` (report date ranges). */
export function isoDate(ms: number): string {
  return iso(ms).slice(0, 10)
}

/** A whole-millisecond time in [from, to]. */
export function between(rng: Rng, from: number, to: number): number {
  return from + Math.floor(rng.next() * Math.max(0, to - from))
}

/** `days` days before the demo's now. */
export function daysAgo(days: number): number {
  return DEMO_NOW - days * DAY
}

/** The first millisecond of a calendar quarter (`q` 1..4), UTC. */
export function quarterStart(year: number, q: number): number {
  return Date.UTC(year, (q - 1) * 3, 1)
}

/** The last millisecond of a calendar quarter, UTC. */
export function quarterEnd(year: number, q: number): number {
  return Date.UTC(year, q * 3, 1) - 1
}
