import * as v from 'valibot'
import { ApiError } from '../http/errors.js'
import type { OperationResult } from '../http/operation.js'
import { UuidSchema } from '../model/shared.js'

/** `{ id }` path parameters of resources identified by UUID (a malformed one is a 404). */
export const UuidIdParams = v.strictObject({ id: UuidSchema })
/** `{ id }` path parameters of resources with free-form ids. */
export const TextIdParams = v.strictObject({ id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)) })

/** 200 `{ data }`. */
export function ok(data: unknown, headers?: Record<string, string>): OperationResult {
  return { status: 200, body: { data }, headers }
}

/** 404 `NOT_FOUND`, the same for an unknown id and another tenant's id. */
export function notFound(what: string): ApiError {
  return new ApiError('NOT_FOUND', `${what} not found`)
}

/** The record, or a 404 naming what was looked for. */
export async function found<T>(lookup: Promise<T | null>, what: string): Promise<T> {
  const record = await lookup
  if (record === null) throw notFound(what)
  return record
}

/** `ETag: "<version>"` of a versioned resource. */
export function versionTag(version: number): Record<string, string> {
  return { etag: `"${version}"` }
}
