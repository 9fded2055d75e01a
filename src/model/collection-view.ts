/**
 * A collection's derived view (ARCHITECTURE.md, "One declaration, many uses"): what reads show of
 * its records, and the needs a store gathers for it, stated as data so that any store, a
 * third-party one too, gathers them from the definitions alone.
 */
import type { CollectionDefinition } from './collection.js'

/** The collection a view's need reads: what a store needs of it to gather the need generically. */
export type NeedSource = Pick<CollectionDefinition<never, never>, 'name' | 'table' | 'key' | 'columns' | 'parent'>

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
 * A need of the names of the records a field of the record refers to (a rule's `companyIds`, a
 * report's `reportTypeId`): the `name` of each record of `names` whose id the record's `field` holds
 * (a string, null, or a list of strings), by id; an id with no record of the tenant is absent.
 */
export interface NamesNeed {
  readonly names: NeedSource
  readonly field: string
}

/**
 * How a store gathers one thing a view needs, stated as data, so that every store (a third-party one
 * too) gathers it without knowing the collection: the memory store from its maps, the SQL store in
 * the statement that reads the record.
 */
export type ViewNeed = ChildrenNeed | CountNeed | NamesNeed

/** The names a {@link NamesNeed} gathers: each referred record's `name`, by id. */
export type Names = ReadonlyMap<string, string | null>

/** The need that gathers a value of type `T`: a count for a number, names for {@link Names}, children for a list. */
export type NeedFor<T> = T extends number ? CountNeed : T extends Names ? NamesNeed : ChildrenNeed

/**
 * A derived view: what the API shows of the collection's records (its GET, the writes that return
 * one, its events' objects), computed from the stored record `D` and the few things `N` it needs
 * that the record does not hold (a budget's line items, a course's enrollment count, a rule's
 * company names). Written once here; whoever shows a record gathers `N` as its `needs` say, its own
 * way (the SQL store counts in SQL), and calls `show`, so the arithmetic lives only here.
 *
 * A view with a {@link NamesNeed} is shown by the writes and the events, not by `store.get`: its
 * collections are versioned (rules, reports), their `get` is the compare-and-set's read and must
 * return the record as stored, and their writes read the names anyway to check the ids
 * ({@link viewOfGet}).
 */
export interface CollectionView<D, N, V, F extends keyof V & string = keyof V & string> {
  /** The fields `show` computes (a seed's values for them are dropped). */
  readonly fields: readonly F[]
  /** What `show` needs besides the record, and how a store gathers each. */
  readonly needs: { readonly [K in keyof N]-?: NeedFor<N[K]> }
  show(record: D, needs: N): V
}

/**
 * A view of any collection, as the stores call it: with a record and the needs they gathered as its
 * `needs` say. `show` is a method so that its parameters compare bivariantly: every typed view is one,
 * and this is the single place where a store's untyped record meets a view's typed `show`.
 */
export interface AnyCollectionView {
  readonly fields: readonly string[]
  readonly needs: Readonly<Record<string, ViewNeed>>
  show(record: object, needs: object): unknown
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
      'names' in need
        ? need.field !== ''
        : 'children' in need
          ? need.children.key[0]?.name === need.by && need.children.parent !== null
          : need.count.columns.some((c) => c.name === need.by)
    if (!ok) throw new TypeError(`View need ${name}: ${'names' in need ? need.field : need.by} cannot be read by`)
  }
  return view
}

/**
 * The view `store.get` applies: the collection's view unless it needs names (then `get` returns the
 * record as stored; see {@link CollectionView}).
 *
 * @example
 * viewOfGet(budgets.view) // budgets.view
 * viewOfGet(automationRules.view) // null
 */
export function viewOfGet(view: AnyCollectionView | null): GetView | null {
  if (view === null) return null
  for (const need of Object.values(view.needs)) if ('names' in need) return null
  return view as GetView
}

/** A view `store.get` applies: one whose needs are children and counts, gathered with the record. */
export interface GetView extends AnyCollectionView {
  readonly needs: Readonly<Record<string, ChildrenNeed | CountNeed>>
}

/**
 * The ids the field of a {@link NamesNeed} holds in `record`: none for null, one for a string.
 *
 * @example
 * namedIds(automationRules.view.needs.companies, rule) // rule.companyIds
 */
export function namedIds(need: NamesNeed, record: object): readonly string[] {
  const value = (record as Record<string, unknown>)[need.field]
  return typeof value === 'string' ? [value] : Array.isArray(value) ? (value as string[]) : []
}
