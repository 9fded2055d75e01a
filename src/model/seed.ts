/**
 * Seed data: records of one tenant in the response shapes of the contract, and the one
 * normalisation every store applies to them (missing nullable fields become null, timestamps
 * become `toISOString()`, unknown fields are dropped, derived fields are recomputed).
 */
import * as v from 'valibot'
import { annualisedCost } from './computed.js'
import { SYNC_COLLECTIONS, type SyncCollection } from './removal.js'
import type { CollectionSpec } from './collection.js'
import { COLLECTIONS, SEEDED_COLLECTIONS, type SeededCollection } from './index.js'
import type { BudgetRecord } from './budgets.js'
import type { TrainingCourseRecord } from './training.js'
import { AutomationRuleSchema } from './automation-rules.js'
import { BudgetLineItemSchema, BudgetSchema, type BudgetLineItem, budgets } from './budgets.js'
import { MeetingTypeSchema } from './calendar.js'
import { CompanySchema } from './companies.js'
import { ComplianceCheckSchema, ComplianceTemplateSchema } from './compliance.js'
import { GoalSchema } from './goals.js'
import { NpsSurveySchema, npsSurveys } from './nps-surveys.js'
import { PlannerItemTypeSchema } from './planner.js'
import { ReportTemplateSchema, TemplateStructureSchema } from './report-templates.js'
import { ReportSchema, ReportTypeSchema } from './reports.js'
import { omit, seedSchemaOf } from './seed-schema.js'
import { JsonObjectSchema } from './shared.js'
import { TicketNoteSchema, TicketSchema } from './tickets.js'
import { TrainingCourseSchema, TrainingEnrollmentSchema, trainingCourses } from './training.js'
import { UserSchema } from './users.js'

export type { BudgetRecord, TrainingCourseRecord }

/** One record of a seed collection, as `store.seed` accepts it. */
export type SeedRecord<K extends keyof typeof seedSchemas> = v.InferInput<(typeof seedSchemas)[K]>

type SeedLists = { [K in Exclude<keyof typeof seedSchemas, 'lineItem' | 'budgets'>]?: SeedRecord<K>[] }

/**
 * What `store.seed(tenantId, data)` accepts: every key optional, each a list of records in the
 * response shapes (docs/seed.md, generated from the same schemas). A record's required fields are
 * required; nullable fields may be left out; derived fields ({@link SEED_COMPUTED}) are ignored and
 * recomputed. An id given twice in one list (or in one record's {@link SEED_PARTS}) keeps its last copy.
 */
export interface SeedData extends SeedLists {
  budgets?: Array<SeedRecord<'budgets'> & { lineItems?: SeedRecord<'lineItem'>[] }>
}

/** The record a collection is seeded with (its `S`: a ticket with its notes, a budget with its line items). */
type SeededRecordOf<C> = C extends CollectionSpec<infer _D, infer S> ? S : never

/** Every list of a normalised seed, as stores persist it: one per seed key of `COLLECTIONS`. */
export type NormalizedSeed = { [C in SeededCollection as C['name']]: SeededRecordOf<C>[] }

/**
 * The lists inside a seeded record whose items a seed keys by id (each collection's `nested` lists
 * and its children's fields): like the records themselves, an id given twice keeps its last copy.
 *
 * @example
 * SEED_PARTS.goals // ['tasks', 'updates']
 */
export const SEED_PARTS: Readonly<Partial<Record<SyncCollection, readonly string[]>>> = Object.fromEntries(
  SEEDED_COLLECTIONS.flatMap((c) => {
    const parts = [
      ...c.nested,
      ...COLLECTIONS.flatMap((child) => (child.parent?.collection === c.name ? [child.parent.field] : [])),
    ]
    return parts.length === 0 ? [] : [[c.name, parts]]
  }),
)

/**
 * The fields of the response shapes that the API computes whatever a seed says (a seed's values are
 * dropped): budget totals and line item count, a line item's `annualisedCost`, a rule's `companies`
 * (from `companyIds`), a report's names (from its company and type), a course's enrollment count and
 * a survey's statistics (from its `responses`); those of a collection's view are its `fields`.
 */
export const SEED_COMPUTED = {
  budgets: budgets.view.fields,
  lineItem: ['annualisedCost'],
  automationRules: ['companies'],
  reports: ['companyName', 'reportTypeName'],
  trainingCourses: trainingCourses.view.fields,
  npsSurveys: npsSurveys.view.fields,
} as const

/**
 * The schema of each seed collection's records (`lineItem`: a budget's `lineItems`), as
 * `normalizeSeed` validates them; docs/seed.md is generated from them (`npm run reference`).
 */
