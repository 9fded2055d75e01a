/** The default `onError` of `createPublicApi`. */
import { StoreUnavailableError } from '../ports/store.js'

/**
 * Logs an unexpected error to `console.error`. A store or rate limiter that cannot be reached (the
 * request answered 503) is an outage, not a bug: one line naming its cause, without a stack, so that
 * an outage does not print a stack trace per request. Anything else is logged whole.
 *
 * @example
 * logError(new StoreUnavailableError(new Error('connect ECONNREFUSED')), { requestId: 'r-1' })
 * // [tenant-public-api] request r-1 answered 503: The data store is unavailable (connect ECONNREFUSED)
 */
export function logError(error: unknown, { requestId }: { requestId: string }): void {
  if (error instanceof StoreUnavailableError) {
    const cause = error.cause instanceof Error ? error.cause.message : error.cause
    const why = cause === undefined || cause === '' ? '' : ` (${String(cause).replace(/\s+/g, ' ')})`
    console.error(`[tenant-public-api] request ${requestId} answered 503: ${error.message}${why}`)
  } else console.error(`[tenant-public-api] request ${requestId} failed:`, error)
}
