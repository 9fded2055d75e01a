/**
 * `Idempotency-Key` on operations that declare `idempotent`: the first successful response is
 * kept for 24 h and replayed (`Idempotent-Replayed: true`) to a repeat with the same key and body;
 * the same key with another body is a 422, and one whose first request is still running a 409.
 * Failed requests keep nothing (they wrote nothing), so a retry of a failure simply runs again.
 */
import type { Store, StoredResponse } from '../ports/store.js'
import { ApiError } from './errors.js'
import type { OperationResult } from './operation.js'

/** What `Idempotency-Key` must be: 1..255 printable ASCII characters (request-headers.ts states and checks it). */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * Runs `execute` under the request's `Idempotency-Key`, if it sent one. When `execute` fails, the
 * key is released so a retry runs again; a release that fails too goes to `report` (the host's
 * `onError`: until the key's lock expires, retries are answered 409), and the answer stays the
 * failure's.
 *
 * @example
 * const result = await withIdempotency(request, url, json, tenantId, store, now, execute, (error) =>
 *   config.onError(error, { request, requestId }),
 * )
 */
export async function withIdempotency(
  request: Request,
  url: URL,
  body: unknown,
  tenantId: string,
  store: Store,
  now: Date,
  execute: () => Promise<OperationResult>,
  report: (error: unknown) => void,
): Promise<OperationResult> {
  const key = request.headers.get('idempotency-key')
  // Checked against IDEMPOTENCY_KEY with the request's other input (request-headers.ts) before this runs.
  if (key === null) return execute()
  const fingerprint = await sha256(`${request.method} ${url.pathname}\n${JSON.stringify(body)}`)
  const found = await store.reserveIdempotencyKey(tenantId, key, fingerprint, now)
  if (found.state !== 'reserved') {
    if (found.fingerprint !== fingerprint) {
      throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request')
    }
    if (found.state === 'in_progress') {
      throw new ApiError(
        'IDEMPOTENCY_KEY_IN_USE',
        'A request with this Idempotency-Key is still in progress; retry later',
      )
    }
    return {
      status: found.response.status,
      body: found.response.body,
      headers: { ...found.response.headers, 'idempotent-replayed': 'true' },
    }
  }
  let result: OperationResult
  try {
    result = await execute()
  } catch (error) {
    await store.releaseIdempotencyKey(tenantId, key).catch(report)
    throw error
  }
  const stored: StoredResponse = { status: result.status, body: result.body, headers: result.headers ?? {} }
  await store.completeIdempotencyKey(tenantId, key, stored)
  return result
}
