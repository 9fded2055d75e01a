/**
 * One valid request per operation of the registry, addressed to a fixture tenant. The generic
 * tests (auth, scopes, 404s) run each of these; an operation added to the registry without a
 * sample fails the suite until it gets one, so every new route is covered. A read made by `readList`
 * or `readOne` (src/operations/reads.ts) has one derived from what it reads; the others are written here.
 */
import type { Scope } from '../../http/auth.js'
import type { AnyOperation, OperationReads } from '../../http/operation.js'
import { type OperationId, operations, type ReadOperationId } from '../../operations/index.js'
import { UuidIdParams } from '../../operations/results.js'
import { MINIMAL_LINE_ITEM, MINIMAL_RULE, type FixtureIds } from './fixtures.js'
import { webhookEndpointId } from './webhook-fixtures.js'

/** A valid request for one operation. */
export interface OperationSample {
  /** The `:id` of the target in a fixture tenant (operations with an id in their path). */
  id?: (ids: FixtureIds) => string
  /** A query string without `?`. */
  query?: string
  /** The JSON body. */
  body?: unknown
  /**
   * Scopes the call needs beyond the operation's own: rotating a secret needs the read scopes of
   * what the endpoint delivers (the binding of docs/webhooks.md).
   */
  scopes?: readonly Scope[]
}

/**
 * Samples of type `S` written by hand, by operation id: one for every operation that is not a read (a read's
 * derives from what it reads), and optionally a read's, over its derived one.
 *
 * @example
 * const written = { createAutomationRule: { body: MINIMAL_RULE } } satisfies SamplesByOperation<OperationSample>
 */
export type SamplesByOperation<S> = { readonly [K in Exclude<OperationId, ReadOperationId>]: S } & {
  readonly [K in ReadOperationId]?: S
}

/**
 * The samples written by hand: one per operation that is not a read (the compiler refuses a missing or
 * unknown id), and a read's where its derived one is not enough (a query worth exercising).
 */
const WRITTEN_SAMPLES = {
  getTicket: { query: 'includeNotes=true' },
  createBudgetLineItem: { id: (f) => f.budget, body: MINIMAL_LINE_ITEM },
  updateBudget: { id: (f) => f.budget, body: { title: 'Renamed budget' } },
  createAutomationRule: { body: MINIMAL_RULE },
  updateAutomationRule: { id: (f) => f.rule, body: { priority: 7 } },
  updateReport: { id: (f) => f.report, body: { title: 'Renamed report' } },
  deleteTrainingEnrollment: { id: (f) => f.enrollments[0]! },
  getReportTemplate: { query: 'includeStructure=true' },
  createWebhookEndpoint: {
    body: { url: 'https://hooks.example.com/new', events: ['*'] },
  },
  listWebhookEndpoints: {},
  getWebhookEndpoint: { id: webhookEndpointId },
  updateWebhookEndpoint: { id: webhookEndpointId, body: { description: 'Renamed endpoint' } },
  deleteWebhookEndpoint: { id: webhookEndpointId },
  // The fixture endpoint delivers ticket.created and budget.updated (webhook-fixtures.ts).
  rotateWebhookEndpointSecret: { id: webhookEndpointId, scopes: ['tickets.read', 'budgets.write'] },
  listWebhookDeliveries: { id: webhookEndpointId, query: 'limit=10' },
  listEvents: { query: 'limit=5' },
} satisfies SamplesByOperation<OperationSample>

/** The sample a read has by what it reads: a list asks for its first page, a get its collection's first record. */
function readSample({ collection, kind }: OperationReads): OperationSample {
  return kind === 'list' ? {} : { id: (ids) => ids.recordIds(collection.name)[0]! }
}

/** The sample of `operation`: the derived one of a read, under what is written for it. */
function sampleOf(operation: AnyOperation): OperationSample | undefined {
  const samples: Readonly<Partial<Record<string, OperationSample>>> = WRITTEN_SAMPLES
  const written = samples[operation.id]
  return operation.reads === undefined ? written : { ...readSample(operation.reads), ...written }
}

/**
 * Samples by operation id: one per operation of the registry, derived for its reads and written for the
 * others (the suite's first test says which operation has none).
 *
 * @example
 * SAMPLES.getGoal?.id?.(fixtureIds('a'))
 */
export const SAMPLES: Readonly<Record<string, OperationSample>> = Object.fromEntries(
  operations.flatMap((operation) => {
    const sample = sampleOf(operation)
    return sample === undefined ? [] : [[operation.id, sample]]
  }),
)

/**
 * Whether the operation is a list paged by `page` (the events feed is walked by `after` instead).
 *
 * @example
 * isPageList(listTickets) // true
 */
export function isPageList(operation: AnyOperation): boolean {
  const entries = (operation.query as { entries?: Record<string, unknown> } | undefined)?.entries
  return operation.method === 'GET' && !hasIdParam(operation) && entries?.page !== undefined
}

/**
 * Whether the operation's path names a target by `:id`.
 *
 * @example
 * hasIdParam(getGoal) // true
 */
export function hasIdParam(operation: AnyOperation): boolean {
  return operation.path.includes(':id')
}

/**
 * Whether the operation's ids are UUIDs (so a malformed one must be a 404 too).
 *
 * @example
 * hasUuidId(getNpsSurvey) // false: survey ids are free-form
 */
export function hasUuidId(operation: AnyOperation): boolean {
  return operation.params === UuidIdParams
}

/**
 * Whether the operation changes data (its success path needs a fresh tenant).
 *
 * @example
 * writes(updateBudget) // true
 */
export function writes(operation: AnyOperation): boolean {
  return operation.method !== 'GET'
}

/**
 * The request line of a sample: the operation's path with `:id` replaced, plus the query.
 *
 * @example
 * samplePath(getGoal, ids) // '/goals/aaaaaaaa-000d-4000-8000-000000000001'
 */
export function samplePath(operation: AnyOperation, ids: FixtureIds, idOverride?: string): string {
  const sample = SAMPLES[operation.id] ?? {}
  const id = idOverride ?? sample.id?.(ids)
  const path = id === undefined ? operation.path : operation.path.replace(':id', encodeURIComponent(id))
  return sample.query ? `${path}?${sample.query}` : path
}

/**
 * The call options (body) of a sample.
 *
 * @example
 * await h.call('PATCH', samplePath(updateBudget, ids), sampleBody(updateBudget))
 */
export function sampleBody(operation: AnyOperation): { body?: unknown } {
  const sample = SAMPLES[operation.id] ?? {}
  return sample.body === undefined ? {} : { body: sample.body }
}
