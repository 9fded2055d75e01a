/**
 * The one table of scopes (docs/api-behaviour.md, "Scopes"). Every scope the API checks, names in
 * a 403 or lets a key be granted is a {@link Scope} of this table; the operations, the event types
 * and the webhook endpoints name theirs with this type, so none can name a scope no key can hold.
 */

/**
 * Every scope a key can be granted. `X.write` also grants `X.read`.
 *
 * @example
 * const principal = { tenantId, keyId, scopes: [...SCOPES], actor }
 */
export const SCOPES = [
  'tickets.read',
  'budgets.write',
  'automation.write',
  'reports.read',
  'reports.write',
  'compliance.read',
  'training.read',
  'training.write',
  'users.read',
  'calendar.read',
  'companies.read',
  'goals.read',
  'surveys.read',
  'planner.read',
  'webhooks.read',
  'webhooks.write',
  'events.read',
] as const

/** A scope, e.g. `'tickets.read'`. */
export type Scope = (typeof SCOPES)[number]

/**
 * The scopes any one of which satisfies `required`: itself, and for `X.read` its `X.write` when the
 * table has one (`tickets.write` is no scope, so it grants nothing).
 *
 * @example
 * grantingScopes('reports.read') // ['reports.read', 'reports.write']
 */
export function grantingScopes(required: Scope): readonly Scope[] {
  return GRANTING[required]
}

/** {@link grantingScopes} of every scope, computed once from the table. */
const GRANTING = Object.fromEntries(
  SCOPES.map((scope): [Scope, readonly Scope[]] => {
    const write = `${scope.slice(0, scope.lastIndexOf('.'))}.write`
    const sibling = scope.endsWith('.read') ? SCOPES.find((other) => other === write) : undefined
    return [scope, sibling === undefined ? [scope] : [scope, sibling]]
  }),
) as Readonly<Record<Scope, readonly Scope[]>>

/**
 * Whether the granted scopes satisfy `required` (`X.write` grants `X.read` where the table has both).
 *
 * @example
 * hasScope(['reports.write'], 'reports.read') // true
 */
export function hasScope(granted: readonly string[], required: Scope): boolean {
  // Only an array: on a string, `includes` would be a substring match ('tickets.readXX').
  if (!Array.isArray(granted)) return false
  for (const scope of GRANTING[required]) if (granted.includes(scope)) return true
  return false
}
