/**
 * Stores hand out the records they keep (the memory store its own, the SQL stores their parsed
 * documents) without copying them; freezing them makes that safe, so a caller that mutates a
 * result gets a TypeError instead of silently changing what later reads return.
 *
 * @example
 * const record = deepFreeze(JSON.parse(text))
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}
