/**
 * Seed data: records of one tenant in the response shapes of the contract, and the one
 * normalisation every store applies to them (missing nullable fields become null, timestamps
 * become `toISOString()`, unknown fields are dropped, derived fields are recomputed).
 */
import * as v from 'valibot'
import type { BudgetRecord } from './budgets.js'
import type { CollectionDefinition } from './collection.js'
import { type AnyCollection, COLLECTIONS, SEEDED_COLLECTIONS, type SeededCollection } from './index.js'
import type { SeedKey } from './removal.js'
import { seedComputedOf } from './seed-schema.js'
import type { TrainingCourseRecord } from './training.js'

export type { BudgetRecord, TrainingCourseRecord }

/** Any collection hosts seed: under its own key, or inside its parent's records (all but webhook endpoints). */
type SeededAny = Extract<AnyCollection, { readonly seed: v.GenericSchema }>

/** The name of a seeded collection: its seed key, or for a child (line items) its key in {@link seedSchemas}. */
type CollectionName = SeededAny['name']

/**
 * The schema of each collection's records as `normalizeSeed` validates them, by collection name:
 * each definition's `seed` (a child's, `budgetLineItems`, validates the records inside its parent's
 * field). docs/seed.md is generated from them (`npm run reference`).
 *
 * @example
 * v.parse(seedSchemas.companies, { id, name: 'Acme', status: 'active', createdAt, updatedAt }).domain // null
 */
export const seedSchemas = Object.fromEntries(
  COLLECTIONS.flatMap((c) => (c.seed === null ? [] : [[c.name, c.seed]])),
) as { readonly [C in SeededAny as C['name']]: C['seed'] }

/** One record of a collection, as `store.seed` accepts it (a budget line item: inside its budget). */
export type SeedRecord<K extends CollectionName> = v.InferInput<(typeof seedSchemas)[K]>

/** The collections whose records are seeded inside those of `K` (a budget's line items). */
type ChildOf<K extends string> = Extract<AnyCollection, { readonly parent: { readonly collection: K } }>

/** A record of seed key `K` as `store.seed` accepts it: with its children's records in their fields. */
type SeededInput<K extends SeedKey> = [ChildOf<K>] extends [never]
  ? SeedRecord<K>
  : SeedRecord<K> & { [C in ChildOf<K> as C['parent']['field']]?: SeedRecord<C['name']>[] }

/**
 * What `store.seed(tenantId, data)` accepts: every key optional, each a list of records in the
 * response shapes (docs/seed.md, generated from the same schemas). A record's required fields are
 * required; nullable fields may be left out; derived fields ({@link SEED_COMPUTED}) are ignored and
 * recomputed. An id given twice in one list (or in one record's {@link SEED_PARTS}) keeps its last copy.
 */
export type SeedData = { [K in SeedKey]?: SeededInput<K>[] }

/** The record a collection is seeded with (its `S`: a ticket with its notes, a budget with its line items). */
type SeededRecordOf<C> = C extends CollectionDefinition<infer _D, infer S> ? S : never

/** Every list of a normalised seed, as stores persist it: one per seed key of `COLLECTIONS`. */
export type NormalizedSeed = { [C in SeededCollection as C['name']]: SeededRecordOf<C>[] }

/** A child collection as its parent's records carry it: the field holding its records, and their schema. */
interface SeededChild {
  readonly field: string
  readonly seed: v.GenericSchema
}

/** Each seed key's children: the collections seeded inside its records (budgets: their line items). */
const CHILDREN: Readonly<Partial<Record<SeedKey, readonly SeededChild[]>>> = Object.fromEntries(
  SEEDED_COLLECTIONS.flatMap((c) => {
    const children = COLLECTIONS.flatMap((child) =>
      child.parent?.collection === c.name ? [{ field: child.parent.field, seed: child.seed }] : [],
    )
    return children.length === 0 ? [] : [[c.name, children]]
  }),
)

/**
 * The lists inside a seeded record whose items a seed keys by id (each collection's `nested` lists
 * and its children's fields): like the records themselves, an id given twice keeps its last copy.
 *
 * @example
 * SEED_PARTS.goals // ['tasks', 'updates']
 */
export const SEED_PARTS: Readonly<Partial<Record<SeedKey, readonly string[]>>> = Object.fromEntries(
  SEEDED_COLLECTIONS.flatMap((c) => {
    const parts = [...c.nested, ...(CHILDREN[c.name] ?? []).map((child) => child.field)]
    return parts.length === 0 ? [] : [[c.name, parts]]
  }),
)

/**
 * The fields of the response shapes that the API computes whatever a seed says (a seed's values are
 * dropped), by collection name: those of a collection's view (budget totals and line item count, a
 * course's enrollment count, a survey's statistics, a rule's `companies`, a report's names) and those
 * its seed schema computes (a line item's `annualisedCost`).
 *
 * @example
 * SEED_COMPUTED.budgetLineItems // ['annualisedCost']
 */
export const SEED_COMPUTED: Readonly<Partial<Record<CollectionName, readonly string[]>>> = Object.fromEntries(
  COLLECTIONS.flatMap((c) => {
    if (c.seed === null) return []
    const fields = new Set([...(c.view?.fields ?? []), ...seedComputedOf(c.seed)])
    return fields.size === 0 ? [] : [[c.name, [...fields]]]
  }),
)

