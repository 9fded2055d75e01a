/**
 * The pipeline suites' shared fixture: one small tenant with a record behind every operation of
 * the registry, an API over the memory store, a harness that checks every response against the
 * OpenAPI document, and a snapshot of the tenant read back through the store's own `list` and `get`.
 */
import {
  createMemoryStore,
  createPublicApi,
  memoryRateLimiter,
  operations,
  type AnyOperation,
  type PublicApiOptions,
  type Scope,
  type SeedData,
  type Store,
} from 'tenant-public-api'
import { SEEDED_COLLECTIONS, type SeededCollection } from '../../src/model/index.js'
import type { ListRequest } from '../../src/model/list-request.js'
import type { GetRequest } from '../../src/ports/store.js'
import type { SamplesByOperation } from '../../src/testing/conformance/samples.js'
import { type WebhookEndpointRecord, webhookEndpoints } from '../../src/model/webhook-endpoints.js'
import { createHarness, testKey, testKeyResolver, type CallResult, type Harness } from 'tenant-public-api/testing'
import { assertMatchesContract } from '../support/contract.js'

export const TENANT = 'tenant-a'
export const OTHER_TENANT = 'tenant-b'
export const BASE = '/api/public/v1'
export const ORIGIN = 'http://api.test'

const T0 = '2025-01-01T00:00:00.000Z'
const T1 = '2025-02-01T00:00:00.000Z'

/** Fixed ids of the seeded records (`00000000-0000-4000-8000-0000000000xx`). */
export const IDS = {
  company: '00000000-0000-4000-8000-000000000001',
  ticket: '00000000-0000-4000-8000-000000000002',
  budget: '00000000-0000-4000-8000-000000000003',
  lineItem: '00000000-0000-4000-8000-000000000004',
  plannerType: '00000000-0000-4000-8000-000000000005',
  goal: '00000000-0000-4000-8000-000000000006',
  rule: '00000000-0000-4000-8000-000000000007',
  report: '00000000-0000-4000-8000-000000000008',
  reportType: '00000000-0000-4000-8000-000000000009',
  reportTemplate: '00000000-0000-4000-8000-000000000010',
  complianceTemplate: '00000000-0000-4000-8000-000000000011',
  complianceCheck: '00000000-0000-4000-8000-000000000012',
  course: '00000000-0000-4000-8000-000000000013',
  enrollment: '00000000-0000-4000-8000-000000000014',
  user: '00000000-0000-4000-8000-000000000015',
  meetingType: '00000000-0000-4000-8000-000000000016',
  survey: '00000000-0000-4000-8000-000000000017',
  webhookEndpoint: '00000000-0000-4000-8000-000000000018',
} as const

/** The tenant's webhook endpoint (endpoints are not seed data: `setup` writes it through the store). */
export function webhookEndpointRecord(): WebhookEndpointRecord {
  return {
    id: IDS.webhookEndpoint,
    url: 'https://hooks.example.com/in',
    events: ['ticket.created'],
    description: null,
    status: 'enabled',
    disabledReason: null,
    createdAt: T0,
    updatedAt: T0,
    secrets: [{ secret: 'whsec_Zml4dHVyZS1zZWNyZXQtZml4dHVyZS1zZWNy', expiresAt: null }],
    eventScopes: ['tickets.read'],
    version: 1,
  }
}

