/**
 * Bounds on a whole structure that validation checks before any element of it: a schema marks
 * them with {@link precheck}, and the HTTP layer's validator (src/http/validation.ts) runs the
 * marked checks on the raw input first, so a body of 500,000 junk elements is refused for its
 * size, never validated (and reported) element by element.
 */
import * as v from 'valibot'

const PRECHECKS = new WeakSet<object>()

/**
 * A `v.check` that validation also runs on the raw input before any element of it is validated:
 * for bounds on a whole structure (how many condition groups a rule has), whose elements would
 * otherwise each be validated, and reported, first. `requirement` therefore sees unparsed JSON
 * and must accept any value.
 *
 * @example
 * v.pipe(v.array(Group), precheck((groups) => countGroups(groups) <= 200, 'At most 200 groups'))
 */
export function precheck<T>(requirement: (input: unknown) => boolean, message: string) {
  const action = v.check<T, string>(requirement, message)
  PRECHECKS.add(action)
  return action
}

/**
 * True for a pipe action made by {@link precheck}.
 *
 * @example
 * schema.pipe?.filter(isPrecheck)
 */
export function isPrecheck(action: object): boolean {
  return PRECHECKS.has(action)
}
