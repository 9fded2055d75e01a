/**
 * The model: every stored collection, stated once (see `collection.ts`). Stores derive their rows,
 * comparators, filters and searches from these collections, and every list of collections (seed keys,
 * event resource types and their read scopes, tables) derives from {@link COLLECTIONS}; nothing here
 * depends on a store or on HTTP.
 */
import type { GenericSchema } from 'valibot'
import type { CollectionEvents } from './collection.js'
import { automationRules } from './automation-rules.js'
import { budgetLineItems, budgets } from './budgets.js'
import { meetingTypes } from './calendar.js'
import { companies } from './companies.js'
import { complianceChecks, complianceTemplates } from './compliance.js'
import { goals } from './goals.js'
import { npsSurveys } from './nps-surveys.js'
import { plannerItemTypes } from './planner.js'
import { reportTemplates } from './report-templates.js'
import { reportTypes, reports } from './reports.js'
import { tickets } from './tickets.js'
import { trainingCourses, trainingEnrollments } from './training.js'
import { users } from './users.js'
import { webhookEndpoints } from './webhook-endpoint-collection.js'

export * from './collection.js'
export { automationRules } from './automation-rules.js'
export { budgetLineItems, budgets, type BudgetRecord } from './budgets.js'
export { meetingTypes } from './calendar.js'
export { companies } from './companies.js'
export { complianceChecks, complianceTemplates } from './compliance.js'
export { goals } from './goals.js'
export { npsSurveys } from './nps-surveys.js'
export { plannerItemTypes } from './planner.js'
export { reportTemplates } from './report-templates.js'
export { reportTypes, reports } from './reports.js'
export { tickets, type TicketRecord } from './tickets.js'
export { trainingCourses, trainingEnrollments, type TrainingCourseRecord } from './training.js'
export { users } from './users.js'
export { webhookEndpoints } from './webhook-endpoint-collection.js'

/**
 * Every stored collection, in the order stores seed and remove them: the one list of them.
 *
 * @example
 * for (const collection of COLLECTIONS) console.log(collection.table)
 */
export const COLLECTIONS = [
  tickets,
  budgets,
  budgetLineItems,
  automationRules,
  reports,
  reportTypes,
  reportTemplates,
  complianceTemplates,
  complianceChecks,
  trainingCourses,
  trainingEnrollments,
  users,
  companies,
  meetingTypes,
  goals,
  npsSurveys,
  plannerItemTypes,
  webhookEndpoints,
] as const

/** Any stored collection. */
export type AnyCollection = (typeof COLLECTIONS)[number]

/**
 * A collection kept by id under a key of its own: all but the children of another (budget line items,
 * read through their budget's view). What `get`, `list` and `replaceVersioned` take.
 */
export type KeyedCollection = Extract<AnyCollection, { readonly parent: null }>

/**
 * A keyed collection that hosts seed (and remove) under its name: all but those only the API writes
 * (webhook endpoints, whose `seed` is null).
 */
export type SeededCollection = Extract<KeyedCollection, { readonly seed: GenericSchema }>

/** A collection with events in the feed (all but report types). */
export type EventedCollection = Extract<AnyCollection, { readonly event: CollectionEvents }>

/**
 * The keyed collections, in the order of {@link COLLECTIONS}.
 *
 * @example
 * KEYED_COLLECTIONS.map((c) => c.name) // ['tickets', 'budgets', 'automationRules', ..., 'webhookEndpoints']
 */
export const KEYED_COLLECTIONS: readonly KeyedCollection[] = COLLECTIONS.filter(
  (c): c is KeyedCollection => c.parent === null,
)

/**
 * The collections seeded and removed under a key of their own, in the order of {@link COLLECTIONS}.
 *
 * @example
 * SEEDED_COLLECTIONS.map((c) => c.name) // ['tickets', 'budgets', 'automationRules', ...]
 */
export const SEEDED_COLLECTIONS: readonly SeededCollection[] = KEYED_COLLECTIONS.filter(
  (c): c is SeededCollection => c.seed !== null,
)

/**
 * The collections with events, in the order of {@link COLLECTIONS}.
 *
 * @example
 * EVENTED_COLLECTIONS.map((c) => c.event.resource) // ['ticket', 'budget', 'budget_line_item', ...]
 */
export const EVENTED_COLLECTIONS: readonly EventedCollection[] = COLLECTIONS.filter(
  (c): c is EventedCollection => c.event !== null,
)
