/**
 * Read operations from the collection they read: `readList` (a page of its list, its query schema derived from
 * its list surface) and `readOne` (one record by id), each recording the collection on the operation
 * (`reads`), so that the registry knows it as data (ARCHITECTURE.md, "One declaration, many uses").
 */
import type * as v from 'valibot'
import { type DefinedOperation, defineOperation, type Operation } from '../http/operation.js'
import type { SeededCollection } from '../model/index.js'
import { type ListQuerySchema, type ListSurface, listQuerySchema } from '../model/list-surface.js'
import { dataEnvelope, listEnvelope } from '../model/shared.js'
import type { GetRequest } from '../ports/store.js'
import { type ListQuery, listPage } from './list-pages.js'
import { found, ok } from './results.js'

type Schema = v.GenericSchema<unknown, unknown>
type Output<S> = S extends Schema ? v.InferOutput<S> : undefined

/** What a read operation states besides its collection: its id, path, area, summary, description and scope. */
export type ReadDeclaration = Pick<Operation, 'id' | 'path' | 'area' | 'summary' | 'description' | 'scope'>

/** A list operation made by {@link readList}: its query schema's own type, and what it reads. */
export type ReadListOperation<L extends ListSurface, IS extends Schema> = DefinedOperation<
  undefined,
  ListQuerySchema<L>,
  undefined,
  ReturnType<typeof listEnvelope<IS>>
> & { readonly reads: { readonly collection: SeededCollection; readonly kind: 'list' } }

/** A get operation made by {@link readOne}: its schemas' own types, and what it reads. */
export type ReadOneOperation<PS extends Schema, QS extends Schema | undefined, IS extends Schema> = DefinedOperation<
  PS,
  QS,
  undefined,
  ReturnType<typeof dataEnvelope<IS>>
> & {
  readonly reads: { readonly collection: SeededCollection; readonly kind: 'one' }
}

/**
 * A list operation of `collection`: GET, its query schema derived from the collection's list surface
 * (`listQuerySchema`), `{ data, pagination }` of `item`s, answered by `listPage`.
 *
 * @example
 * export const listUsers = readList(users, {
 *   id: 'listUsers', path: '/users', area: 'Users', summary: 'List the tenant’s users', scope: 'users.read',
 *   item: UserSchema,
 * })
 */
export function readList<L extends ListSurface, IS extends Schema>(
  collection: SeededCollection & { readonly list: L },
  declaration: ReadDeclaration & { readonly item: IS },
): ReadListOperation<L, IS> {
  if (collection.list.sort === null && collection.order.length === 0)
    throw new TypeError(`${collection.name}: a list needs sorts or a fixed order (its definition's list)`)
  const { item, ...rest } = declaration
  const operation = defineOperation({
    ...rest,
    method: 'GET',
    // Every list's query starts with its paging parameters (listQuerySchema): what listPage reads.
    query: listQuerySchema<L>(collection) as v.GenericSchema<unknown, ListQuery>,
    response: listEnvelope(item),
    successStatus: 200,
    errors: [],
    reads: { collection, kind: 'list' },
    handle: (context) => listPage(context, collection),
  })
  // The query schema's own type, which the typed client and the handlers read.
  return operation as ReadListOperation<L, IS>
}

/**
 * A GET of one record of `collection` by the id its path names: `{ data }` of `item`, or 404 naming `what`.
 * `request` turns the validated query into what `store.get` is asked to include (a ticket's notes).
 *
 * @example
 * export const getGoal = readOne(goals, {
 *   id: 'getGoal', path: '/goals/:id', area: 'Goals', summary: 'Get a goal', scope: 'goals.read',
 *   params: UuidIdParams, item: GoalSchema, what: 'Goal',
 * })
 */
export function readOne<
  C extends SeededCollection,
  PS extends v.GenericSchema<unknown, { id: string }>,
  IS extends Schema,
  QS extends Schema | undefined = undefined,
>(
  collection: C,
  declaration: ReadDeclaration & {
    readonly params: PS
    readonly item: IS
    /** What the 404 names, e.g. `Ticket` (`Ticket not found`). */
    readonly what: string
    readonly query?: QS
    readonly request?: (query: Output<QS>) => GetRequest<C>
  },
): ReadOneOperation<PS, QS, IS> {
  const { item, what, request, ...rest } = declaration
  const reads = { collection, kind: 'one' } as const
  const operation = defineOperation<PS, QS, undefined, ReturnType<typeof dataEnvelope<IS>>>({
    ...rest,
    method: 'GET',
    response: dataEnvelope(item),
    successStatus: 200,
    errors: ['NOT_FOUND'],
    reads,
    handle: async ({ store, tenantId, params, query }) =>
      ok(await found(store.get(collection, tenantId, params.id, request?.(query)), what)),
  })
  // What it reads in its type too: the kit's samples derive a default for every read (samples.ts).
  return Object.assign(operation, { reads })
}
