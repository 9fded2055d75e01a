/**
 * The one check of every factory's options (docs/api-behaviour.md#options): each factory states a
 * check per option in one table, and a misspelt key or a value of the wrong kind is a TypeError at
 * creation naming each of them, never a setting silently ignored or a failure at the first request.
 */

/** What one option's value must be: undefined when it is right, else the rule (`must be a boolean`). */
export type OptionCheck = (value: unknown) => string | undefined

/**
 * A check for every option of `T`, optional ones included (`-?`): an option added to `T` without a
 * check fails to compile.
 */
export type OptionChecks<T> = { readonly [K in keyof T]-?: OptionCheck }

/** How a factory's messages name its options. */
export interface OptionsOwner<T> {
  /** The factory or option that takes them, as messages name it: `createPublicApi`, `mcp`. */
  name: string
  /** Written before an option's name in messages: `mcp.` for nested options. Default none. */
  prefix?: string
  /** The options that must be given. Default none. */
  required?: ReadonlyArray<keyof T & string>
}

/**
 * Throws one TypeError naming every unknown key (with the option it probably meant) and every value
 * of the wrong kind; `undefined` values count as not given. The table's keys are the known options.
 *
 * @example
 * checkOptions({ limt: 5 }, CHECKS, { name: 'memoryRateLimiter' })
 * // TypeError: memoryRateLimiter has no option "limt" (did you mean limit?). The options of memoryRateLimiter: ...
 */
export function checkOptions<T>(
  options: unknown,
  checks: OptionChecks<T>,
  owner: OptionsOwner<T>,
): asserts options is T {
  const problems = problemsOf(options, checks, owner)
  if (problems.length === 0) return
  // Not an object: its one problem lists the options already.
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new TypeError(problems[0])
  throw new TypeError(`${problems.join('; ')}. The options of ${owner.name}: ${Object.keys(checks).join(', ')}`)
}

/** Checks whose messages are whole (a nested object's): reported as they are, not after the option's name. */
const WHOLE = new WeakSet<OptionCheck>()

/**
 * The check of an option that is itself an object of options, such as `createPublicApi`'s `webhooks`:
 * its problems are named by their path (`webhooks.allowInsecureUrls must be a boolean`).
 *
 * @example
 * const CHECKS = { webhooks: nested(WEBHOOKS_CHECKS, 'webhooks') }
 */
export function nested<T>(checks: OptionChecks<T>, name: string): OptionCheck {
  const check: OptionCheck = (value) => {
    const problems = problemsOf(value, checks, { name, prefix: `${name}.` })
    return problems.length === 0 ? undefined : problems.join('; ')
  }
  WHOLE.add(check)
  return check
}

function problemsOf<T>(options: unknown, checks: OptionChecks<T>, owner: OptionsOwner<T>): string[] {
  const names = Object.keys(checks)
  const prefix = owner.prefix ?? ''
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    return [`${owner.name} needs an object of options (${names.join(', ')}), not ${show(options)}`]
  const problems: string[] = []
  for (const key of owner.required ?? [])
    if ((options as Record<string, unknown>)[key] === undefined) problems.push(`${prefix}${key} is required`)
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue
    const check = Object.hasOwn(checks, key) ? (checks as Record<string, OptionCheck>)[key] : undefined
    if (check === undefined) {
      const guess = meant(key, names)
      problems.push(`${owner.name} has no option ${show(key)}${guess === undefined ? '' : ` (did you mean ${guess}?)`}`)
      continue
    }
    const problem = check(value)
    if (problem !== undefined) problems.push(WHOLE.has(check) ? problem : `${prefix}${key} ${problem}`)
  }
  return problems
}

/** The usual checks, with the rule each states. */
export const is = {
  boolean: (value: unknown) => (typeof value === 'boolean' ? undefined : 'must be a boolean'),
  function: (value: unknown) => (typeof value === 'function' ? undefined : 'must be a function'),
  string: (value: unknown) => (typeof value === 'string' ? undefined : 'must be a string'),
  object: (value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'must be an object',
  /** A safe integer of at least `least` (1 unless said). */
  integer:
    (least = 1) =>
    (value: unknown) =>
      Number.isSafeInteger(value) && (value as number) >= least ? undefined : integerRule(least),
  /** A finite number above 0. */
  positiveNumber: (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) && value > 0 ? undefined : 'must be a positive number',
  /** A finite number of at least 0. */
  nonNegativeNumber: (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? undefined : 'must be a number >= 0',
  oneOf:
    (...allowed: readonly string[]) =>
    (value: unknown) =>
      allowed.includes(value as string) ? undefined : `must be ${allowed.map((a) => JSON.stringify(a)).join(' or ')}`,
} as const

function integerRule(least: number): string {
  if (least === 1) return 'must be a positive integer'
  if (least === 0) return 'must be an integer >= 0'
  return `must be an integer of at least ${least}`
}

/** A value, short, for a message. */
export function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : Array.isArray(value) ? 'an array' : String(value)
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}

/** The option an unknown key was probably meant to be: the one within two edits of it, case aside. */
function meant(key: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined
  for (const name of names) {
    const distance = editDistance(key.toLowerCase(), name.toLowerCase())
    if (distance <= Math.min(2, name.length - 1) && (best === undefined || distance < best.distance))
      best = { name, distance }
  }
  return best?.name
}

/** Levenshtein distance, with a swap of two neighbours as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[]
    const above = rows[i - 1] as number[]
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1] === b[j - 1] ? 0 : 1
      let cost = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + same)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        cost = Math.min(cost, ((rows[i - 2] as number[])[j - 2] as number) + 1)
      row[j] = cost
    }
  }
  return (rows[a.length] as number[])[b.length] as number
}
