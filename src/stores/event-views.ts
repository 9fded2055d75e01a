/**
 * What an event shows of a stored record (docs/extensions.md, section 3): the resource as the API
 * returns it (its GET, or its write or list where it has no GET), computed from the stored record
 * and the few other records it names. Shared by every store, so their events are the same; internal
 * (not exported by the package), since each store's records part records the events of its writes.
 */
import {
  type AnyCollectionView,
  type CountNeed,
  namedIds,
  type Names,
  type NamesNeed,
  type ViewNeed,
} from '../model/collection.js'
import { changeOf, type EventDraft, type EventResourceType } from '../model/events.js'
import { COLLECTIONS, SEEDED_COLLECTIONS } from '../model/index.js'
import type { SeedKey } from '../model/removal.js'

/** The resource type of each seed key's events (its collection's `event.resource`); report types have none. */
export const EVENT_RESOURCE_OF = Object.fromEntries(
  SEEDED_COLLECTIONS.map((c) => [c.name, c.event === null ? null : c.event.resource]),
) as Readonly<Record<SeedKey, EventResourceType | null>>

/** What a view reads of a tenant's other records: a {@link CountNeed}'s count and a {@link NamesNeed}'s names. */
export interface ViewLookups {
  /** How many records of the need's collection have its column equal to `id`. */
  count(need: CountNeed, id: string): number
  /** The names of the records of the need's collection among `ids` (others may be there too: a batch's). */
  names(need: NamesNeed, ids: readonly string[]): Names
}

type Doc = Record<string, unknown>

/** What an event shows of each seed key's records, read from its definition. */
interface EventShape {
  /** The fields of a seeded record that its event does not show: its parts and its children's lists. */
  readonly hidden: readonly string[]
  readonly view: AnyCollectionView | null
}

const SHAPES = new Map<SeedKey, EventShape>(
  SEEDED_COLLECTIONS.map((collection) => [
    collection.name,
    {
      hidden: [
        ...Object.values<{ field: string }>(collection.parts).map((part) => part.field),
        ...COLLECTIONS.flatMap((child) => (child.parent?.collection === collection.name ? [child.parent.field] : [])),
      ],
      view: collection.view,
    },
  ]),
)

/**
 * The event object of a record of `key` as seeded (its document with its parts and its children's
 * lists): the record without them, its collection's view applied where it has one (a budget with its
 * line items and totals, a rule with `companies`, a report with names and without `content`, a course
 * with `enrollmentCount`, a survey with statistics). The view's needs are gathered from the record
 * (children) and from `lookups` (counts, names).
 *
 * @example
 * eventView('companies', company, lookups) // the company as GET /companies lists it
 */
export function eventView(key: SeedKey, record: Doc, lookups: ViewLookups): Doc {
  const { hidden, view } = SHAPES.get(key)!
  let doc = record
  if (hidden.length > 0) {
    // Copied without them rather than deleted from a copy: a deleted key leaves a slow dictionary object.
    doc = {}
    for (const key in record) if (!hidden.includes(key)) doc[key] = record[key]
  }
  if (view === null) return doc
  const needs: Doc = {}
  for (const [name, need] of Object.entries<ViewNeed>(view.needs))
    needs[name] =
      'names' in need
        ? lookups.names(need, namedIds(need, record))
        : 'children' in need
          ? (record[need.children.parent!.field] ?? [])
          : lookups.count(need, record.id as string)
  return view.show(doc, needs) as Doc
}

/** A stored record as change detection sees it: its full stored text and its event object. */
export interface StoredState {
  /** The record as stored (document and parts): equal text, no change. */
  fingerprint: string
  view: Doc
}

/**
 * The draft of a sync or write that took a record from `before` to `after` (null: absent), or
 * null when the stored record did not change. A change only in what the object does not show
 * (a ticket's notes) is an `updated` event whose `previous` is empty.
 *
 * @example
 * const draft = syncChange('company', id, before, after)
 */
export function syncChange(
  type: EventResourceType,
  id: string,
  before: StoredState | null,
  after: StoredState | null,
): EventDraft | null {
  if (before === null && after === null) return null
  if (before !== null && after !== null && before.fingerprint === after.fingerprint) return null
  return (
    changeOf(type, id, before?.view ?? null, after?.view ?? null) ?? {
      type: `${type}.updated`,
      resource: { type, id },
      object: after!.view,
      previous: {},
    }
  )
}
