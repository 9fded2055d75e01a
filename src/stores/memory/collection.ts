/**
 * One collection of one tenant in the memory store, derived from its definition (src/model/): frozen
 * documents by id with the folded copies of their folded columns and their parts, the ids by lookup
 * value, and one sorted order per list order, kept until the next change. Lists filter and slice a
 * sorted order; they never sort the whole collection per request.
 */
import { compareCodePoints, foldCase, orderBy, orderByKeys } from '../../model/ordering.js'
import { compareKeysets, type Keyset, keysetOf } from '../../model/keyset.js'
import {
  type CollectionDefinition,
  type ColumnDefinition,
  columnOf,
  type ColumnValue,
  foldedValue,
  type OrderTerm,
} from '../../model/collection.js'
import type { ListRequest } from '../../model/list-request.js'
import { deepFreeze } from '../../model/frozen-records.js'
import type { ListResult } from '../../ports/store.js'

/** A stored document, as the memory store handles any collection's. */
export type Doc = { readonly id: string }

/** What the memory store reads of a definition. */
export type MemoryDefinition = Pick<
  CollectionDefinition<Doc, never>,
  'name' | 'columns' | 'filters' | 'search' | 'lookup'
>

/** A stored document, the folded copies of its folded columns (by column name) and its parts (by column), made once. */
export interface Entry {
  readonly id: string
  readonly record: Doc
  readonly folded: Readonly<Record<string, string | null>>
  /** The parts kept apart from the document, by their column's name; null when the collection has none. */
  readonly parts: Readonly<Record<string, unknown>> | null
}

const NOTHING_FOLDED: Readonly<Record<string, string | null>> = Object.freeze({})

/** One collection of one tenant: documents by id, ids by lookup value, and sorted orders until the next change. */
export class Collection {
  /** The entries by id; a map shared with forks until a write ({@link fork}). */
  private entries = new Map<string, Entry>()
  /** Sorted entries by their order's terms (the same array for the same order: see `sortOrder`). */
  private orders = new Map<readonly OrderTerm[], readonly Entry[]>()
  private readonly folding: readonly ColumnDefinition<Doc>[]
  private readonly lookup: ColumnDefinition<Doc> | null
  /**
   * The ids with each lookup value, ascending (a value can repeat: the smallest id wins); an array
   * is replaced, never changed, so a fork's copy of the map may share them.
   */
  private byLookup = new Map<ColumnValue, string[]>()
  /** True while the maps are another collection's too ({@link fork}): the first write copies them. */
  private shared = false

  constructor(readonly definition: MemoryDefinition) {
    this.folding = definition.columns.filter((c) => c.folded)
    this.lookup = definition.lookup === null ? null : columnOf(definition, definition.lookup)
  }

  /** The entries by id. */
  get byId(): ReadonlyMap<string, Entry> {
    return this.entries
  }

  /**
   * A copy in O(1): both share the maps until each one's first write, which copies them for
   * itself (the entries and their frozen records stay shared: they never change). While shared,
   * either fills the same sorted orders, which are then sorts of the very same entries.
   */
  fork(): Collection {
    const copy = new Collection(this.definition)
    copy.entries = this.entries
    copy.byLookup = this.byLookup
    copy.orders = this.orders
    copy.shared = true
    this.shared = true
    return copy
  }

  /** Takes copies of shared maps before a write; the sorted orders start afresh (the write would clear them). */
  private own(): void {
    if (!this.shared) return
    this.entries = new Map(this.entries)
    this.byLookup = new Map(this.byLookup)
    this.orders = new Map()
    this.shared = false
  }

  get(id: string): Doc | undefined {
    return this.byId.get(id)?.record
  }

  /** The entry with this id or, failing that, the one with the smallest id whose lookup column holds it. */
  find(id: string): Entry | undefined {
    const entry = this.byId.get(id)
    if (entry !== undefined || this.lookup === null) return entry
    const first = this.byLookup.get(id)?.[0]
    return first === undefined ? undefined : this.byId.get(first)
  }

  /** Stores `record` (deep-frozen) and its `parts` (by column, deep-frozen), replacing what had its id. */
  set(record: Doc, parts: Record<string, unknown> | null = null): void {
    this.own()
    const frozen = deepFreeze(record)
    let folded = NOTHING_FOLDED
    if (this.folding.length > 0) {
      const copies: Record<string, string | null> = {}
      for (const column of this.folding) copies[column.name] = foldedValue(column.read(frozen))
      folded = copies
    }
    if (this.lookup !== null) {
      const previous = this.byId.get(record.id)
      if (previous !== undefined) this.forget(previous)
      const value = this.lookup.read(frozen)
      this.byLookup.set(value, [...(this.byLookup.get(value) ?? []), record.id].sort(compareCodePoints))
    }
    this.entries.set(record.id, {
      id: record.id,
      record: frozen,
      folded,
      parts: parts === null ? null : deepFreeze(parts),
    })
    this.orders.clear()
  }

  delete(id: string): boolean {
    const entry = this.byId.get(id)
    if (entry === undefined) return false
    this.own()
    if (this.lookup !== null) this.forget(entry)
    this.entries.delete(id)
    this.orders.clear()
    return true
  }