export const seedSchemas = {
  tickets: seedSchemaOf(v.object({ ...TicketSchema.entries, notes: v.optional(v.array(TicketNoteSchema), []) })),
  lineItem: seedSchemaOf(v.object(omit(BudgetLineItemSchema.entries, ...SEED_COMPUTED.lineItem))),
  budgets: seedSchemaOf(v.object(omit(BudgetSchema.entries, ...SEED_COMPUTED.budgets, 'lineItems'))),
  automationRules: seedSchemaOf(v.object(omit(AutomationRuleSchema.entries, ...SEED_COMPUTED.automationRules))),
  reports: seedSchemaOf(
    v.object({ ...omit(ReportSchema.entries, ...SEED_COMPUTED.reports), content: v.nullable(JsonObjectSchema) }),
  ),
  reportTypes: ReportTypeSchema,
  reportTemplates: seedSchemaOf(
    v.object({ ...ReportTemplateSchema.entries, templateStructure: v.nullable(TemplateStructureSchema) }),
  ),
  complianceTemplates: seedSchemaOf(ComplianceTemplateSchema),
  complianceChecks: seedSchemaOf(ComplianceCheckSchema),
  trainingCourses: seedSchemaOf(v.object(omit(TrainingCourseSchema.entries, ...SEED_COMPUTED.trainingCourses))),
  trainingEnrollments: seedSchemaOf(TrainingEnrollmentSchema),
  users: seedSchemaOf(UserSchema),
  companies: seedSchemaOf(CompanySchema),
  meetingTypes: seedSchemaOf(MeetingTypeSchema),
  goals: seedSchemaOf(GoalSchema),
  npsSurveys: seedSchemaOf(
    v.object({
      ...omit(NpsSurveySchema.entries, ...SEED_COMPUTED.npsSurveys),
      responses: v.optional(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10))), []),
    }),
  ),
  plannerItemTypes: seedSchemaOf(PlannerItemTypeSchema),
} satisfies Record<SyncCollection | 'lineItem', v.GenericSchema>

function parseAll<T>(kind: string, schema: v.GenericSchema, records: readonly unknown[] | undefined): T[] {
  // Every record is checked (errors name its index in `records`) before copies are dropped.
  return (records ?? []).map((record, index) => {
    const result = v.safeParse(schema, record)
    if (!result.success) {
      const issue = result.issues[0]
      const path = v.getDotPath(issue) ?? ''
      throw new TypeError(`Invalid seed ${kind}[${index}]${path ? `.${path}` : ''}: ${issue.message}`)
    }
    return result.output as T
  })
}

const byCreatedAt = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
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

/**
 * Validates and normalises seed data; throws a `TypeError` naming the first bad record. An id given
 * twice keeps its last copy, so no store meets a row twice in one batch (a Postgres upsert refuses
 * that). Every store calls this in `seed`, so all stores hold exactly the same records.
 *
 * @example
 * const records = normalizeSeed({ companies: [{ id, name: 'Acme', status: 'active', createdAt, updatedAt }] })
 */
export function normalizeSeed(data: SeedData): NormalizedSeed {
  const lists = {} as Record<SyncCollection, unknown[]>
  for (const key of SYNC_COLLECTIONS) {
    const records = parseAll<Record<string, unknown>>(key, seedSchemas[key], data[key])
    // A budget's line items are a collection of their own, seeded inside it: checked before the next key.
    lists[key] =
      key === 'budgets'
        ? records.map((budget, index) => {
            const items = parseAll<Omit<BudgetLineItem, 'annualisedCost'>>(
              `budgets[${index}].lineItems`,
              seedSchemas.lineItem,
              data.budgets?.[index]?.lineItems,
            )
            return { ...budget, lineItems: items.map((item) => ({ ...item, annualisedCost: annualisedCost(item) })) }
          })
        : records
  }
  const seed = lists as unknown as NormalizedSeed
  keepLastCopies(seed)
  // Ordered after copies are dropped: "last" is the order the host sent. The parsed lists are ours to sort.
  for (const budget of seed.budgets) budget.lineItems = [...budget.lineItems].sort(byCreatedAt)
  for (const goal of seed.goals) {
    goal.tasks.sort(byCreatedAt)
    goal.updates.sort((a, b) => byCreatedAt(b, a))
  }
  return seed
}

/** Keeps the last copy of each id in every list of `seed` and in the {@link SEED_PARTS} of its records. */
function keepLastCopies(seed: NormalizedSeed): void {
  const lists = seed as unknown as Record<string, Array<Record<string, unknown> & { id: string }>>
  for (const [key, records] of Object.entries(lists)) {
    const kept = (lists[key] = lastCopies(records))
    const parts = SEED_PARTS[key as SyncCollection] ?? []
    if (parts.length > 0)
      for (const record of kept)
        for (const part of parts) record[part] = lastCopies(record[part] as Array<{ id: string }>)
  }
}