function parseAll<T>(kind: string, schema: v.GenericSchema, records: unknown): T[] {
  if (records === undefined) return []
  if (!Array.isArray(records))
    throw new TypeError(`Invalid seed ${kind}: must be an array of records, not ${describe(records)}`)
  // Every record is checked (errors name its index in `records`) before copies are dropped.
  return records.map((record, index) => {
    const result = v.safeParse(schema, record)
    if (!result.success) {
      const issue = result.issues[0]
      const path = v.getDotPath(issue) ?? ''
      throw new TypeError(`Invalid seed ${kind}[${index}]${path ? `.${path}` : ''}: ${issue.message}`)
    }
    return result.output as T
  })
}

type Dated = { createdAt: string; id: string }

const byCreatedAt = (a: Dated, b: Dated) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0

/**
 * The last copy of each id, in the order of those copies: a sync may send a record again later in
 * the same batch, and the later copy is the newer one. Without this Postgres refused the batch (an
 * upsert cannot change one row twice) while the other stores kept the last copy.
 */
function lastCopies<T extends { id: string }>(records: T[]): T[] {
  if (records.length < 2) return records
  const ids = new Set<string>()
  for (const record of records) ids.add(record.id)
  if (ids.size === records.length) return records
  const kept: T[] = []
  for (let i = records.length - 1; i >= 0; i--) if (ids.delete(records[i]!.id)) kept.push(records[i]!)
  return kept.reverse()
}

const SEED_KEYS: ReadonlySet<string> = new Set(SEEDED_COLLECTIONS.map((c) => c.name))

/**
 * The seed's outer shape: an object whose keys are seed keys (parseAll checks each is a list). A misspelt key
 * (`tikets`) would otherwise be dropped silently, a sync that loses data unnoticed; `remove` refuses it too.
 */
function checkSeedShape(data: unknown): Partial<Record<SeedKey, readonly Record<string, unknown>[]>> {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new TypeError('Invalid seed: must be an object of lists keyed by collection, such as { tickets: [...] }')
  for (const key of Object.keys(data)) {
    if (!SEED_KEYS.has(key))
      throw new TypeError(
        `Invalid seed: unknown collection ${JSON.stringify(key.slice(0, 100))}; ` +
          `the seed keys are ${[...SEED_KEYS].join(', ')}`,
      )
  }
  return data as Partial<Record<SeedKey, readonly Record<string, unknown>[]>>
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** A seeded record of any collection, as stores persist it: validated by its collection's seed schema. */
export type SeededDoc = Record<string, unknown> & { id: string }

/** Every list of a normalised seed, its record types erased: what stores persist. */
export type SeedRecords = Readonly<Record<SeedKey, SeededDoc[]>>

/**
 * Validates and normalises seed data; throws a `TypeError` naming the first bad record. An id given
 * twice keeps its last copy, so no store meets a row twice in one batch (a Postgres upsert refuses
 * that). Every store calls this in `seed`, so all stores hold exactly the same records.
 *
 * @example
 * const records = normalizeSeed({ companies: [{ id, name: 'Acme', status: 'active', createdAt, updatedAt }] })
 */
export function normalizeSeed(data: SeedData): NormalizedSeed {
  // Each list was validated by its collection's seed schema, whose output is its seeded record; the
  // compiler cannot relate a loop over the union of collections to each key's own type.
  return normalizeSeedRecords(data) as unknown as NormalizedSeed
}

/**
 * {@link normalizeSeed}, its record types erased: the lists as a store persists them, every
 * collection's alike.
 *
 * @example
 * for (const record of normalizeSeedRecords(data).companies) insert(record.id, record)
 */
export function normalizeSeedRecords(data: SeedData): SeedRecords {
  const given = checkSeedShape(data)
  const lists = {} as Record<SeedKey, SeededDoc[]>
  for (const collection of SEEDED_COLLECTIONS) {
    const key = collection.name
    const records = parseAll<SeededDoc>(key, collection.seed, given[key])
    const children = CHILDREN[key] ?? []
    // Each child's records are validated inside their parent's, before the next key.
    lists[key] =
      children.length === 0
        ? records
        : records.map((record, index) => {
            const out = { ...record }
            for (const { field, seed } of children)
              out[field] = parseAll(`${key}[${index}].${field}`, seed, given[key]?.[index]?.[field])
            return out
          })
  }
  keepLastCopies(lists)
  // Ordered after copies are dropped: "last" is the order the host sent. The parsed lists are ours to sort.
  // A child collection's records are added oldest first (their key counts them in that order).
  for (const [key, children] of Object.entries(CHILDREN) as [SeedKey, readonly SeededChild[]][])
    for (const record of lists[key])
      for (const { field } of children) record[field] = [...(record[field] as Dated[])].sort(byCreatedAt)
  for (const goal of lists.goals) {
    ;(goal.tasks as Dated[]).sort(byCreatedAt)
    ;(goal.updates as Dated[]).sort((a, b) => byCreatedAt(b, a))
  }
  return lists
}

/** Keeps the last copy of each id in every list of `seed` and in the {@link SEED_PARTS} of its records. */
function keepLastCopies(lists: Record<SeedKey, SeededDoc[]>): void {
  for (const [key, records] of Object.entries(lists) as [SeedKey, SeededDoc[]][]) {
    const kept = (lists[key] = lastCopies(records))
    const parts = SEED_PARTS[key] ?? []
    if (parts.length > 0)
      for (const record of kept)
        for (const part of parts) record[part] = lastCopies(record[part] as Array<{ id: string }>)
  }
}
