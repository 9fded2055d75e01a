/** Tickets: mirrored from PSA systems, read-only through the API; notes are kept beside the document. */
import * as v from 'valibot'
import {
  booleanParam,
  DateTimeSchema,
  dateTimeParam,
  enumParam,
  integerParam,
  NullableDateTimeSchema,
  paginationQuery,
  textParam,
  uuidParam,
} from './shared.js'
import { orderBy } from './ordering.js'
import { column, defineCollection, type ListFilter } from './collection.js'
import { seedSchemaOf } from './seed-schema.js'

/** The PSA systems tickets are mirrored from. */
export const PROVIDERS = ['psa_a', 'psa_b', 'psa_c', 'psa_d'] as const

/**
 * A note on a ticket.
 *
 * @example
 * v.parse(TicketNoteSchema, { id: 'n1', text: 'Rebooted the printer', isInternal: false,
 *   createdAt: '2026-01-15T09:30:00Z', createdBy: 'Ada' })
 */
export const TicketNoteSchema = v.strictObject({
  id: v.string(),
  text: v.string(),
  isInternal: v.boolean(),
  createdAt: DateTimeSchema,
  createdBy: v.nullable(v.string()),
})
export type TicketNote = v.InferOutput<typeof TicketNoteSchema>

/**
 * A ticket mirrored from a PSA system (read-only).
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'ticket.updated':
 * const ticket = v.parse(TicketSchema, event.data.object)
 * if (ticket.isClosed) archive(ticket.ticketNumber)
 */
export const TicketSchema = v.strictObject({
  id: v.string(),
  ticketNumber: v.string(),
  title: v.string(),
  description: v.nullable(v.string()),
  companyId: v.nullable(v.string()),
  companyName: v.nullable(v.string()),
  contactName: v.nullable(v.string()),
  contactEmail: v.nullable(v.string()),
  status: v.nullable(v.string()),
  isClosed: v.boolean(),
  priority: v.nullable(v.string()),
  assignedTo: v.nullable(v.string()),
  boardName: v.nullable(v.string()),
  queueName: v.nullable(v.string()),
  typeName: v.nullable(v.string()),
  categoryName: v.nullable(v.string()),
  issueTypeName: v.nullable(v.string()),
  hoursBudgeted: v.nullable(v.number()),
  hoursActual: v.nullable(v.number()),
  createdAt: DateTimeSchema,
  updatedAt: NullableDateTimeSchema,
  daysOpen: v.nullable(v.number()),
  provider: v.picklist(PROVIDERS),
  externalId: v.nullable(v.string()),
  source: v.nullable(v.string()),
})
export type Ticket = v.InferOutput<typeof TicketSchema>

/**
 * A ticket with its notes (`GET /tickets/{id}?includeNotes=true`).
 *
 * @example
 * // GET /tickets/{id}?includeNotes=true
 * const { data } = v.parse(v.object({ data: TicketWithNotesSchema }), await response.json())
 * const visible = (data.notes ?? []).filter((note) => !note.isInternal)
 */
export const TicketWithNotesSchema = v.strictObject({
  ...TicketSchema.entries,
  notes: v.optional(v.array(TicketNoteSchema)),
})
export type TicketWithNotes = v.InferOutput<typeof TicketWithNotesSchema>

/**
 * The sort columns of the ticket list and the field each orders by.
 *
 * @example
 * TICKET_SORT_COLUMNS['created_date'] // the field that sort column orders by
 */
export const TICKET_SORT_COLUMNS = {
  created_date: 'createdAt',
  updated_date: 'updatedAt',
  title: 'title',
  status_name: 'status',
  priority_name: 'priority',
  company_name: 'companyName',
  assigned_to: 'assignedTo',
  days_open: 'daysOpen',
} as const satisfies Record<string, keyof Ticket>
export type TicketSortColumn = keyof typeof TICKET_SORT_COLUMNS

/**
 * The query parameters of the list: parses the query string into typed values with their defaults.
 *
 * @example
 * v.parse(TicketListQuerySchema, Object.fromEntries(new URL(request.url).searchParams))
 */