  /** A page of the documents that `request` keeps, in its order, with the exact count of all it keeps. */
  list(request: ListRequest): ListResult<Doc> {
    const terms = request.order
    const sorted = this.sorted(terms)
    const from = request.after === undefined ? -1 : firstAfter(this.definition, terms, sorted, request.after)
    return page(sorted, request, matcher(this.definition, request), from)
  }

  /** The whole collection in the order of `terms` (then by id), sorted once per change. */
  private sorted(terms: readonly OrderTerm[]): readonly Entry[] {
    let order = this.orders.get(terms)
    if (order === undefined) {
      order = [...this.byId.values()].sort(comparator(this.definition, terms))
      this.orders.set(terms, order)
    }
    return order
  }

  /** Drops `entry`'s id from its lookup value's ids. */
  private forget(entry: Entry): void {
    const value = this.lookup!.read(entry.record)
    const ids = this.byLookup.get(value)?.filter((id) => id !== entry.id) ?? []
    if (ids.length > 0) this.byLookup.set(value, ids)
    else this.byLookup.delete(value)
  }
}

/** The comparator of `terms` on the records of entries. */
function comparator(definition: MemoryDefinition, terms: readonly OrderTerm[]): (a: Entry, b: Entry) => number {
  const keys = terms.map((term) => {
    const { read } = columnOf(definition, term.column)
    return { key: (entry: Entry) => read(entry.record), descending: term.descending }
  })
  const [only] = keys
  return keys.length === 1 && only !== undefined ? orderBy(only.key, only.descending) : orderByKeys(keys)
}

/**
 * A page of `sorted` that passes `matches`, with the exact count of all that pass: by page number, or
 * from index `from` (a cursor's position) when it is not negative.
 */
function page(
  sorted: readonly Entry[],
  request: ListRequest,
  matches: ((entry: Entry) => boolean) | null,
  from: number,
): ListResult<Doc> {
  const start = from >= 0 ? from : (request.page - 1) * request.limit
  if (matches === null)
    return { items: sorted.slice(start, start + request.limit).map(recordOf), totalCount: sorted.length }
  const items: Doc[] = []
  let totalCount = 0
  for (let i = 0; i < sorted.length; i++) {
    const entry = sorted[i]!
    if (!matches(entry)) continue
    // By page number the page starts at the start-th match; after a cursor, at the first match from `from`.
    const inPage = from >= 0 ? i >= from : totalCount >= start
    if (inPage && items.length < request.limit) items.push(entry.record)
    totalCount += 1
  }
  return { items, totalCount }
}

const recordOf = (entry: Entry): Doc => entry.record

/** The index of the first entry of `sorted` (in `terms`) strictly after `after`: a binary search. */
function firstAfter(
  definition: MemoryDefinition,
  terms: readonly OrderTerm[],
  sorted: readonly Entry[],
  after: Keyset,
): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compareKeysets(terms, keysetOf(definition, terms, sorted[mid]!.record), after) <= 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A test of entries, made from the value of one filter or of the search. */
type TestOf = (value: ColumnValue) => (entry: Entry) => boolean

/** Each definition's tests by filter name (and `search` for its search), made once per definition. */
const testsByDefinition = new WeakMap<object, Map<string, TestOf>>()

function testsOf(definition: MemoryDefinition): Map<string, TestOf> {
  let tests = testsByDefinition.get(definition)
  if (tests !== undefined) return tests
  tests = new Map()
  const search = definition.search
  if (search !== null) {
    const [first, ...others] = search.columns
    tests.set('search', (value) => {
      const term = foldCase(String(value))
      return others.length === 0
        ? (e) => e.folded[first!]?.includes(term) === true
        : (e) => search.columns.some((c) => e.folded[c]?.includes(term) === true)
    })
  }
  for (const [name, filter] of Object.entries(definition.filters)) tests.set(name, filterTest(definition, filter))
  testsByDefinition.set(definition, tests)
  return tests
}

/** The test of one filter: its column compared as the filter says; a null column never matches. */
function filterTest(
  definition: MemoryDefinition,
  filter: CollectionDefinition<never, never>['filters'][string],
): TestOf {
  const { read, name } = columnOf(definition, filter.column)
  const op = filter.op
  return (value) => {
    if (op === 'equals') return (e) => read(e.record) === value
    if (op === 'equalsFolded') {
      const folded = foldedValue(value)
      return (e) => e.folded[name] === folded
    }
    if (op === 'atLeast')
      return (e) => {
        const x = read(e.record)
        return x !== null && value !== null && x >= value
      }
    return (e) => {
      const x = read(e.record)
      return x !== null && value !== null && x <= value
    }
  }
}

/**
 * What `request` keeps of `definition`'s records: its search (a folded substring of any search column) and
 * every filter it gives; null when it gives none (an unfiltered list is a plain slice).
 */
function matcher(definition: MemoryDefinition, request: ListRequest): ((entry: Entry) => boolean) | null {
  const tests = testsOf(definition)
  const kept: ((entry: Entry) => boolean)[] = []
  const search = tests.get('search')
  if (request.search !== undefined && search !== undefined) kept.push(search(request.search))
  for (const name in request.filters) {
    const make = tests.get(name)
    if (make !== undefined) kept.push(make(request.filters[name]!))
  }
  if (kept.length <= 1) return kept[0] ?? null
  return (entry) => kept.every((test) => test(entry))
}
