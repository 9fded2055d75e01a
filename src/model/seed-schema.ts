/**
 * The lenient schemas seeds are validated with, made from the strict response schemas: each
 * collection's definition states its own (`seed` in `defineCollection`), so this file imports no
 * definition and every definition may import it (`seed.ts`, which walks them, imports `index.ts`).
 */
import * as v from 'valibot'
import { DateTimeSchema, NullableDateTimeSchema } from './shared.js'

/**
 * What a record schema made lenient by {@link seedSchemaOf} accepts, as valibot would infer it:
 * nullable and optional fields may be left out, everything else is required, nested objects and
 * arrays likewise. The type mirrors the function, so `v.InferInput` of a seed schema is exact.
 */
export type SeedInput<S> =
  S extends v.NullableSchema<infer W, infer _D>
    ? SeedInput<W> | null | undefined
    : S extends v.OptionalSchema<infer W, infer _D>
      ? SeedInput<W> | undefined
      : S extends v.ArraySchema<infer I, infer _M>
        ? SeedInput<I>[]
        : S extends v.ObjectSchema<infer E, infer _M> | v.StrictObjectSchema<infer E, infer _M>
          ? SeedObjectInput<E>
          : S extends v.GenericSchema
            ? v.InferInput<S>
            : never

/** The keys of `E` whose schema lets them be left out: nullable and optional ones. */
type Omissible<E extends v.ObjectEntries> = {
  [K in keyof E]: E[K] extends v.NullableSchema<v.GenericSchema, unknown> | v.OptionalSchema<v.GenericSchema, unknown>
    ? K
    : never
}[keyof E]

/** An object of {@link SeedInput}s: its {@link Omissible} keys optional, flattened for readable hovers. */
export type SeedObjectInput<E extends v.ObjectEntries> = {
  [K in Exclude<keyof E, Omissible<E>>]: SeedInput<E[K]>
} & { [K in Omissible<E>]?: SeedInput<E[K]> } extends infer O
  ? { [K in keyof O]: O[K] }
  : never

const toIso = v.pipe(
  DateTimeSchema,
  v.transform((s: string) => new Date(s).toISOString()),
)

/**
 * Turns a strict response schema into a lenient seed schema: nullable fields default to null,
 * timestamps are normalised, unknown keys are dropped; nested objects and arrays likewise.
 *
 * @example
 * seedSchemaOf(CompanySchema) // accepts a company without its `domain` (null then)
 */
export function seedSchemaOf<S extends v.GenericSchema>(schema: S): v.GenericSchema<SeedInput<S>, v.InferOutput<S>> {
  return lenient(schema) as v.GenericSchema<SeedInput<S>, v.InferOutput<S>>
}

function lenient(schema: v.GenericSchema): v.GenericSchema {
  if (schema === DateTimeSchema) return toIso
  if (schema === NullableDateTimeSchema) return v.optional(v.nullable(toIso), null)
  const s = schema as v.GenericSchema & {
    type: string
    entries?: Record<string, v.GenericSchema>
    item?: v.GenericSchema
    wrapped?: v.GenericSchema
  }
  if (s.type === 'nullable' && s.wrapped) return v.optional(v.nullable(lenient(s.wrapped)), null)
  // Keep the default (`notes`, `responses` default to []): dropping it left them undefined.
  if (s.type === 'optional' && s.wrapped)
    return v.optional(lenient(s.wrapped), (s as { default?: unknown }).default as never)
  if (s.type === 'array' && s.item) return v.array(lenient(s.item))
  if ((s.type === 'strict_object' || s.type === 'object') && s.entries) {
    const entries: Record<string, v.GenericSchema> = {}
    for (const [key, entry] of Object.entries(s.entries)) entries[key] = lenient(entry)
    return v.object(entries)
  }
  return schema
}

/**
 * `entries` without `keys`: a response schema's entries less the fields a seed does not give.
 *
 * @example
 * v.object(omit(BudgetSchema.entries, 'totals', 'lineItemCount', 'lineItems'))
 */
export function omit<T extends v.ObjectEntries, K extends keyof T>(entries: T, ...keys: K[]): Omit<T, K> {
  const out = { ...entries }
  for (const key of keys) delete out[key]
  return out
}

/** The metadata key under which {@link seedComputing} names the fields it computes. */
const COMPUTED_KEY = 'seedComputed'

/**
 * A seed schema whose records get `fields` computed from the rest when seeded (a line item's
 * `annualisedCost`): what it accepts is `schema`'s, what it returns has the fields too. The fields
 * are named in its metadata, where {@link seedComputedOf} reads them (a transform shows no output).
 *
 * @example
 * seedComputing(itemSchema, ['annualisedCost'], (item) => ({ annualisedCost: annualisedCost(item) }))
 */
export function seedComputing<I, O extends object, const F extends string, C extends { [K in F]: unknown }>(
  schema: v.GenericSchema<I, O>,
  fields: readonly F[],
  compute: (record: O) => C,
): v.GenericSchema<I, Omit<O, F> & C> {
  return v.pipe(
    schema,
    v.transform((record: O) => ({ ...record, ...compute(record) })),
    v.metadata({ [COMPUTED_KEY]: fields }),
  )
}

/**
 * The fields a seed schema computes when seeded ({@link seedComputing}); none for any other.
 *
 * @example
 * seedComputedOf(budgetLineItems.seed) // ['annualisedCost']
 */
export function seedComputedOf(schema: v.GenericSchema): readonly string[] {
  const fields = (v.getMetadata(schema) as Record<string, unknown>)[COMPUTED_KEY]
  return (fields as readonly string[] | undefined) ?? []
}
