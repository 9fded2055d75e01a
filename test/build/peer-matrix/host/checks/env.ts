/**
 * What the peer matrix (test/build/peer-matrix.test.ts) hands the host app: the run's Postgres and
 * Redis, and which checks to run. A check that cannot run throws here: it never skips silently.
 */
export function required(name: 'DATABASE_URL' | 'REDIS_URL'): string {
  const value = process.env[name]
  if (value === undefined || value === '') throw new Error(`${name} is not set: the peer matrix passes it`)
  return value
}

/** The origin the in-process requests use; nothing listens on it. */
export const ORIGIN = 'http://peer-matrix.test'
export const BASE = '/api/public/v1'
