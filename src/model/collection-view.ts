/**
 * A collection's derived view (ARCHITECTURE.md, "One declaration, many uses"): what reads show of
 * its records, and the needs a store gathers for it, stated as data so that any store, a
 * third-party one too, gathers them from the definitions alone.
 */
import type { CollectionSpec } from './collection.js'

/** The collection a view's need reads: what a store needs of it to gather the need generically. */
export type NeedSource = Pick<CollectionSpec<never, never>, 'name' | 'table' | 'key' | 'columns' | 'parent'>

/**
 * A need of the records of a child collection (one with a `parent`: a budget's line items): those
 * whose key column `by` (the first of the child's key) is the record's id, in the child's key order
 * (oldest first), as their documents.
 */
export interface ChildrenNeed {
  readonly children: NeedSource
  readonly by: string
}

/** A need of a count: how many records of `count` have their column `by` equal to the record's id. */
export interface CountNeed {
  readonly count: NeedSource
  readonly by: string
}

/**
 * How a store gathers one thing a view needs, stated as data, so that every store (a third-party one
 * too) gathers it without knowing the collection: the memory store from its maps, the SQL store in
 * the statement that reads the record.
 */
export type ViewNeed = ChildrenNeed | CountNeed

/** The need that gathers a value of type `T`: a count for a number, children for a list. */
export type NeedFor<T> = T extends number ? CountNeed : ChildrenNeed

/**
 * A derived view: what a read of the collection shows (its GET and its events' objects), computed
 * from the stored record `D` and the few things `N` it needs that the record does not hold (a
 * budget's line items, a course's enrollment count). Written once here; every store gathers `N`
 * as its `needs` say, its own way (the SQL store counts in SQL), and calls `show`, so the
 * arithmetic lives only here.
 */
export interface CollectionView<D, N, V, F extends keyof V & string = keyof V & string> {
  /** The fields `show` computes (a seed's values for them are dropped). */
  readonly fields: readonly F[]
  /** What `show` needs besides the record, and how a store gathers each. */
  readonly needs: { readonly [K in keyof N]-?: NeedFor<N[K]> }
  show(record: D, needs: N): V
}

/** A view of any collection, as code that does not call it sees it. */
export interface AnyCollectionView {
  readonly fields: readonly string[]
  readonly needs: Readonly<Record<string, ViewNeed>>
  show(record: never, needs: never): unknown
}

/**
 * Declares a collection's view, typed by its `show`; checks that each need names a column of what
 * it reads (a key column for children).
 *
 * @example
 * defineView({
 *   fields: ['enrollmentCount'],
 *   needs: { enrollmentCount: { count: trainingEnrollments, by: 'course_id' } },
 *   show: (course, { enrollmentCount }) => ({ ...course, enrollmentCount }),
 * })
 */
export function defineView<D, N, V, const F extends keyof V & string>(
  view: CollectionView<D, N, V, F>,
): CollectionView<D, N, V, F> {
  for (const [name, need] of Object.entries<ViewNeed>(view.needs)) {
    const ok =
      'children' in need
        ? need.children.key[0]?.name === need.by && need.children.parent !== null
        : need.count.columns.some((c) => c.name === need.by)
    if (!ok) throw new TypeError(`View need ${name}: ${need.by} is not a column it can read by`)
  }
  return view
}