/** One record of every kind, enough for each operation to answer 2xx. */
export function seedData(): SeedData {
  const company = { id: IDS.company, name: 'Acme' }
  return {
    companies: [{ id: IDS.company, name: 'Acme', status: 'active', createdAt: T0, updatedAt: T0 }],
    tickets: [
      {
        id: IDS.ticket,
        ticketNumber: 'T-1001',
        title: 'Printer on fire',
        isClosed: false,
        provider: 'psa_a',
        createdAt: T0,
        notes: [{ id: 'n1', text: 'Looked at it', isInternal: false, createdAt: T1, createdBy: 'Bob' }],
      },
    ],
    plannerItemTypes: [
      { id: IDS.plannerType, name: 'Hardware refresh', isSystem: false, createdAt: T0, updatedAt: T0 },
    ],
    goals: [
      { id: IDS.goal, title: 'Grow', progressPercentage: 10, createdAt: T0, updatedAt: T0, tasks: [], updates: [] },
    ],
    budgets: [
      {
        id: IDS.budget,
        title: 'FY25',
        fiscalYear: 2025,
        periodType: 'Annual',
        status: 'Draft',
        currency: 'USD',
        company,
        createdAt: T0,
        updatedAt: T0,
        lineItems: [
          {
            id: IDS.lineItem,
            type: 'Software',
            description: 'Licences',
            quantity: 2,
            unitPrice: 10,
            recurrence: 'Monthly',
            termMonths: 12,
            status: 'approved',
            currency: 'USD',
            createdAt: T0,
            updatedAt: T0,
          },
        ],
      },
    ],
    automationRules: [
      {
        id: IDS.rule,
        name: 'Escalate',
        isActive: false,
        priority: 1,
        scopeType: 'tenant',
        companyIds: [],
        triggerType: 'scheduled',
        entityType: 'ticket',
        triggerConfig: {},
        conditions: [],
        actions: [],
        createdAt: T0,
        updatedAt: T0,
        version: 1,
      },
    ],
    reportTypes: [{ id: IDS.reportType, name: 'Quarterly review' }],
    reports: [
      { id: IDS.report, title: 'Q1', status: 'draft', isShared: false, version: 1, createdAt: T0, updatedAt: T0 },
    ],
    reportTemplates: [
      {
        id: IDS.reportTemplate,
        name: 'QBR',
        isShared: true,
        reportTypeId: IDS.reportType,
        createdAt: T0,
        updatedAt: T0,
      },
    ],
    complianceTemplates: [
      {
        id: IDS.complianceTemplate,
        title: 'MFA on',
        checkScope: 'company',
        approvalStatus: 'approved',
        createdAt: T0,
        updatedAt: T0,
      },
    ],
    complianceChecks: [{ id: IDS.complianceCheck, title: 'MFA on', flagged: false, updatedAt: T0 }],
    trainingCourses: [
      { id: IDS.course, title: 'Phishing 101', isMandatory: true, isGlobal: false, createdAt: T0, updatedAt: T0 },
    ],
    trainingEnrollments: [
      {
        id: IDS.enrollment,
        course: { id: IDS.course, title: 'Phishing 101', courseType: null },
        user: { id: IDS.user, fullName: 'Ada', email: 'ada@example.com' },
        status: 'in_progress',
        progress: 50,
        timeSpentSeconds: 60,
        enrolledAt: T0,
      },
    ],
    users: [
      {
        id: IDS.user,
        email: 'ada@example.com',
        fullName: 'Ada',
        status: 'active',
        isPrimaryAdmin: true,
        createdAt: T0,
        updatedAt: T0,
      },
    ],
    meetingTypes: [
      { id: IDS.meetingType, name: 'QBR', isInternal: false, orderIndex: 0, createdAt: T0, updatedAt: T0 },
    ],
    npsSurveys: [
      {
        id: IDS.survey,
        title: 'Q1 NPS',
        surveyType: 'one_time',
        ratingType: 'numeric_0_10',
        isActive: true,
        reminderEnabled: false,
        followUpEnabled: false,
        inviteCount: 10,
        createdAt: T0,
        updatedAt: T0,
        responses: [9, 10, 3],
      },
    ],
  }
}

/** A request that each operation answers with its success status, on a freshly seeded tenant. */
export interface SampleRequest {
  path: string
  body?: unknown
  /** Scopes the request needs beyond the operation's own (a webhook endpoint's binding, docs/webhooks.md). */
  scopes?: readonly Scope[]
}

