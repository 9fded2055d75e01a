/**
 * Optimistic concurrency for versioned resources (rules, reports): read, change, compare-and-set,
 * and on a lost race read again. Concurrent PATCHes therefore never lose an update and produce
 * strictly consecutive versions, on any store that implements compare-and-set.
 */
import { RecordNotFoundError, VersionMismatchError } from './errors.js'

/** An `If-Match` header: `*`, or the versions it names (`"3"`, `3`, `W/"3"`, comma-separated). */
export type IfMatch = '*' | number[]

/** Parses `If-Match`; `null` when absent. Entries that are not versions can never match. */
export function parseIfMatch(header: string | null): IfMatch | null {
  if (header === null) return null
  if (header.trim() === '*') return '*'
  const versions: number[] = []
  for (const part of header.split(',')) {
    const match = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(part)
    if (match) versions.push(Number(match[1]))
  }
  return versions
}

/** Bound on compare-and-set rounds, far above any realistic contention on one record. */
const MAX_ROUNDS = 10_000

/**
 * Applies `change` to the current record and stores it with `version + 1`, retrying on a lost race.
 * RecordNotFoundError when there is no record; VersionMismatchError when `ifMatch` names other versions.
 */
export async function updateVersioned<T extends { version: number }>(options: {
  what: string
  ifMatch: IfMatch | null
  load: () => Promise<T | null>
  change: (current: T) => T | Promise<T>
  save: (next: T, expectedVersion: number) => Promise<boolean>
}): Promise<T> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await options.load()
    if (current === null) throw new RecordNotFoundError(options.what)
    if (Array.isArray(options.ifMatch) && !options.ifMatch.includes(current.version))
      throw new VersionMismatchError(options.what, current.version)
    const next = { ...(await options.change(current)), version: current.version + 1 }
    if (await options.save(next, current.version)) return next
  }
  throw new Error(`${options.what}: compare-and-set did not settle in ${MAX_ROUNDS} rounds`)
}
