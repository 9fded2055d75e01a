/**
 * Where the stores' untyped records meet the port's typed ones (src/ports/records.ts). A store keeps
 * the documents of every collection alike and reads every definition as one erased definition; the
 * port types what it hands back by the collection it was given. The compiler cannot see that a
 * record read through a collection's definition has that collection's type (the same definition
 * wrote it), nor relate a union of definitions to one generic one, so these functions are the only
 * places that say so (ARCHITECTURE.md, "One declaration, many uses").
 */
import type { CollectionDefinition, CollectionFacts, NeedSource } from '../model/collection.js'
import type { SeedKey } from '../model/removal.js'
import type { DocumentOf, Included, ListResult, Shown } from '../ports/records.js'

/** A record of any collection, as a store holds it: a JSON object with its `id`. */
export type Doc = Record<string, unknown> & { readonly id: string }

/**
 * Any collection's definition, its record types erased. Its name reads as a seed key, as the event
 * states are keyed; that of a collection without one (a child, webhook endpoints) only as a string.
 */
export type ErasedDefinition = CollectionDefinition<Doc, Doc, CollectionFacts & { readonly name: SeedKey }>

/**
 * The erasure of a definition: `collection` read with its record types erased. Every definition that
 * reaches a store is one of `COLLECTIONS` (src/model/index.ts), whatever part of it the caller's type shows.
 *
 * @example
 * definitionOf(tickets).columns.map((c) => c.read(doc)) // each column read from an untyped record
 */
export function definitionOf(collection: NeedSource): ErasedDefinition {
  return collection as unknown as ErasedDefinition
}

/**
 * A record a store read for `collection`, as `get` (and `patch`) return it: its shown type.
 *
 * @example
 * return shownOf(collection, t.answer(definition, entry, request))
 */
export function shownOf<C>(_collection: C, record: unknown): Shown<C> & Included<C> {
  return record as Shown<C> & Included<C>
}

/**
 * A page a store read for `collection`, as `list` returns it: its documents' type.
 *
 * @example
 * return pageOf(collection, await pages.list(collection, tenantId, request))
 */
export function pageOf<C>(_collection: C, page: ListResult<unknown>): ListResult<DocumentOf<C>> {
  return page as ListResult<DocumentOf<C>>
}

/**
 * A typed record given to a store's write (`addChild`'s item, `replaceVersioned`'s record), as the store
 * holds it.
 *
 * @example
 * const doc = docOf(child, item)
 */
export function docOf<C>(_collection: C, record: DocumentOf<C>): Doc {
  return record as unknown as Doc
}