/** The requests written out: every operation's but a read's (the compiler asks), and reads' overrides. */
const WRITTEN_SAMPLES = {
  getTicket: { path: `/tickets/${IDS.ticket}?includeNotes=true` },
  createBudgetLineItem: {
    path: `/budgets/${IDS.budget}/items`,
    body: { type: 'Hardware', description: 'Laptop', unitPrice: 1200 },
  },
  updateBudget: { path: `/budgets/${IDS.budget}`, body: { title: 'FY25 revised' } },
  createAutomationRule: {
    path: '/automation',
    body: {
      name: 'New rule',
      triggerType: 'scheduled',
      triggerConfig: {},
      entityType: 'ticket',
      conditions: [],
      actions: [],
    },
  },
  updateAutomationRule: { path: `/automation/${IDS.rule}`, body: { priority: 5 } },
  updateReport: { path: `/reports/${IDS.report}`, body: { title: 'Q1 final' } },
  deleteTrainingEnrollment: { path: `/training/enrollments/${IDS.enrollment}` },
  getReportTemplate: { path: `/report-templates/${IDS.reportTemplate}?includeStructure=true` },
  createWebhookEndpoint: { path: '/webhook-endpoints', body: { url: 'https://hooks.example.com/new', events: ['*'] } },
  listWebhookEndpoints: { path: '/webhook-endpoints' },
  getWebhookEndpoint: { path: `/webhook-endpoints/${IDS.webhookEndpoint}` },
  // The endpoint delivers ticket.created: changing its status or secret needs tickets.read.
  updateWebhookEndpoint: {
    path: `/webhook-endpoints/${IDS.webhookEndpoint}`,
    body: { status: 'disabled' },
    scopes: ['tickets.read'],
  },
  deleteWebhookEndpoint: { path: `/webhook-endpoints/${IDS.webhookEndpoint}` },
  rotateWebhookEndpointSecret: {
    path: `/webhook-endpoints/${IDS.webhookEndpoint}/rotate-secret`,
    scopes: ['tickets.read'],
  },
  listWebhookDeliveries: { path: `/webhook-endpoints/${IDS.webhookEndpoint}/deliveries` },
  listEvents: { path: '/events' },
} satisfies SamplesByOperation<SampleRequest>

/** A read's request from what it reads: a list's first page, or the seeded record of its collection. */
function readRequest(operation: AnyOperation): SampleRequest | undefined {
  if (operation.reads?.kind !== 'one') return operation.reads && { path: operation.path }
  const { name } = operation.reads.collection
  const [record]: readonly { readonly id: string }[] = seedData()[name] ?? []
  if (record === undefined) throw new Error(`seedData() has no ${name} for ${operation.id}`)
  return { path: concretePath(operation, record.id) }
}

/** A valid request for every operation id of the registry: a read's derived, the others' written. */
export const SAMPLES: Readonly<Record<string, SampleRequest>> = Object.fromEntries(
  operations.flatMap((operation) => {
    const written: Readonly<Partial<Record<string, SampleRequest>>> = WRITTEN_SAMPLES
    const sample = written[operation.id] ?? readRequest(operation)
    return sample === undefined ? [] : [[operation.id, sample]]
  }),
)

/** The sample of an operation; throws when the registry grew an operation this fixture lacks. */
export function sampleOf(operation: AnyOperation): SampleRequest {
  const sample = SAMPLES[operation.id]
  if (sample === undefined) throw new Error(`test/http/fixture.ts has no sample request for ${operation.id}`)
  return sample
}

/** An itty-style registry path (`/budgets/:id/items`) with its parameters filled in by `id`. */
export function concretePath(operation: AnyOperation, id: string): string {
  return operation.path.replace(/:\w+/g, id)
}

/** The operation with this id. */
export function op(id: string): AnyOperation {
  const found = operations.find((operation) => operation.id === id)
  if (found === undefined) throw new Error(`no operation ${id}`)
  return found
}

export interface Setup {
  api: (request: Request) => Promise<Response>
  store: Store
  /** A harness with an every-scope key of {@link TENANT}; every response is checked against the document. */
  h: Harness
  /** Every error passed to `onError`, with its request id. */
  errors: Array<{ error: unknown; requestId: string }>
  /** The key of the harness. */
  key: string
}

