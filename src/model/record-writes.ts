/**
 * What a collection's definition allows the store port's generic writes (`patch`, `addChild`,
 * `delete`, `findNames`: src/ports/records.ts), checked here once so that every store refuses the
 * same mistakes with the same `TypeError`, and what those writes compute from the definition (a
 * patched record, a parent touched by a new child). Nothing here names a collection.
 */
import type * as v from 'valibot'
import type { CollectionDefinition, CollectionParent } from './collection.js'

/** What the checks read of a definition. */
type WriteDefinition = Pick<CollectionDefinition<never, never>, 'name' | 'parent' | 'patchable'>

/**
 * The fields of an object schema (a write body's), for a definition's `patchable`: derived from the
 * body the API takes, so the two cannot drift apart.
 *
 * @example
 * fieldsOf(v.strictObject({ title: v.string() })) // ['title']
 */
export function fieldsOf<const E extends v.ObjectEntries>(schema: { readonly entries: E }): (keyof E & string)[] {
  return Object.keys(schema.entries) as (keyof E & string)[]
}

/**
 * Throws a `TypeError` unless `collection` is kept under a key of its own (has no parent): `method`
 * takes records by id, which a child collection's records are not keyed by.
 *
 * @example
 * checkSeeded(budgetLineItems, 'delete') // throws: budgetLineItems is kept under its parent
 */
export function checkSeeded(collection: WriteDefinition, method: string): void {
  if (collection.parent !== null)
    throw new TypeError(
      `store.${method}(${collection.name}): ${collection.name} is kept under its parent ` +
        `(${collection.parent.collection}), not by id`,
    )
}

/**
 * Throws a `TypeError` unless `collection` allows `store.patch` of every field of `patch` (its
 * definition's `patchable`; never `id`).
 *
 * @example
 * checkPatch(budgets, { title: 'FY25' }) // passes
 * checkPatch(budgets, { createdAt: '2024-01-01T00:00:00.000Z' }) // throws
 */
export function checkPatch(collection: WriteDefinition, patch: object): void {
  checkSeeded(collection, 'patch')
  for (const field of Object.keys(patch))
    if (!collection.patchable.includes(field))
      throw new TypeError(
        collection.patchable.length === 0
          ? `store.patch(${collection.name}): ${collection.name} allows no patch`
          : `store.patch(${collection.name}): ${field} is not one of its patchable fields ` +
              `(${collection.patchable.join(', ')})`,
      )
}

/**
 * The parent of a child collection (a budget line item's budget); a `TypeError` for a collection
 * that has none, which `store.addChild` cannot add to.
 *
 * @example
 * parentOf(budgetLineItems).collection // 'budgets'
 */
export function parentOf(child: WriteDefinition): CollectionParent {
  if (child.parent === null)
    throw new TypeError(`store.addChild(${child.name}): ${child.name} has no parent collection to add to`)
  return child.parent
}

/**
 * The parent's fields an added child sets, from the child (its parent's `touches`): a budget's
 * `updatedAt` from its new line item's `createdAt`. Empty when the parent touches none.
 *
 * @example
 * touchedBy(parentOf(budgetLineItems), item) // { updatedAt: item.createdAt }
 */
export function touchedBy(parent: CollectionParent, child: object): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [field, from] of Object.entries(parent.touches ?? {}))
    out[field] = (child as Record<string, unknown>)[from]
  return out
}