export const TicketListQuerySchema = v.pipe(
  v.strictObject({
    ...paginationQuery,
    sortColumn: v.optional(
      enumParam(Object.keys(TICKET_SORT_COLUMNS) as [TicketSortColumn, ...TicketSortColumn[]], 'Sort field.'),
      'created_date',
    ),
    sortDesc: v.optional(booleanParam('Sort descending.'), 'true'),
    search: v.optional(textParam(255, 'Case-insensitive substring of the title.')),
    companyId: v.optional(uuidParam('Only tickets of this company.')),
    status: v.optional(textParam(100, 'Status name, case-insensitive.')),
    priority: v.optional(textParam(100, 'Priority name, case-insensitive.')),
    assignedTo: v.optional(textParam(255, 'Assigned resource, case-insensitive.')),
    isClosed: v.optional(booleanParam('Closed or open tickets only.')),
    provider: v.optional(enumParam(PROVIDERS, 'PSA provider.')),
    dateFrom: v.optional(
      dateTimeParam('start', 'Created at or after (inclusive). A date means the start of that UTC day.'),
    ),
    dateTo: v.optional(dateTimeParam('end', 'Created at or before (inclusive). A date means the end of that UTC day.')),
  }),
  // dateFrom after dateTo is a 400 (on dateFrom), not an empty page (docs/api-behaviour.md, Lists).
  v.forward(
    v.check(
      (q) => q.dateFrom === undefined || q.dateTo === undefined || q.dateFrom <= q.dateTo,
      'dateFrom must not be after dateTo',
    ),
    ['dateFrom'],
  ),
)
export type TicketListQuery = v.InferOutput<typeof TicketListQuerySchema>

/**
 * The query parameters of the single-record operation: parses the query string into typed values.
 *
 * @example
 * v.parse(TicketDetailQuerySchema, Object.fromEntries(new URL(request.url).searchParams))
 */
export const TicketDetailQuerySchema = v.strictObject({
  includeNotes: v.optional(booleanParam('Include the notes, newest first.'), 'false'),
  notesLimit: v.optional(integerParam(1, 100, 'Maximum notes to return, 1..100.'), '25'),
})
export type TicketDetailQuery = v.InferOutput<typeof TicketDetailQuerySchema>

/** A ticket as seeded: with its notes. */
export type TicketRecord = Ticket & { notes: readonly TicketNote[] }

const newestFirst = orderBy((n: TicketNote) => n.createdAt, true)

/**
 * The tickets collection. A ticket is found by id or by number (`lookup`: numbers repeat across
 * providers, the smallest id wins); its notes are stored newest first, apart from the document
 * that lists return.
 *
 * @example
 * tickets.sorts.created_date // 'created_at'
 */
export const tickets = defineCollection<Ticket, TicketRecord>()({
  name: 'tickets',
  table: 'tickets',
  event: { resource: 'ticket', readScope: 'tickets.read' },
  // With its notes, none by default.
  seed: seedSchemaOf(v.object({ ...TicketSchema.entries, notes: v.optional(v.array(TicketNoteSchema), []) })),
  nested: ['notes'],
  columns: [
    column('ticket_number', 'text', { field: 'ticketNumber' }),
    column('title', 'text', { field: 'title', folded: true }),
    column('status', 'text', { field: 'status', nullable: true, folded: true }),
    column('priority', 'text', { field: 'priority', nullable: true, folded: true }),
    column('company_name', 'text', { field: 'companyName', nullable: true }),
    column('assigned_to', 'text', { field: 'assignedTo', nullable: true, folded: true }),
    column('created_at', 'text', { field: 'createdAt' }),
    column('updated_at', 'text', { field: 'updatedAt', nullable: true }),
    column('days_open', 'real', { field: 'daysOpen', nullable: true }),
    column('company_id', 'text', { field: 'companyId', nullable: true }),
    column('provider', 'text', { field: 'provider' }),
    column('is_closed', 'boolean', { field: 'isClosed' }),
  ],
  document: ({ notes: _notes, ...ticket }) => ticket,
  parts: { notes: { field: 'notes', read: (ticket) => [...ticket.notes].sort(newestFirst) } },
  lookup: 'ticket_number',
  sorts: TICKET_SORT_COLUMNS,
  filters: {
    companyId: { column: 'company_id', op: 'equals' },
    status: { column: 'status', op: 'equalsFolded' },
    priority: { column: 'priority', op: 'equalsFolded' },
    assignedTo: { column: 'assigned_to', op: 'equalsFolded' },
    isClosed: { column: 'is_closed', op: 'equals', scan: true },
    provider: { column: 'provider', op: 'equals', scan: true },
    dateFrom: { column: 'created_at', op: 'atLeast' },
    dateTo: { column: 'created_at', op: 'atMost' },
  } satisfies Partial<Record<keyof TicketListQuery, ListFilter>>,
  search: { columns: ['title'], trigram: true },
  indexes: [
    ['tenant_id', 'ticket_number'],
    // A filter and the default sort together: a selective filter reads only its own rows.
    ['tenant_id', 'company_id', 'created_at DESC', 'id'],
    ['tenant_id', 'status_f'],
    ['tenant_id', 'priority_f'],
    ['tenant_id', 'assigned_to_f'],
  ],
})