/**
 * A freshly seeded tenant and an API over it. The default limiter is generous (tests that are
 * about rate limiting pass their own) and `onError` records instead of logging.
 */
export async function setup(options: Partial<PublicApiOptions> & { seed?: boolean } = {}): Promise<Setup> {
  const store = options.store ?? createMemoryStore()
  if (options.seed !== false) {
    await store.seed(TENANT, seedData())
    await store.seed(OTHER_TENANT, seedData())
    // A failingStore refuses this write like every other; its tests need no endpoint.
    if (!failing.has(store)) {
      await store.replaceVersioned(webhookEndpoints, TENANT, webhookEndpointRecord(), null)
      await store.replaceVersioned(webhookEndpoints, OTHER_TENANT, webhookEndpointRecord(), null)
    }
  }
  const errors: Setup['errors'] = []
  const { seed: _seed, ...rest } = options
  const api = createPublicApi({
    keyResolver: testKeyResolver(),
    rateLimiter: memoryRateLimiter({ limit: 1_000_000 }),
    onError: (error, { requestId }) => void errors.push({ error, requestId }),
    ...rest,
    store,
  })
  const key = testKey(TENANT)
  const h = createHarness(api, {
    key,
    onResponse: contractCheck,
    ...(options.basePath ? { basePath: normalised(options.basePath) } : {}),
  })
  return { api, store, h, errors, key }
}

function normalised(basePath: string): string {
  return `/${basePath.split('/').filter(Boolean).join('/')}`.replace(/^\/$/, '')
}

/** The contract check, for harnesses with the default base path only (the document is built with it). */
function contractCheck(result: CallResult): void {
  if (new URL(result.request.url).pathname.startsWith(BASE)) assertMatchesContract(result)
}

/** A raw request to the API, for what the harness cannot express (streams, invalid bytes, odd headers). */
export function raw(path: string, init: RequestInit & { duplex?: 'half' } = {}): Request {
  return new Request(ORIGIN + BASE + path, init)
}

/** Parses an Error-shape body and checks what every error response has in common. */
export async function errorBody(
  response: Response,
): Promise<{ error: string; code: string; requestId: string; details?: unknown }> {
  const body = (await response.json()) as { error: string; code: string; requestId: string; details?: unknown }
  if (typeof body.error !== 'string' || typeof body.code !== 'string')
    throw new Error(`not the Error shape: ${JSON.stringify(body)}`)
  if (body.requestId !== response.headers.get('x-request-id'))
    throw new Error('Error body requestId differs from X-Request-Id')
  return body
}

/** Every record of a collection, by id. */
const ALL: ListRequest = { filters: {}, search: undefined, order: [], page: 1, limit: 100, after: undefined }

/**
 * Everything the tenant holds, read through the store's own `list` and `get` (each record with every
 * part it keeps apart): two snapshots are equal exactly when no request changed stored data.
 */
export async function snapshot(store: Store, tenantId = TENANT): Promise<unknown> {
  const held: Record<string, unknown> = {}
  for (const collection of SEEDED_COLLECTIONS) {
    const { items, totalCount } = await store.list(collection, tenantId, ALL)
    const include = Object.fromEntries(Object.values(collection.parts).map((part) => [part.field, true]))
    const get = (id: string) => store.get(collection as SeededCollection, tenantId, id, { include } as GetRequest)
    held[collection.name] = { totalCount, records: await Promise.all(items.map((item) => get(item.id))) }
  }
  return held
}

/** A store whose every method throws `error` (or whatever `make` returns), for 500/503 tests. */
export function failingStore(base: Store, make: () => unknown): Store {
  const store = new Proxy(base, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown
      if (typeof value !== 'function' || property === 'seed' || property === 'close') return value
      return async () => {
        throw make()
      }
    },
  })
  failing.add(store)
  return store
}

const failing = new WeakSet<Store>()
