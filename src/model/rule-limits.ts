/** The bounds on an automation rule's condition tree and actions, and the one count that checks them. */

/**
 * Bounds on a rule's structure. Each is checked on the raw body before any group, condition or
 * action in it is validated, so an oversized rule costs one cheap count, not one error per element.
 *
 * @example
 * RULE_LIMITS // the bound the schema enforces
 */
export const RULE_LIMITS = { maxGroupDepth: 5, maxGroups: 200, maxConditions: 200, maxActions: 50 } as const

/**
 * Depth of the deepest group (top-level groups are depth 1), and how many groups and conditions
 * there are, read from unparsed JSON (anything that is not a group is still counted where it
 * stands). Stops once past a limit, so it costs at most a few hundred steps whatever the input.
 */
export function measure(groups: unknown): { depth: number; groups: number; conditions: number } {
  const out = { depth: 0, groups: 0, conditions: 0 }
  const visit = (list: unknown, depth: number): void => {
    if (!Array.isArray(list) || list.length === 0) return
    out.depth = Math.max(out.depth, depth)
    out.groups += list.length
    if (out.groups > RULE_LIMITS.maxGroups || depth > RULE_LIMITS.maxGroupDepth) return
    for (const group of list) {
      if (typeof group !== 'object' || group === null) continue
      const { conditions, groups: inner } = group as { conditions?: unknown; groups?: unknown }
      if (Array.isArray(conditions)) out.conditions += conditions.length
      visit(inner, depth + 1)
      if (out.groups > RULE_LIMITS.maxGroups) return
    }
  }
  visit(groups, 1)
  return out
}
