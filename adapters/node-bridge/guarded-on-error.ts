/**
 * A mount's `onError`, guarded as the API guards its own (docs/observability.md#hooks-cannot-break-answers):
 * what it throws or rejects with is dropped with one line on stderr, so a logger that is down can neither
 * keep the mount from answering nor leave a rejection unhandled (Node ends the process on one).
 */

/** Longest failure text of the one stderr line. */
const MAX_DROPPED_TEXT = 200

function drop(failure: unknown): void {
  try {
    let text: string
    try {
      text = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure)
    } catch {
      text = 'a value that cannot be printed'
    }
    const line = text.replace(/\s+/g, ' ').slice(0, MAX_DROPPED_TEXT)
    console.error(`[tenant-public-api] mount onError failed, its failure dropped: ${line}`)
  } catch {
    // Not even stderr: dropped without a word.
  }
}

/**
 * `onError` that never throws and whose promise (or thenable) never rejects unhandled.
 *
 * @example
 * const onError = guardedOnError(options.onError ?? console.error)
 */
export function guardedOnError(onError: (error: unknown) => unknown): (error: unknown) => void {
  return (error) => {
    try {
      const result = onError(error)
      if ((typeof result === 'object' && result !== null) || typeof result === 'function')
        Promise.resolve(result).then(undefined, drop)
    } catch (failure) {
      drop(failure)
    }
  }
}
