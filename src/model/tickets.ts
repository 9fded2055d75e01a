/** Tickets: mirrored from PSA systems, read-only through the API; notes are kept beside the document. */
import { orderBy } from '../domain/ordering.js'
import { TICKET_SORT_COLUMNS, type Ticket, type TicketListQuery, type TicketNote } from '../resources/tickets/schema.js'
import { column, defineCollection, type FilterSpec } from './collection.js'

/** A ticket as seeded: with its notes. */
export type TicketRecord = Ticket & { notes: readonly TicketNote[] }

const newestFirst = orderBy((n: TicketNote) => n.createdAt, true)

/**
 * The tickets collection. A ticket is found by id or by number (numbers repeat across providers);
 * its notes are stored newest first, apart from the document that lists return.
 *
 * @example
 * tickets.sorts.created_date // 'created_at'
 */
export const tickets = defineCollection<Ticket, TicketRecord>({
  name: 'tickets',
  table: 'tickets',
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
  parts: { notes: { read: (ticket) => [...ticket.notes].sort(newestFirst) } },
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
  } satisfies Partial<Record<keyof TicketListQuery, FilterSpec>>,
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
