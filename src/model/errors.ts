/**
 * What the model's rules refuse, as errors of the model: they know nothing of HTTP. The HTTP
 * layer answers them (`apiErrorOf` in src/http/errors.ts): a missing record is a 404 `NOT_FOUND`,
 * a version mismatch a 412 `PRECONDITION_FAILED` with `details.currentVersion`.
 */

/**
 * The record an operation needs does not exist in the tenant (another tenant's counts as none).
 *
 * @example
 * if (budget === null) throw new RecordNotFoundError('Budget')
 */
export class RecordNotFoundError extends Error {
  constructor(readonly what: string) {
    super(`${what} not found`)
    this.name = 'RecordNotFoundError'
  }
}

/**
 * A versioned record (a rule, a report) is not at a version the caller's `If-Match` names.
 *
 * @example
 * throw new VersionMismatchError('Automation rule', 4)
 */
export class VersionMismatchError extends Error {
  constructor(
    readonly what: string,
    readonly currentVersion: number,
  ) {
    super(`${what} is at version ${currentVersion}, not the version If-Match names`)
    this.name = 'VersionMismatchError'
  }
}
